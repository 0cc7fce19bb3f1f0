// Package v1 defines a Widget, as ownera/v1 does in another group.
//
// +groupName=b.example.dev
package v1

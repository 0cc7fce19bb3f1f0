// Package v1 is, with ownerb/v1, an input whose owner markers name kinds
// that the input packages define in no group, in one group, or in two.
//
// +groupName=a.example.dev
package v1

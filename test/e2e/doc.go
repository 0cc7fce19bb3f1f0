// Package e2e tests the generated informers, listers, indexes and
// controllers, and the runtime under them, against a real kube-apiserver and
// etcd that internal/testing/testcluster starts on 127.0.0.1: one control plane for
// the package, one namespace per test.
package e2e

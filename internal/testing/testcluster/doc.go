// Package testcluster runs a local Kubernetes control plane for tests: a
// real etcd and a real kube-apiserver, started as child processes from the
// binaries that hack/testbin.sh builds (`make testbin`), listening on free
// 127.0.0.1 ports, with all their state in one temporary directory.
//
// There is no scheduler, no kube-controller-manager and no kubelet: pods
// stay Pending, deleted namespaces stay Terminating (nothing empties them),
// and namespaces get no default ServiceAccount. Tests must never wait for
// any of those.
//
// A package whose tests share one cluster starts it from TestMain:
//
//	var cluster *testcluster.Cluster
//
//	func TestMain(m *testing.M) {
//		os.Exit(testcluster.Main(m, &cluster, testcluster.Options{}))
//	}
//
// kube-apiserver runs without its watch cache unless Options.WatchCache is
// set, so that every list and watch reaches etcd and Compact expires old
// resourceVersions at once.
//
// A test that needs a cluster of its own calls StartForTest. Each test
// isolates its objects in a namespace of its own (NewNamespace).
//
// When the binaries are missing, starting a cluster fails (never skips)
// with a message that says to run `make testbin`.
package testcluster

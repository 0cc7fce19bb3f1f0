//go:build linux

package testcluster

import "syscall"

// setParentDeathSignal has the kernel kill the child when the test binary
// exits without stopping it (a panic in a test, a test timeout, a signal),
// so that no etcd or kube-apiserver outlives the tests.
func setParentDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}

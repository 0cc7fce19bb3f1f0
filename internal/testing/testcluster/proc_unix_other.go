//go:build unix && !linux

package testcluster

import "syscall"

// setParentDeathSignal does nothing where the kernel has no parent death
// signal: Stop (and Main's signal handling) must stop the processes.
func setParentDeathSignal(*syscall.SysProcAttr) {}

//go:build unix

package testcluster

import (
	"errors"
	"os/exec"
	"syscall"
)

// setProcessGroup makes cmd the leader of a new process group, so that
// killProcessGroup reaches it and every process it starts, and (on Linux)
// has the kernel kill it when the test binary dies without stopping it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

// signalProcessGroup sends sig to the process group that pid leads. A group
// that no longer exists is not an error.
func signalProcessGroup(pid int, sig syscall.Signal) error {
	if pid <= 0 {
		return nil
	}
	if err := syscall.Kill(-pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// terminate asks the process group led by pid to exit.
func terminate(pid int) error { return signalProcessGroup(pid, syscall.SIGTERM) }

// kill kills the process group led by pid.
func kill(pid int) error { return signalProcessGroup(pid, syscall.SIGKILL) }

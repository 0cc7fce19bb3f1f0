//go:build !unix

package testcluster

import (
	"errors"
	"os/exec"
)

var errUnsupported = errors.New("testcluster: process groups are only supported on unix")

func setProcessGroup(*exec.Cmd) {}

func terminate(int) error { return errUnsupported }

func kill(int) error { return errUnsupported }

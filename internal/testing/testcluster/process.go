package testcluster

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// process is one child process (etcd or kube-apiserver), the leader of a
// process group of its own, whose output goes to a log file.
type process struct {
	name    string
	logPath string
	cmd     *exec.Cmd
	// done is closed once the process has exited; err is Wait's result
	// then.
	done chan struct{}
	err  error
}

// startProcess starts path with args, appending its standard output and
// error to logPath after a header line naming the command.
func startProcess(name, path string, args []string, env []string, logPath string) (*process, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(logFile, "=== %s %s %s\n", time.Now().Format(time.RFC3339Nano), path, strings.Join(args, " "))
	cmd := exec.Command(path, args...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.Env = env
	setProcessGroup(cmd)
	p := &process{name: name, logPath: logPath, cmd: cmd, done: make(chan struct{})}

	started := make(chan error, 1)
	go func() {
		// The parent death signal (see setProcessGroup) fires when the
		// thread that started the child exits, not the process: start
		// and wait on a thread of its own that lives as long as the child.
		// It is never unlocked, so it exits with this goroutine, after the
		// child.
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			logFile.Close()
			started <- err
			return
		}
		started <- nil
		p.err = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	if err := <-started; err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	return p, nil
}

// exitError reports, when the process has already exited, that it did, and
// nil while it runs.
func (p *process) exitError() error {
	select {
	case <-p.done:
		return fmt.Errorf("%s exited early (%v)", p.name, p.err)
	default:
		return nil
	}
}

// stop asks the process to exit (SIGTERM to its process group), kills the
// group after grace, and returns once the process has exited. It then kills
// what may remain of the group. stop may be called more than once.
func (p *process) stop(grace time.Duration) {
	pid := p.cmd.Process.Pid
	select {
	case <-p.done:
	default:
		_ = terminate(pid)
		timer := time.NewTimer(grace)
		select {
		case <-p.done:
			timer.Stop()
		case <-timer.C:
			if err := kill(pid); err != nil {
				_ = p.cmd.Process.Kill()
			}
			<-p.done
		}
	}
	// Children of the leader, if any, are gone with the group.
	_ = kill(pid)
}

// logTail returns the last lines of the log of the process, at most n
// lines and 8 KiB, for error messages.
func logTail(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	defer f.Close()
	const max = 8 << 10
	if st, err := f.Stat(); err == nil && st.Size() > max {
		_, _ = f.Seek(st.Size()-max, io.SeekStart)
	}
	data, _ := io.ReadAll(f)
	data = bytes.TrimRight(data, "\n")
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// childEnv is the environment of the child processes: the test's, less the
// variables that etcd reads as configuration (ETCD_*), which would override
// the flags.
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "ETCD_") || strings.HasPrefix(kv, "ETCDCTL_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

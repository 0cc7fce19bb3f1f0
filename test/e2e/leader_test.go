package e2e

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen-plus/informer-gen-plus/examples/widgetcontroller"
)

// replica is one widget-controller process of a test.
type replica struct {
	id     string
	cmd    *exec.Cmd
	output *syncBuffer
	exited chan struct{} // closed when the process has exited
	err    error         // how it exited, once exited is closed
}

// syncBuffer is a bytes.Buffer safe for a process's writes and a test's
// reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// buildWidgetController builds the example command into a temporary
// directory.
func buildWidgetController(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "widget-controller")
	build := exec.Command("go", "build", "-o", bin, "github.com/informer-gen-plus/informer-gen-plus/examples/cmd/widget-controller")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building widget-controller: %v\n%s", err, out)
	}
	return bin
}

// startReplica runs bin with leader election in namespace ns; it is
// stopped when the test ends.
func startReplica(t *testing.T, bin, kubeconfig, ns, id string) *replica {
	t.Helper()
	r := &replica{id: id, output: &syncBuffer{}, exited: make(chan struct{})}
	r.cmd = exec.Command(bin, "--kubeconfig", kubeconfig, "--namespace", ns, "--metrics-bind-address", "0",
		"--leader-elect", "--leader-elect-namespace", ns, "--leader-elect-id", id,
		"--leader-elect-lease-duration", "4s", "--leader-elect-renew-deadline", "3s", "--leader-elect-retry-period", "250ms")
	r.cmd.Stdout, r.cmd.Stderr = r.output, r.output
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r.err = r.cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-r.exited:
		case <-time.After(30 * time.Second):
			_ = r.cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("log of replica %s:\n%s", id, r.output)
		}
	})
	return r
}

// leaseHolder returns who holds the controller's Lease in ns ("" for none).
func leaseHolder(t *testing.T, c clients, ns string) string {
	t.Helper()
	lease, err := c.kube.CoordinationV1().Leases(ns).Get(t.Context(), widgetcontroller.Name, metav1.GetOptions{})
	if err != nil || lease.Spec.HolderIdentity == nil {
		return ""
	}
	return *lease.Spec.HolderIdentity
}

// Two replicas of the example command with --leader-elect: one holds the
// Lease and reconciles; when it stops it releases the Lease, and the other
// takes over and reconciles what comes next.
func TestWidgetControllerReplicasHandOverTheLease(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	ctx := t.Context()
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := cluster.WriteKubeconfig(kubeconfig, ns); err != nil {
		t.Fatal(err)
	}
	bin := buildWidgetController(t)
	replicas := map[string]*replica{}
	for _, id := range []string{"replica-a", "replica-b"} {
		replicas[id] = startReplica(t, bin, kubeconfig, ns, id)
	}

	w1, err := c.shop.ShopV1().Widgets(ns).Create(ctx, newWidget("w1", "red", 3), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	waitRendered(t, c, ns, "w1", renderedData(w1, nil))
	leader := leaseHolder(t, c, ns)
	if _, ok := replicas[leader]; !ok {
		t.Fatalf("Lease held by %q, want one of the replicas", leader)
	}

	ids := []string{"replica-a", "replica-b"}
	follower := ids[1-slices.Index(ids, leader)]
	// Only the leader writes.
	if out := replicas[follower].output.String(); strings.Contains(out, "Created ConfigMap") {
		t.Errorf("the follower %s wrote while %s held the Lease:\n%s", follower, leader, out)
	}

	if err := replicas[leader].cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-replicas[leader].exited:
		if err := replicas[leader].err; err != nil {
			t.Fatalf("the leader exited with %v after SIGTERM, want a clean exit", err)
		}
	case <-time.After(45 * time.Second):
		t.Fatal("the leader did not exit after SIGTERM")
	}
	eventually(t, "the follower takes the Lease", func() string {
		if got := leaseHolder(t, c, ns); got != follower {
			return fmt.Sprintf("Lease held by %q, want %q", got, follower)
		}
		return ""
	})
	w2, err := c.shop.ShopV1().Widgets(ns).Create(ctx, newWidget("w2", "blue", 5), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	waitRendered(t, c, ns, "w2", renderedData(w2, nil))
}

package testcluster

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// StartForTest starts a cluster for one test (or benchmark) and stops it
// when the test ends, whether it passed, failed or panicked (t.Cleanup). A
// cluster that does not start fails the test with the reason, including
// missing binaries: it is never skipped. When the test failed, the end of
// both logs is logged before the cluster's directory goes.
func StartForTest(t testing.TB, opts Options) *Cluster {
	t.Helper()
	start := time.Now()
	c, err := Start(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("testcluster: started in %v (kube-apiserver %s, state in %s)", time.Since(start).Round(time.Millisecond), c.config.Host, c.dir)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("testcluster: the test failed; logs of the cluster:\n%s", c.logTails())
		}
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	return c
}

// Main is for TestMain: it starts a cluster with opts, stores it in *dst,
// runs the tests, stops the cluster, and returns the exit code for os.Exit.
// A cluster that does not start is reported on standard error and fails
// the package (exit code 1) without running its tests. SIGINT and SIGTERM
// stop the cluster before the test binary exits; a test that panics or
// times out kills the test binary, and the kernel then kills the cluster's
// processes (on Linux). When a test failed, the end of both logs is printed
// on standard error.
func Main(m *testing.M, dst **Cluster, opts Options) int {
	ctx, cancel := context.WithCancel(context.Background())
	c, err := Start(ctx, opts)
	cancel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "FAIL: %v\n", err)
		return 1
	}
	*dst = c

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case sig := <-signals:
			fmt.Fprintf(os.Stderr, "testcluster: %v: stopping the cluster\n", sig)
			_ = c.Stop()
			os.Exit(1)
		case <-done:
		}
	}()

	code := m.Run()

	signal.Stop(signals)
	close(done)
	<-stopped
	if code != 0 {
		fmt.Fprintf(os.Stderr, "testcluster: tests failed; logs of the cluster:\n%s", c.logTails())
	}
	if err := c.Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "FAIL: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// NewNamespace creates a namespace with a new, unique name derived from the
// test's name, and returns its name. The namespace is deleted when the test
// ends, without waiting: with no controller to empty it, a deleted
// namespace stays Terminating, and its objects stay readable. A namespace
// that cannot be created fails the test.
func (c *Cluster) NewNamespace(t testing.TB) string {
	t.Helper()
	kc, err := c.clients()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ns, err := kc.core.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: namespacePrefix(t.Name())},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("testcluster: creating a namespace: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := kc.core.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{}); ignoreNotFound(err) != nil {
			// The cluster may be gone already; the namespace goes
			// with it.
			t.Logf("testcluster: deleting namespace %s: %v", ns.Name, err)
		}
	})
	return ns.Name
}

// namespacePrefix turns a test name into the GenerateName of a namespace:
// lower case letters, digits and dashes, short enough to leave room for the
// five random characters the server adds, ending in a dash.
func namespacePrefix(testName string) string {
	var b strings.Builder
	dash := true // no leading dash
	for _, r := range strings.ToLower(testName) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	name := strings.TrimRight(b.String(), "-")
	const max = 63 - 5 - 1
	if len(name) > max {
		name = strings.TrimRight(name[:max], "-")
	}
	if name == "" {
		name = "test"
	}
	return name + "-"
}

package controller

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

func key(namespace, name string) cache.ObjectName {
	return cache.ObjectName{Namespace: namespace, Name: name}
}

func TestReconcilesExistingObjectsOnlyAfterTheCacheSynced(t *testing.T) {
	env := newTestEnv(t, configMap("a", "one", nil, nil), configMap("b", "two", nil, nil))
	var unsyncedCalls atomic.Int32
	rec := newRecorder(func(ctx context.Context, k cache.ObjectName, _ int) (Result, error) {
		if !env.configMaps.HasSynced() {
			unsyncedCalls.Add(1)
		}
		return Result{}, nil
	})
	c, err := New(env.primary(), rec, Options{Name: "sync"})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	rec.waitFor(t, key("a", "one"), 1)
	rec.waitFor(t, key("b", "two"), 1)
	if n := unsyncedCalls.Load(); n != 0 {
		t.Errorf("%d reconciles ran before the informer synced", n)
	}
}

func TestRetriesAFailingKeyWithGrowingBackoffUntilItSucceeds(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "flaky", nil, nil))
	rec := newRecorder(func(_ context.Context, _ cache.ObjectName, attempt int) (Result, error) {
		if attempt <= 3 {
			return Result{}, errors.New("not yet")
		}
		return Result{}, nil
	})
	reg := prometheus.NewRegistry()
	c, err := New(env.primary(), rec, Options{Name: "retry", RateLimiter: fastRetries(), Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	k := key("ns", "flaky")
	rec.waitFor(t, k, 4)
	times := rec.times(k)
	// The exponential limiter waits 5, 10 and 20 ms before retries 1 to 3.
	for i, want := range []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond} {
		if gap := times[i+1].Sub(times[i]); gap < want {
			t.Errorf("retry %d came %v after the failure, want at least %v", i+1, gap, want)
		}
	}
	eventually(t, "one success counted", func() bool {
		return testutil.ToFloat64(c.metrics.succeeded) == 1
	})
	if got := testutil.ToFloat64(c.metrics.failed); got != 3 {
		t.Errorf("error results = %v, want 3", got)
	}
	c.failuresMu.Lock()
	defer c.failuresMu.Unlock()
	if got := len(c.failures); got != 0 {
		t.Errorf("%d keys still counted as failing after success", got)
	}
}

func TestDropsAKeyAfterMaxRetriesAndStartsOverOnTheNextEvent(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "broken", nil, nil))
	rec := newRecorder(func(context.Context, cache.ObjectName, int) (Result, error) {
		return Result{}, errors.New("always fails")
	})
	c, err := New(env.primary(), rec, Options{Name: "drop", RateLimiter: fastRetries(), MaxRetries: 2})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	k := key("ns", "broken")
	rec.waitFor(t, k, 3) // the first attempt and two retries
	// Reconcile a marker key: the dropped key would have been retried
	// before it, as the backoff (at most 50 ms) is shorter than the wait.
	time.Sleep(200 * time.Millisecond)
	if n := len(rec.times(k)); n != 3 {
		t.Fatalf("reconciled %d times, want 3 (1 attempt + MaxRetries 2)", n)
	}
	eventually(t, "one key dropped", func() bool { return testutil.ToFloat64(c.metrics.dropped) == 1 })

	cm := configMap("ns", "broken", nil, map[string]string{"changed": "yes"})
	env.update(cm)
	rec.waitFor(t, k, 6)
	eventually(t, "the key dropped again", func() bool { return testutil.ToFloat64(c.metrics.dropped) == 2 })
}

func TestRequeueAfterReconcilesAgainAfterTheDuration(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "poll", nil, nil))
	const after = 100 * time.Millisecond
	rec := newRecorder(func(_ context.Context, _ cache.ObjectName, attempt int) (Result, error) {
		if attempt == 1 {
			return Result{RequeueAfter: after}, nil
		}
		return Result{}, nil
	})
	c, err := New(env.primary(), rec, Options{Name: "requeue"})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	k := key("ns", "poll")
	rec.waitFor(t, k, 2)
	times := rec.times(k)
	if gap := times[1].Sub(times[0]); gap < after {
		t.Errorf("requeued after %v, want at least %v", gap, after)
	}
	eventually(t, "one requeue_after and one success counted", func() bool {
		return testutil.ToFloat64(c.metrics.requeued) == 1 &&
			testutil.ToFloat64(c.metrics.succeeded) == 1
	})
}

func TestShutdownLetsReconcilesInFlightFinishAndSkipsQueuedKeys(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "slow", nil, nil))
	started := make(chan struct{})
	release := make(chan struct{})
	ctxErrAtEnd := make(chan error, 1)
	rec := newRecorder(func(ctx context.Context, k cache.ObjectName, _ int) (Result, error) {
		if k.Name == "slow" {
			close(started)
			<-release
			ctxErrAtEnd <- ctx.Err()
		}
		return Result{}, nil
	})
	c, err := New(env.primary(), rec, Options{Name: "shutdown", GracePeriod: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	stop := env.run(c)
	<-started
	c.Enqueue(key("ns", "queued")) // waits behind the only worker

	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	select {
	case err := <-stopped:
		t.Fatalf("Run returned (%v) while a reconcile was in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if err := <-ctxErrAtEnd; err != nil {
		t.Errorf("the in-flight reconcile's context ended before the grace period: %v", err)
	}
	if n := len(rec.times(key("ns", "queued"))); n != 0 {
		t.Errorf("a key queued before shutdown was reconciled %d times after it", n)
	}
}

func TestShutdownCancelsReconcilesStillRunningAfterTheGracePeriod(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "stuck", nil, nil))
	started := make(chan struct{})
	cancelled := make(chan struct{})
	rec := newRecorder(func(ctx context.Context, _ cache.ObjectName, _ int) (Result, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return Result{}, ctx.Err()
	})
	c, err := New(env.primary(), rec, Options{Name: "grace", GracePeriod: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	stop := env.run(c)
	<-started
	err = stop()
	if err == nil || !strings.Contains(err.Error(), "grace period") {
		t.Fatalf("Run = %v, want a grace period error", err)
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the stuck reconcile's context was not cancelled")
	}
}

func TestADeletedObjectIsReconciledAndReadsAsNotFound(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "doomed", nil, nil))
	lister := cache.NewLister[*corev1.ConfigMap](env.configMaps.GetIndexer(), corev1.Resource("configmaps"))
	gone := make(chan cache.ObjectName, 1)
	rec := newRecorder(func(_ context.Context, k cache.ObjectName, _ int) (Result, error) {
		_, err := lister.Namespace(k.Namespace).Get(k.Name)
		if apierrors.IsNotFound(err) {
			gone <- k
			return Result{}, nil
		}
		return Result{}, err
	})
	c, err := New(env.primary(), rec, Options{Name: "delete"})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	rec.waitFor(t, key("ns", "doomed"), 1)
	if err := env.client.CoreV1().ConfigMaps("ns").Delete(context.Background(), "doomed", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case k := <-gone:
		if k != key("ns", "doomed") {
			t.Errorf("reconciled %v as gone", k)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the deletion was not reconciled")
	}
}

func TestAPanickingReconcileIsCountedAndRetried(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "bomb", nil, nil))
	rec := newRecorder(func(_ context.Context, _ cache.ObjectName, attempt int) (Result, error) {
		if attempt == 1 {
			panic("boom")
		}
		return Result{}, nil
	})
	c, err := New(env.primary(), rec, Options{Name: "panic", RateLimiter: fastRetries()})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	rec.waitFor(t, key("ns", "bomb"), 2)
	eventually(t, "one panic counted as one error", func() bool {
		return testutil.ToFloat64(c.metrics.panics) == 1 && testutil.ToFloat64(c.metrics.errors) == 1 &&
			testutil.ToFloat64(c.metrics.succeeded) == 1
	})
}

func TestRunFailsWhenASourceNeverSyncs(t *testing.T) {
	env := newTestEnv(t)
	c, err := New(env.primary(), newRecorder(nil), Options{Name: "nosync", CacheSyncTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// The informers are never started.
	err = c.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "*v1.ConfigMap") {
		t.Fatalf("Run = %v, want an error naming the unsynced source", err)
	}
}

func TestRunAndWatchAreRefusedOnceRunning(t *testing.T) {
	env := newTestEnv(t)
	c, err := New(env.primary(), newRecorder(nil), Options{Name: "once"})
	if err != nil {
		t.Fatal(err)
	}
	stop := env.run(c)
	eventually(t, "Run started", c.isStarted)
	if err := c.Run(context.Background()); err == nil {
		t.Error("a second Run succeeded")
	}
	if err := WatchOwned(c, env.secrets); err == nil {
		t.Error("Watch after Run succeeded")
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func TestNewRequiresANameAnInformerAndAReconciler(t *testing.T) {
	env := newTestEnv(t)
	for name, build := range map[string]func() error{
		"no name":       func() error { _, err := New(env.primary(), newRecorder(nil), Options{}); return err },
		"no reconciler": func() error { _, err := New(env.primary(), nil, Options{Name: "x"}); return err },
		"no informer": func() error {
			_, err := New(Primary[*corev1.ConfigMap]{}, newRecorder(nil), Options{Name: "x"})
			return err
		},
	} {
		if build() == nil {
			t.Errorf("%s: New succeeded", name)
		}
	}
}

func TestMetricsOfTwoControllersShareOneRegistry(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "m", nil, nil))
	reg := prometheus.NewRegistry()
	first, err := New(env.primary(), newRecorder(nil), Options{Name: "first", Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	second, err := New(env.primary(), newRecorder(nil), Options{Name: "second", Registerer: reg})
	if err != nil {
		t.Fatalf("a second controller on the same registry: %v", err)
	}
	defer second.queue.ShutDown()
	rec := first.reconciler.(*recorder)
	env.run(first)
	rec.waitFor(t, key("ns", "m"), 1)
	eventually(t, "one success counted", func() bool {
		return testutil.ToFloat64(first.metrics.succeeded) == 1
	})
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"controller_reconcile_total": false, "controller_reconcile_duration_seconds": false,
		"workqueue_adds_total": false, "workqueue_depth": false, "workqueue_work_duration_seconds": false,
	}
	for _, f := range families {
		if _, ok := want[f.GetName()]; !ok {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if (l.GetName() == "controller" || l.GetName() == "name") && l.GetValue() == "first" {
					want[f.GetName()] = true
				}
			}
		}
	}
	for name, found := range want {
		if !found {
			t.Errorf("metric %s of controller first not gathered", name)
		}
	}
}

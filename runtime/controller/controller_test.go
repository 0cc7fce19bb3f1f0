package controller

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"

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
	c, err := New(env.primary(), rec, Options{Name: "sync", SkipNameValidation: true})
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
	c, err := New(env.primary(), rec, Options{Name: "retry", SkipNameValidation: true, RateLimiter: fastRetries(), Registerer: reg})
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
	c.keysMu.Lock()
	defer c.keysMu.Unlock()
	if got := len(c.keys); got != 0 {
		t.Errorf("%d keys still tracked after success: %v", got, c.keys)
	}
}

func TestDropsAKeyAfterMaxRetriesAndStartsOverOnTheNextEvent(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "broken", nil, nil))
	rec := newRecorder(func(context.Context, cache.ObjectName, int) (Result, error) {
		return Result{}, errors.New("always fails")
	})
	c, err := New(env.primary(), rec, Options{Name: "drop", SkipNameValidation: true, RateLimiter: fastRetries(), MaxRetries: 2})
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

// waitPast sleeps until d after t, then reconciles a marker key and waits for
// it: with one worker and client-go's FIFO queue, every key queued by then
// (by a retry or requeue due before) has been taken from the queue first.
func waitPast(t *testing.T, c *Controller[*corev1.ConfigMap], rec *recorder, at time.Time, d time.Duration) {
	t.Helper()
	time.Sleep(time.Until(at.Add(d + 100*time.Millisecond)))
	marker := key("marker", uniqueName("marker"))
	c.Enqueue(marker)
	rec.waitFor(t, marker, 1)
}

// failsUnlessMarker fails every reconcile but those of waitPast's markers.
func failsUnlessMarker(_ context.Context, k cache.ObjectName, _ int) (Result, error) {
	if k.Namespace == "marker" {
		return Result{}, nil
	}
	return Result{}, errors.New("always fails")
}

// The retry a failure schedules waits in client-go's delaying queue, where it
// cannot be cancelled. When an event-driven attempt during that backoff
// exceeds MaxRetries, the key is dropped, and the retry still pending must not
// bring it back: a dropped key waits for the next event on it.
func TestADroppedKeyIsNotRetriedByARetryPendingWhenItWasDropped(t *testing.T) {
	env := newTestEnv(t)
	const backoff = 200 * time.Millisecond
	rec := newRecorder(failsUnlessMarker)
	c, err := New(env.primary(), rec, Options{Name: "drop-pending", SkipNameValidation: true, MaxRetries: 1,
		RateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[cache.ObjectName](backoff, backoff)})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	k := key("ns", "k")
	c.Enqueue(k)
	rec.waitFor(t, k, 1) // fails: its retry is due after the backoff
	c.Enqueue(k)         // an event before the retry is due
	rec.waitFor(t, k, 2) // fails again: more than MaxRetries, dropped
	eventually(t, "the key dropped", func() bool { return testutil.ToFloat64(c.metrics.dropped) == 1 })
	waitPast(t, c, rec, rec.times(k)[0], backoff)
	if n := len(rec.times(k)); n != 2 {
		t.Fatalf("the dropped key was reconciled %d times in all with no event after the drop, want 2", n)
	}

	c.Enqueue(k) // the next event starts over: one attempt, one retry
	rec.waitFor(t, k, 4)
	eventually(t, "the key dropped again", func() bool { return testutil.ToFloat64(c.metrics.dropped) == 2 })
	waitPast(t, c, rec, rec.times(k)[3], backoff)
	if n := len(rec.times(k)); n != 4 {
		t.Errorf("after the second drop the key was reconciled %d times in all, want 4", n)
	}
	c.keysMu.Lock()
	defer c.keysMu.Unlock()
	if _, tracked := c.keys[k]; tracked {
		t.Errorf("the dropped key is still tracked: %+v", c.keys[k])
	}
}

// The outcome of a key's latest reconcile decides when it comes back: an
// event-driven attempt that fails during a backoff is retried after its own
// backoff, not when the earlier, shorter one would have ended.
func TestAnEventDuringABackoffDoesNotBringTheNextRetryForward(t *testing.T) {
	env := newTestEnv(t)
	const base = 100 * time.Millisecond
	rec := newRecorder(func(_ context.Context, _ cache.ObjectName, attempt int) (Result, error) {
		if attempt <= 2 {
			return Result{}, errors.New("not yet")
		}
		return Result{}, nil
	})
	c, err := New(env.primary(), rec, Options{Name: "backoff-event", SkipNameValidation: true,
		RateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[cache.ObjectName](base, 10*time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	k := key("ns", "k")
	c.Enqueue(k)
	rec.waitFor(t, k, 1) // fails: retry due after 100 ms
	c.Enqueue(k)         // an event before it is due
	rec.waitFor(t, k, 2) // fails: retry due 200 ms later
	rec.waitFor(t, k, 3)
	times := rec.times(k)
	if gap := times[2].Sub(times[1]); gap < 2*base {
		t.Errorf("the retry after the second failure came after %v, want at least its backoff of %v", gap, 2*base)
	}
	eventually(t, "one success counted", func() bool { return testutil.ToFloat64(c.metrics.succeeded) == 1 })
}

// A success with no requeue ends the work on a key until the next event,
// also when an earlier result asked for a requeue that is still pending.
func TestASuccessCancelsAPendingRequeue(t *testing.T) {
	env := newTestEnv(t)
	const after = 200 * time.Millisecond
	rec := newRecorder(func(_ context.Context, k cache.ObjectName, attempt int) (Result, error) {
		if k.Namespace != "marker" && attempt == 1 {
			return Result{RequeueAfter: after}, nil
		}
		return Result{}, nil
	})
	c, err := New(env.primary(), rec, Options{Name: "requeue-replaced", SkipNameValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	k := key("ns", "k")
	c.Enqueue(k)
	rec.waitFor(t, k, 1) // asks for a requeue
	c.Enqueue(k)         // an event before it is due
	rec.waitFor(t, k, 2) // succeeds with no requeue
	waitPast(t, c, rec, rec.times(k)[0], after)
	if n := len(rec.times(k)); n != 2 {
		t.Errorf("reconciled %d times, want 2: the requeue the first result asked for outlived the second result", n)
	}
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
	c, err := New(env.primary(), rec, Options{Name: "requeue", SkipNameValidation: true})
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
	c, err := New(env.primary(), rec, Options{Name: "shutdown", SkipNameValidation: true, GracePeriod: 10 * time.Second})
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
	c, err := New(env.primary(), rec, Options{Name: "grace", SkipNameValidation: true, GracePeriod: 50 * time.Millisecond})
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
	c, err := New(env.primary(), rec, Options{Name: "delete", SkipNameValidation: true})
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
	c, err := New(env.primary(), rec, Options{Name: "panic", SkipNameValidation: true, RateLimiter: fastRetries()})
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
	c, err := New(env.primary(), newRecorder(nil), Options{Name: "nosync", SkipNameValidation: true, CacheSyncTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// The informers are never started.
	err = c.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "*v1.ConfigMap") {
		t.Fatalf("Run = %v, want an error naming the unsynced source", err)
	}
}

func TestASecondRunIsRefused(t *testing.T) {
	env := newTestEnv(t)
	c, err := New(env.primary(), newRecorder(nil), Options{Name: "once", SkipNameValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	stop := env.run(c)
	eventually(t, "Run started", c.isStarted)
	if err := c.Run(context.Background()); err == nil {
		t.Error("a second Run succeeded")
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// New and Watch only record the configuration: a controller that is built
// but never run (its set-up failed after New, say) leaves no goroutine and
// no event handler behind, and needs no cleanup.
func TestAControllerThatNeverRunsHoldsNoGoroutineAndNoHandler(t *testing.T) {
	env := newTestEnv(t)
	configMaps, secrets := counting(env.configMaps), counting(env.secrets)
	before := goleak.IgnoreCurrent()
	c, err := New(Primary[*corev1.ConfigMap]{Informer: configMaps, GroupKind: configMapKind, Namespaced: true},
		newRecorder(nil), Options{Name: "never-run", SkipNameValidation: true, Registerer: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	if err := WatchOwned(c, secrets); err != nil {
		t.Fatal(err)
	}
	c.Enqueue(key("ns", "k"))
	if err := goleak.Find(before); err != nil {
		t.Errorf("New, Watch and Enqueue started goroutines:\n%v", err)
	}
	if n, m := configMaps.handlers(), secrets.handlers(); n != 0 || m != 0 {
		t.Errorf("New and Watch registered %d primary and %d secondary event handlers before Run, want none", n, m)
	}
}

// Run registers the handlers of the sources recorded before it and removes
// them, with every other resource it started, when it returns.
func TestRunRegistersTheSourcesAndRemovesThemWhenItReturns(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "early", nil, nil))
	configMaps, secrets := counting(env.configMaps), counting(env.secrets)
	rec := newRecorder(nil)
	c, err := New(Primary[*corev1.ConfigMap]{Informer: configMaps, GroupKind: configMapKind, Namespaced: true},
		rec, Options{Name: "lifecycle", SkipNameValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := WatchOwned(c, secrets); err != nil {
		t.Fatal(err)
	}
	c.Enqueue(key("ns", "enqueued-before-run"))
	stop := env.run(c)
	rec.waitFor(t, key("ns", "early"), 1)
	rec.waitFor(t, key("ns", "enqueued-before-run"), 1)
	if n, m := configMaps.handlers(), secrets.handlers(); n != 1 || m != 1 {
		t.Errorf("running: %d primary and %d secondary event handlers, want 1 and 1", n, m)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if n, m := configMaps.handlers(), secrets.handlers(); n != 0 || m != 0 {
		t.Errorf("after Run: %d primary and %d secondary event handlers left, want none", n, m)
	}
}

// A source added while Run runs starts at once, as controller-runtime's
// Watch on a started controller does; once Run returned, Watch fails.
func TestWatchWhileRunningStartsTheSourceAtOnce(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "owner", nil, nil))
	secrets := counting(env.secrets)
	rec := newRecorder(nil)
	c, err := New(env.primary(), rec, Options{Name: "late-watch", SkipNameValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	stop := env.run(c)
	rec.waitFor(t, key("ns", "owner"), 1)
	if err := WatchOwned(c, secrets); err != nil {
		t.Fatalf("Watch while running: %v", err)
	}
	if _, err := env.client.CoreV1().Secrets("ns").Create(context.Background(), secret("ns", "owned", ownerRef("v1", "ConfigMap", "owner", true)), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, key("ns", "owner"), 2)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if n := secrets.handlers(); n != 0 {
		t.Errorf("the handler of the source added while running outlived Run (%d left)", n)
	}
	if err := WatchOwned(c, secrets); err == nil {
		t.Error("Watch after Run returned succeeded")
	}
	if n := secrets.handlers(); n != 0 {
		t.Errorf("Watch after Run registered %d handlers", n)
	}
}

// A source whose informer has stopped cannot be registered: Run fails naming
// it, and leaves no handler behind on the other informers.
func TestRunFailsWhenASourcesInformerHasStopped(t *testing.T) {
	env := newTestEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env.secrets.RunWithContext(ctx) // returns at once, stopped
	configMaps := counting(env.configMaps)
	c, err := New(Primary[*corev1.ConfigMap]{Informer: configMaps, GroupKind: configMapKind, Namespaced: true},
		newRecorder(nil), Options{Name: "stopped-source", SkipNameValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := WatchOwned(c, env.secrets); err != nil {
		t.Fatalf("Watch before Run: %v", err)
	}
	err = c.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "*v1.Secret") {
		t.Fatalf("Run = %v, want an error naming the source that could not be registered", err)
	}
	if n := configMaps.handlers(); n != 0 {
		t.Errorf("the failed Run left %d handlers on the primary informer", n)
	}
}

// Informers that stopped with Run's own context, before Run added its
// handlers, are a clean stop, not a failure.
func TestRunStoppedWithItsInformersBeforeRegisteringReturnsNil(t *testing.T) {
	env := newTestEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env.configMaps.RunWithContext(ctx) // returns at once, stopped
	c, err := New(env.primary(), newRecorder(nil), Options{Name: "stopped-with-ctx", SkipNameValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(ctx); err != nil {
		t.Errorf("Run with its context ended and its informer stopped = %v, want nil", err)
	}
}

// Controller names label the metric series, so two controllers of a process
// cannot share one; the name stays taken after Run returns, as
// controller-runtime's do.
func TestNewRejectsANameAnotherControllerHas(t *testing.T) {
	env := newTestEnv(t)
	name := uniqueName("duplicate")
	first, err := New(env.primary(), newRecorder(nil), Options{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(env.primary(), newRecorder(nil), Options{Name: name})
	if err == nil || !strings.Contains(err.Error(), strconv.Quote(name)) {
		t.Fatalf("New with a taken name = %v, want an error naming %q", err, name)
	}
	if _, err := New(env.primary(), newRecorder(nil), Options{Name: name, SkipNameValidation: true}); err != nil {
		t.Errorf("New with SkipNameValidation: %v", err)
	}
	if err := env.run(first)(); err != nil {
		t.Fatal(err)
	}
	if _, err := New(env.primary(), newRecorder(nil), Options{Name: name}); err == nil {
		t.Error("the name of a controller whose Run returned was given to a new one")
	}
	// A failed New does not take its name.
	other := uniqueName("failed")
	if _, err := New(env.primary(), nil, Options{Name: other}); err == nil {
		t.Fatal("New without a reconciler succeeded")
	}
	if _, err := New(env.primary(), newRecorder(nil), Options{Name: other}); err != nil {
		t.Errorf("the name of a failed New is taken: %v", err)
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
	first, err := New(env.primary(), newRecorder(nil), Options{Name: "first", SkipNameValidation: true, Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(env.primary(), newRecorder(nil), Options{Name: "second", SkipNameValidation: true, Registerer: reg}); err != nil {
		t.Fatalf("a second controller on the same registry: %v", err)
	}
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

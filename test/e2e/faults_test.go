package e2e

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	toolscache "k8s.io/client-go/tools/cache"

	rcache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// faultInformerOptions are the options of the fault tests' informers.
type faultInformerOptions = rcache.SharedIndexInformerOptions[*corev1.ConfigMap]

// newFaultInformer returns an informer of ConfigMaps over lw, failing the test
// when opts are invalid.
func newFaultInformer(t *testing.T, lw *rcache.ListWatch[*corev1.ConfigMap], opts faultInformerOptions) *rcache.SharedIndexInformer[*corev1.ConfigMap] {
	t.Helper()
	inf, err := rcache.NewSharedIndexInformer(lw, opts)
	if err != nil {
		t.Fatal(err)
	}
	return inf
}

// An informer whose kube-apiserver is restarted while ConfigMaps are
// being created, updated and deleted resumes once the server is back: its
// cache equals a fresh LIST, and its handler, told only consistent
// notifications, was told of every delete; a delete is marked
// finalStateUnknown only if the informer had to relist.
func TestFaultAPIServerRestartMidStreamLosesNoChange(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	api := c.kube.CoreV1().ConfigMaps(ns)
	lw := newFaultListWatch(api)
	inf := newFaultInformer(t, lw.ListWatch(c.kube), faultInformerOptions{Name: "restart"})
	rec := faultRunRecorded(t, inf)

	writer := startFaultChurn(t, api, "cm", 4, 10, 5*time.Millisecond)
	time.Sleep(1500 * time.Millisecond)
	watchesBefore := lw.watchLists.Load() + lw.rewatches.Load()
	writesBefore := writer.writes()
	if err := cluster.RestartAPIServer(t.Context()); err != nil {
		t.Fatal(err)
	}
	writesAtRestart := writer.writes()
	// Keep writing for a while after the restart.
	eventually(t, "writes after the restart", func() string {
		if n := writer.writes() - writesAtRestart; n < 150 {
			return fmt.Sprintf("%d writes since the restart", n)
		}
		return ""
	})
	writer.Stop()
	t.Logf("writer: %s (%d before the restart); informer: %s", writer, writesBefore, lw)

	final := faultWaitConverged(t, api, inf, rec)
	if writer.failures.Load() == 0 {
		t.Errorf("no write failed: the writer never met the server down (%s)", writer)
	}
	if watches := lw.watchLists.Load() + lw.rewatches.Load(); watches <= watchesBefore {
		t.Errorf("%d watches after the restart, %d before: the informer did not watch again", watches, watchesBefore)
	}
	gone := writer.missingFrom(final)
	if lost := rec.lostDeletes(gone); len(lost) > 0 {
		t.Errorf("no OnDelete for %v, deleted on the server", lost)
	}
	deletes, unknown := rec.deleteCounts()
	if deletes == 0 || writer.deletes.Load() == 0 {
		t.Errorf("%d deletes written, %d OnDelete calls: the test deleted nothing", writer.deletes.Load(), deletes)
	}
	if lw.fullLists() == 1 && unknown > 0 {
		t.Errorf("%d of %d deletes had finalStateUnknown set, but the informer never relisted (%s): it saw every delete", unknown, deletes, lw)
	}
	t.Logf("OnDelete: %d, %d of them finalStateUnknown; %d objects at the end", deletes, unknown, len(final))
}

// When etcd is compacted while an informer is not watching, the
// informer's re-watch from its old resourceVersion is refused with 410
// Gone; it relists (by watch-list stream or by LIST), and every delete it
// missed reaches its handler as an OnDelete with finalStateUnknown set,
// while objects created and deleted during the outage, which it never saw,
// get no OnDelete at all. It holds with a bounded queue too, where the
// relist waits for room key by key.
func TestFaultCompactionWhileWatchIsDownRelistsAndDeliversMissedDeletesAsFinalStateUnknown(t *testing.T) {
	slow := rcache.Indexers[*corev1.ConfigMap]{"slow": func(*corev1.ConfigMap) []string {
		time.Sleep(2 * time.Millisecond)
		return nil
	}}
	cases := []struct {
		name string
		mode int // index in faultListModes
		opts faultInformerOptions
	}{
		{name: faultListModes[0].name, mode: 0},
		{name: faultListModes[1].name, mode: 1},
		{name: faultListModes[0].name + ", slow consumer, MaxQueueSize 3", mode: 0, opts: faultInformerOptions{MaxQueueSize: 3, Indexers: slow}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mode := faultListModes[tc.mode]
			c := newClients(t)
			ns := cluster.NewNamespace(t)
			api := c.kube.CoreV1().ConfigMaps(ns)
			ctx := t.Context()
			for i := range 30 {
				if _, err := api.Create(ctx, faultConfigMap(fmt.Sprintf("c-%02d", i), "0"), metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			lw := newFaultListWatch(api)
			opts := tc.opts
			opts.Name = "compaction"
			inf := newFaultInformer(t, lw.ListWatch(mode.client(c)), opts)
			rec := faultRunRecorded(t, inf)
			faultWaitConverged(t, api, inf, rec)

			listsBefore := lw.fullLists()
			if err := lw.Hold(ctx, 1100*time.Millisecond); err != nil {
				t.Fatalf("%v (%s)", err, lw)
			}
			var deleted, unseen []string
			for i := range 10 {
				name := fmt.Sprintf("c-%02d", i)
				if err := api.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
				deleted = append(deleted, name)
				if _, err := api.Update(ctx, faultConfigMap(fmt.Sprintf("c-%02d", i+10), "1"), metav1.UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
				if _, err := api.Create(ctx, faultConfigMap(fmt.Sprintf("n-%02d", i), "0"), metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
				name = fmt.Sprintf("d-%02d", i)
				if _, err := api.Create(ctx, faultConfigMap(name, "0"), metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
				if err := api.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
				unseen = append(unseen, name)
			}
			if _, err := cluster.Compact(ctx); err != nil {
				t.Fatal(err)
			}
			lw.Release()

			final := faultWaitConverged(t, api, inf, rec)
			t.Logf("informer: %s; %d objects at the end", lw, len(final))
			if lw.gone.Load() == 0 {
				t.Errorf("no list or watch was refused with 410 Gone after the compaction (%s)", lw)
			}
			if lw.fullLists() <= listsBefore {
				t.Errorf("the informer did not relist after 410 Gone: %d full lists before the outage, %d after (%s)", listsBefore, lw.fullLists(), lw)
			}
			for _, name := range deleted {
				if got := rec.deletesOf(name); len(got) != 1 || !got[0].finalStateUnknown {
					t.Errorf("deletes of %s = %+v, want one with finalStateUnknown", name, got)
				}
			}
			for _, name := range unseen {
				if got := rec.deletesOf(name); len(got) != 0 {
					t.Errorf("deletes of %s, never seen by the informer, = %+v, want none", name, got)
				}
			}
			if lost := rec.lostDeletes(append(deleted, unseen...)); len(lost) > 0 {
				t.Errorf("no OnDelete for %v, deleted on the server", lost)
			}
			if all, unknown := rec.deleteCounts(); all != len(deleted) || unknown != len(deleted) {
				t.Errorf("%d OnDelete calls, %d with finalStateUnknown; want %d, all of them", all, unknown, len(deleted))
			}
		})
	}
}

// When the server ends every watch after a short timeout while ConfigMaps
// keep changing, the informer re-watches from the last resourceVersion it
// saw, each time, without ever relisting, and misses nothing: its cache
// equals a fresh LIST and every delete reached its handler as seen (not
// finalStateUnknown).
func TestFaultServerWatchTimeoutsResumeWithoutRelist(t *testing.T) {
	for _, mode := range faultListModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel() // mostly waiting for timeouts
			c := newClients(t)
			ns := cluster.NewNamespace(t)
			api := c.kube.CoreV1().ConfigMaps(ns)
			lw := newFaultListWatch(api)
			// Two seconds, not one: client-go takes a watch that ends
			// within a second without an event for a failure, and relists.
			lw.watchTimeout = 2
			inf := newFaultInformer(t, lw.ListWatch(mode.client(c)), faultInformerOptions{Name: "timeouts"})
			rec := faultRunRecorded(t, inf)

			writer := startFaultChurn(t, api, "cm", 2, 10, 10*time.Millisecond)
			time.Sleep(9 * time.Second)
			writer.Stop()
			final := faultWaitConverged(t, api, inf, rec)
			t.Logf("writer: %s; informer: %s; %d objects at the end", writer, lw, len(final))

			if n := lw.rewatches.Load(); n < 3 {
				t.Errorf("%d re-watches in 9 s of 2 s watches, want at least 3 (%s)", n, lw)
			}
			if n := lw.fullLists(); n != 1 {
				t.Errorf("%d full lists, want only the first: a watch that timed out made the informer relist (%s)", n, lw)
			}
			if lost := rec.lostDeletes(writer.missingFrom(final)); len(lost) > 0 {
				t.Errorf("no OnDelete for %v, deleted on the server", lost)
			}
			deletes, unknown := rec.deleteCounts()
			if deletes == 0 {
				t.Errorf("no OnDelete calls (writer: %s): the test deleted nothing", writer)
			}
			if unknown > 0 {
				t.Errorf("%d of %d deletes had finalStateUnknown set, though the informer saw every delete", unknown, deletes)
			}
		})
	}
}

// A burst of writes into an informer whose queue is bounded
// (MaxQueueSize) and whose processing is slow fills the queue up to the
// bound and never past it: the reflector waits for room instead. Nothing is
// lost: the cache equals a fresh LIST, and the handler's last view of every
// object is its final resourceVersion.
func TestFaultBoundedQueueUnderBurstHoldsItsBoundAndLosesNothing(t *testing.T) {
	const (
		maxQueue = 50
		objects  = 5000
		writers  = 8
		// The consumer is stopped until this many objects have been
		// created, far more than the queue holds, and slow after.
		backlog = 20 * maxQueue
	)
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	// Protobuf: the burst is bound by this process's CPU, under -race.
	config := *c.config
	config.ContentType = "application/vnd.kubernetes.protobuf"
	kube := kubernetes.NewForConfigOrDie(&config)
	api := kube.CoreV1().ConfigMaps(ns)

	id, err := toolscache.NewInformerName("faults-bounded-" + ns)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(id.Release)
	gauge := &faultQueueGauge{}
	gate := make(chan struct{})
	var openGate sync.Once
	lw := newFaultListWatch(api)
	inf := newFaultInformer(t, lw.ListWatch(kube), faultInformerOptions{
		Name:         "bounded",
		MaxQueueSize: maxQueue,
		// The index function runs as each popped change is stored, so it
		// paces the queue's consumer (handlers, with buffers of their
		// own, would not): not at all until the gate opens, then slowly.
		Indexers: rcache.Indexers[*corev1.ConfigMap]{"slow": func(cm *corev1.ConfigMap) []string {
			select {
			case <-gate:
			case <-t.Context().Done(): // the test failed before opening it
			}
			time.Sleep(500 * time.Microsecond)
			return []string{cm.Data["v"]}
		}},
		Identifier:      id.WithResource(corev1.SchemeGroupVersion.WithResource("configmaps")),
		MetricsProvider: faultMetricsProvider{queued: gauge},
	})
	rec := newFaultRecorder()
	reg, err := inf.AddTypedEventHandler(toolscache.TypedResourceEventHandlerDetailedFuncs[*corev1.ConfigMap]{
		AddFunc: func(cm *corev1.ConfigMap, initial bool) {
			time.Sleep(100 * time.Microsecond)
			rec.OnAdd(cm, initial)
		},
		UpdateFunc: func(old, cm *corev1.ConfigMap) {
			time.Sleep(100 * time.Microsecond)
			rec.OnUpdate(old, cm)
		},
		DeleteFunc: rec.OnDelete,
	})
	if err != nil {
		t.Fatal(err)
	}
	faultRunInformer(t, inf, reg) // the namespace is empty: nothing to index yet

	// Every writer creates its share, and updates every tenth object it
	// created once more.
	start := time.Now()
	var wg sync.WaitGroup
	var created, failed atomic.Int64
	for w := range writers {
		wg.Go(func() {
			for i := w; i < objects && failed.Load() == 0; i += writers {
				name := fmt.Sprintf("cm-%04d", i)
				if _, err := api.Create(t.Context(), faultConfigMap(name, "0"), metav1.CreateOptions{}); err != nil {
					failed.Add(1)
					t.Errorf("create %s: %v", name, err)
					return
				}
				if created.Add(1) == backlog {
					openGate.Do(func() { close(gate) })
				}
				if i%10 == 0 {
					if _, err := api.Update(t.Context(), faultConfigMap(name, "1"), metav1.UpdateOptions{}); err != nil {
						failed.Add(1)
						t.Errorf("update %s: %v", name, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() > 0 {
		t.FailNow()
	}
	wrote := time.Since(start)
	final := faultWaitConverged(t, api, inf, rec)
	eventually(t, "the queue drains", func() string {
		if _, last, _ := gauge.values(); last != 0 {
			return fmt.Sprintf("last reported length %d", last)
		}
		return ""
	})
	largest, _, reports := gauge.values()
	t.Logf("%d objects written in %v, all processed after %v; queue length: %d reports, largest %d; informer: %s",
		len(final), wrote.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), reports, largest, lw)

	if len(final) != objects {
		t.Errorf("%d objects on the server, want %d", len(final), objects)
	}
	// The queue holds at most MaxQueueSize keys: a producer waits for room
	// before it queues a new key (DeltaFIFOOptions.MaxSize).
	if largest > maxQueue {
		t.Errorf("the queue held %d keys, more than MaxQueueSize %d", largest, maxQueue)
	}
	if largest < maxQueue {
		t.Errorf("the queue never filled up (largest length %d, bound %d): the test did not exercise backpressure", largest, maxQueue)
	}
	if reports < objects {
		t.Errorf("%d queue length reports, want one per processed key, at least %d", reports, objects)
	}
	if n := lw.fullLists(); n != 1 {
		t.Errorf("%d full lists (%s): the bounded queue should only slow the watch down", n, lw)
	}
}

// faultPanicky is an event handler that records every notification in rec and
// then panics on every third one.
type faultPanicky struct {
	rec    *faultRecorder
	calls  atomic.Int64
	panics atomic.Int64
}

// after counts a notification, already recorded, and panics if it is a
// third one.
func (p *faultPanicky) after() {
	if p.calls.Add(1)%3 == 0 {
		p.panics.Add(1)
		panic("faultPanicky handler: every third notification")
	}
}

// OnAdd implements toolscache.TypedResourceEventHandler.
func (p *faultPanicky) OnAdd(obj *corev1.ConfigMap, initial bool) {
	p.rec.OnAdd(obj, initial)
	p.after()
}

// OnUpdate implements toolscache.TypedResourceEventHandler.
func (p *faultPanicky) OnUpdate(oldObj, newObj *corev1.ConfigMap) {
	p.rec.OnUpdate(oldObj, newObj)
	p.after()
}

// OnDelete implements toolscache.TypedResourceEventHandler.
func (p *faultPanicky) OnDelete(d toolscache.DeletedObject[*corev1.ConfigMap]) {
	p.rec.OnDelete(d)
	p.after()
}

// A handler that panics on some notifications neither stops the informer
// nor its own delivery, nor disturbs another handler: each panic is
// counted by HandlerPanics, the panicking handler goes on receiving the
// notifications after it, and both handlers' views, like the cache, equal
// a fresh LIST.
func TestFaultPanickingHandlerDoesNotStopTheInformer(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	api := c.kube.CoreV1().ConfigMaps(ns)
	ctx := t.Context()
	lw := newFaultListWatch(api)
	inf := newFaultInformer(t, lw.ListWatch(c.kube), faultInformerOptions{Name: "panics"})
	bad := &faultPanicky{rec: newFaultRecorder()}
	good := newFaultRecorder()
	badReg, err := inf.AddTypedEventHandler(bad)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inf.AddTypedEventHandler(good); err != nil {
		t.Fatal(err)
	}
	faultRunInformer(t, inf, badReg)

	// write does one round of changes and waits until both handlers have
	// received all of them; it returns the LIST they agree with.
	write := func(round int) map[string]string {
		t.Helper()
		for i := range 10 {
			name := fmt.Sprintf("cm-%d-%d", round, i)
			if _, err := api.Create(ctx, faultConfigMap(name, "0"), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := api.Update(ctx, faultConfigMap(name, "1"), metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			if i%2 == 0 {
				if err := api.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
			}
		}
		final := faultWaitConverged(t, api, inf, good)
		eventually(t, "the panicking handler agrees with the LIST", func() string {
			return faultStateDiff(bad.rec.liveSet(), final)
		})
		if p := bad.rec.inconsistencies(); p != "" {
			t.Errorf("panicking handler's notifications inconsistent: %s", p)
		}
		return final
	}

	write(1)
	panicsAfterFirstRound := bad.panics.Load()
	if panicsAfterFirstRound == 0 {
		t.Fatalf("the handler never panicked in %d notifications", bad.calls.Load())
	}
	final := write(2)
	if bad.panics.Load() <= panicsAfterFirstRound {
		t.Errorf("no panic in the second round: the panicking handler got no notification after its panics")
	}
	eventually(t, "every notification and panic counted", func() string {
		if got, want := int(bad.calls.Load()), good.callCount(); got != want {
			return fmt.Sprintf("panicking handler got %d notifications, the other one %d", got, want)
		}
		if got, want := inf.HandlerPanics(), bad.panics.Load(); got != want {
			return fmt.Sprintf("HandlerPanics() = %d, the handler panicked %d times", got, want)
		}
		return ""
	})
	var names []string
	for name := range final {
		names = append(names, name)
	}
	slices.Sort(names)
	if len(names) != 10 {
		t.Errorf("%d objects at the end, want 10: %v", len(names), names)
	}
	t.Logf("%d notifications, %d panics", bad.calls.Load(), bad.panics.Load())
}

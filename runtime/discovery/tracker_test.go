package discovery

import (
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
)

// testBackoff is the tests' backoff: 1 ms doubling to 20 ms.
var testBackoff = wait.Backoff{Duration: time.Millisecond, Factor: 2, Jitter: 0.1, Steps: 100, Cap: 20 * time.Millisecond}

// fast are options whose polls and rechecks take milliseconds.
func fast(mode Mode) Options {
	return Options{Mode: mode, Backoff: testBackoff, RecheckInterval: 5 * time.Millisecond}
}

// stateOf is the state tracker reports for gvr.
func stateOf(tracker *Tracker, gvr schema.GroupVersionResource) State {
	return tracker.Status(gvr).State
}

// FailFast starts what is served, starts nothing else, and returns (and
// keeps in Err) an error naming every missing resource; a later Start
// decides the missing ones anew.
func TestFailFastNamesEveryMissingResource(t *testing.T) {
	server := serving(podsGVR)
	tracker := New(server, Options{})
	ctx, _ := runTracker(t, tracker)
	started := newStarts()
	err := tracker.Start(ctx, []schema.GroupVersionResource{podsGVR, widgetsGVR, trucksGVR, widgetsGVR}, started.start)
	if !errors.Is(err, ErrNotServed) || !strings.Contains(err.Error(), "widgets.v1.shop.example.dev") || !strings.Contains(err.Error(), "trucks.v1.fleet.example.dev") {
		t.Fatalf("Start = %v, want an error naming widgets and trucks", err)
	}
	if strings.Index(err.Error(), "trucks") > strings.Index(err.Error(), "widgets") {
		t.Errorf("Start = %v, want the resources in name order", err)
	}
	if started.count(podsGVR) != 1 || started.count(widgetsGVR) != 0 || started.count(trucksGVR) != 0 {
		t.Fatalf("started %v, want pods only", started.calls)
	}
	for gvr, want := range map[schema.GroupVersionResource]State{podsGVR: Syncing, widgetsGVR: Missing, trucksGVR: Missing, gadgetsGVR: NotStarted} {
		if got := tracker.Status(gvr); got.State != want || (want == Missing) != errors.Is(got.Err, ErrNotServed) {
			t.Errorf("status of %s = %v, want %v", gvr.Resource, got, want)
		}
	}
	if got := tracker.Err(); got == nil || got.Error() != err.Error() {
		t.Errorf("Err() = %v, want %v", got, err)
	}

	server.Serve(widgetsGVR)
	err = tracker.Start(ctx, []schema.GroupVersionResource{podsGVR, widgetsGVR, trucksGVR}, started.start)
	if err == nil || strings.Contains(err.Error(), "widgets") || !strings.Contains(err.Error(), "trucks") {
		t.Fatalf("second Start = %v, want trucks only", err)
	}
	if started.count(widgetsGVR) != 1 || stateOf(tracker, widgetsGVR) != Syncing {
		t.Fatalf("widgets, served now: started %d times, %v", started.count(widgetsGVR), tracker.Status(widgetsGVR))
	}
	if started.count(podsGVR) != 2 {
		t.Errorf("pods started %d times; want Start to hand a running resource to start again", started.count(podsGVR))
	}
}

// Skip starts what is served and reports the rest Skipped, with no error;
// a later Start starts a skipped resource that is served by then.
func TestSkipReportsSkippedResources(t *testing.T) {
	server := serving(podsGVR)
	tracker := New(server, Options{Mode: Skip})
	ctx, _ := runTracker(t, tracker)
	started := newStarts()
	if err := tracker.Start(ctx, []schema.GroupVersionResource{podsGVR, widgetsGVR}, started.start); err != nil {
		t.Fatalf("Start = %v, want no error in Skip mode", err)
	}
	st := tracker.Status(widgetsGVR)
	if st.State != Skipped || !errors.Is(st.Err, ErrNotServed) || started.count(widgetsGVR) != 0 {
		t.Fatalf("widgets: %v, started %d times; want Skipped, not started", st, started.count(widgetsGVR))
	}
	if stateOf(tracker, podsGVR) != Syncing || started.count(podsGVR) != 1 || tracker.Err() != nil {
		t.Fatalf("pods: %v, started %d times, Err %v", tracker.Status(podsGVR), started.count(podsGVR), tracker.Err())
	}
	time.Sleep(20 * time.Millisecond) // several recheck intervals: nothing polls a skipped resource
	server.Serve(widgetsGVR)
	time.Sleep(20 * time.Millisecond)
	if stateOf(tracker, widgetsGVR) != Skipped || started.count(widgetsGVR) != 0 {
		t.Fatalf("a skipped resource changed without Start: %v", tracker.Status(widgetsGVR))
	}
	if err := tracker.Start(ctx, []schema.GroupVersionResource{widgetsGVR}, started.start); err != nil {
		t.Fatal(err)
	}
	if stateOf(tracker, widgetsGVR) != Syncing || started.count(widgetsGVR) != 1 {
		t.Fatalf("after a second Start: %v, started %d times", tracker.Status(widgetsGVR), started.count(widgetsGVR))
	}
}

// Wait reports a missing resource Waiting, polls discovery with backoff, and
// starts it once (and only once) when the server serves it; the poller ends
// with the context, leaving the resource NotStarted.
func TestWaitStartsAResourceOnceItIsServed(t *testing.T) {
	server := serving(podsGVR)
	tracker := New(server, Options{Mode: Wait, Backoff: testBackoff, RecheckInterval: -1})
	ctx, stop := runTracker(t, tracker)
	started := newStarts()
	changed := tracker.Changed()
	if err := tracker.Start(ctx, []schema.GroupVersionResource{podsGVR, widgetsGVR, gadgetsGVR}, started.start); err != nil {
		t.Fatalf("Start = %v, want no error in Wait mode", err)
	}
	select {
	case <-changed:
	default:
		t.Error("Start changed states without closing Changed")
	}
	if st := tracker.Status(widgetsGVR); st.State != Waiting || !errors.Is(st.Err, ErrNotServed) || started.count(widgetsGVR) != 0 {
		t.Fatalf("widgets: %v, started %d times; want Waiting", st, started.count(widgetsGVR))
	}
	// Polls back off: the refreshes grow slower than one per millisecond.
	before := server.Refreshes()
	time.Sleep(100 * time.Millisecond)
	if polls := server.Refreshes() - before; polls > 40 {
		t.Errorf("%d discovery refreshes in 100 ms for two waiting resources (1 ms doubling to 20 ms): no backoff", polls)
	}
	changed = tracker.Changed()
	server.Serve(widgetsGVR)
	eventually(t, "widgets started", func() bool { return started.count(widgetsGVR) == 1 })
	<-changed
	if stateOf(tracker, widgetsGVR) != Syncing || stateOf(tracker, gadgetsGVR) != Waiting {
		t.Fatalf("widgets %v, gadgets %v; want Syncing, Waiting", tracker.Status(widgetsGVR), tracker.Status(gadgetsGVR))
	}
	time.Sleep(30 * time.Millisecond)
	if started.count(widgetsGVR) != 1 || started.count(podsGVR) != 1 {
		t.Fatalf("started %v, want each once", started.calls)
	}
	stop()
	if stateOf(tracker, gadgetsGVR) != NotStarted {
		t.Errorf("gadgets after the context ended: %v, want NotStarted", tracker.Status(gadgetsGVR))
	}
	if err := tracker.Start(t.Context(), []schema.GroupVersionResource{gadgetsGVR}, started.start); err == nil {
		t.Error("Start after Shutdown succeeded")
	}
}

// A running resource the server stops serving is reported Removed and
// logged, and running again once it is served again, in every mode.
func TestRemovedResourceIsReportedAndResumes(t *testing.T) {
	for _, mode := range []Mode{FailFast, Skip, Wait} {
		t.Run(mode.String(), func(t *testing.T) {
			server := serving(podsGVR, widgetsGVR)
			tracker := New(server, fast(mode))
			var logs logLines
			runTracker(t, tracker)
			ctx := logs.context(t)
			started := newStarts()
			if err := tracker.Start(ctx, []schema.GroupVersionResource{podsGVR, widgetsGVR}, started.start); err != nil {
				t.Fatal(err)
			}
			server.Remove(widgetsGVR)
			eventually(t, "widgets Removed", func() bool { return stateOf(tracker, widgetsGVR) == Removed })
			if st := tracker.Status(widgetsGVR); !errors.Is(st.Err, ErrNotServed) {
				t.Errorf("Removed status %v, want a not-served error", st)
			}
			if stateOf(tracker, podsGVR) != Syncing {
				t.Errorf("pods: %v", tracker.Status(podsGVR))
			}
			if !containsLine(logs.all(), "Resource no longer served", "widgets.v1.shop.example.dev") {
				t.Errorf("no log of the removal: %q", logs.all())
			}
			server.Serve(widgetsGVR)
			eventually(t, "widgets served again", func() bool { return stateOf(tracker, widgetsGVR) == Syncing })
			if !containsLine(logs.all(), "Resource served again", "widgets.v1.shop.example.dev") {
				t.Errorf("no log of the return: %q", logs.all())
			}
			if started.count(widgetsGVR) != 1 {
				t.Errorf("widgets started %d times; a return must not start it again (its informers kept running)", started.count(widgetsGVR))
			}
		})
	}
}

// containsLine reports whether one of lines holds every one of parts.
func containsLine(lines []string, parts ...string) bool {
	for _, l := range lines {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return true
		}
	}
	return false
}

// When discovery fails, FailFast and Skip report the resources Failed (not
// Missing: nobody knows) without starting them, and Start returns the
// error; Wait keeps polling and starts them once discovery answers.
func TestDiscoveryFailure(t *testing.T) {
	for _, mode := range []Mode{FailFast, Skip} {
		t.Run(mode.String(), func(t *testing.T) {
			server := serving(podsGVR)
			server.Fail(errBroken)
			tracker := New(server, fast(mode))
			ctx, _ := runTracker(t, tracker)
			started := newStarts()
			err := tracker.Start(ctx, []schema.GroupVersionResource{podsGVR}, started.start)
			st := tracker.Status(podsGVR)
			if err == nil || errors.Is(err, ErrNotServed) || st.State != Failed || started.count(podsGVR) != 0 {
				t.Fatalf("Start = %v, status %v, started %d; want the discovery error, Failed", err, st, started.count(podsGVR))
			}
			server.Fail(nil)
			if err := tracker.Start(ctx, []schema.GroupVersionResource{podsGVR}, started.start); err != nil || started.count(podsGVR) != 1 {
				t.Fatalf("Start once discovery works = %v, started %d", err, started.count(podsGVR))
			}
		})
	}
	t.Run("Wait", func(t *testing.T) {
		server := serving(podsGVR)
		server.Fail(errBroken)
		tracker := New(server, fast(Wait))
		ctx, _ := runTracker(t, tracker)
		started := newStarts()
		if err := tracker.Start(ctx, []schema.GroupVersionResource{podsGVR}, started.start); err != nil {
			t.Fatal(err)
		}
		if st := tracker.Status(podsGVR); st.State != Waiting || st.Err == nil || errors.Is(st.Err, ErrNotServed) {
			t.Fatalf("status %v, want Waiting with the discovery error", st)
		}
		server.Fail(nil)
		eventually(t, "pods started", func() bool { return started.count(podsGVR) == 1 })
	})
}

// A running resource whose discovery fails is not reported Removed: only a
// server that answers without it removes it.
func TestDiscoveryFailureDoesNotRemoveARunningResource(t *testing.T) {
	server := serving(podsGVR)
	tracker := New(server, fast(FailFast))
	ctx, _ := runTracker(t, tracker)
	if err := tracker.Start(ctx, []schema.GroupVersionResource{podsGVR}, newStarts().start); err != nil {
		t.Fatal(err)
	}
	server.Fail(errBroken)
	before := server.Refreshes()
	eventually(t, "rechecks", func() bool { return server.Refreshes() > before+3 })
	if st := tracker.Status(podsGVR); st.State != Syncing {
		t.Fatalf("status %v while discovery fails, want Syncing", st)
	}
}

// A tracker without a client or with an unknown mode fails every resource
// with an error saying so, and starts nothing.
func TestInvalidTracker(t *testing.T) {
	for name, tracker := range map[string]*Tracker{
		"no discovery client": New(nil, Options{}),
		"unknown mode":        New(serving(), Options{Mode: Mode(7)}),
	} {
		t.Run(name, func(t *testing.T) {
			ctx, _ := runTracker(t, tracker)
			started := newStarts()
			err := tracker.Start(ctx, []schema.GroupVersionResource{podsGVR}, started.start)
			if err == nil || !strings.Contains(err.Error(), name) || stateOf(tracker, podsGVR) != Failed || started.count(podsGVR) != 0 {
				t.Fatalf("Start = %v, status %v; want %q, Failed", err, tracker.Status(podsGVR), name)
			}
		})
	}
}

// Statuses lists every resource Start was given; String names a resource as
// kubectl does.
func TestStatuses(t *testing.T) {
	server := serving(podsGVR)
	tracker := New(server, Options{Mode: Skip, RecheckInterval: -1})
	ctx, _ := runTracker(t, tracker)
	if err := tracker.Start(ctx, []schema.GroupVersionResource{podsGVR, widgetsGVR}, newStarts().start); err != nil {
		t.Fatal(err)
	}
	all := tracker.Statuses()
	if len(all) != 2 || all[podsGVR].String() != "pods.v1: Syncing" || !strings.HasPrefix(all[widgetsGVR].String(), "widgets.v1.shop.example.dev: Skipped (") {
		t.Fatalf("Statuses() = %v", all)
	}
	if got := (Status{}).String(); got != "(unknown resource): NotStarted" {
		t.Errorf("zero Status = %q", got)
	}
}

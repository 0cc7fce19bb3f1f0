package queue

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/store"
)

// A #name in comments is the anchor, in docs/clientgo-semantics.md, of the
// client-go behaviour a test pins.
// Every timeout below is a failure guard, never an assertion: the tests
// synchronise with channels.

const (
	fifoTimeout       = 5 * time.Second
	fifoStressTimeout = 60 * time.Second
)

type (
	fifoT      = DeltaFIFO[*corev1.Pod]
	fifoOpts   = DeltaFIFOOptions[*corev1.Pod]
	fifoDeltas = Deltas[*corev1.Pod]
)

var errFIFOBoom = errors.New("boom")

// fifoPod returns pod ns/name at resource version rv.
func fifoPod(name, rv string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

func fifoKey(name string) ObjectName { return ObjectName{Namespace: "ns", Name: name} }

// fifoStore returns a Indexer (used as KnownObjects) holding objs.
func fifoStore(objs ...*corev1.Pod) *store.Indexer[*corev1.Pod] {
	s := cachetest.Must(store.NewIndexer[*corev1.Pod](nil))
	for _, o := range objs {
		s.Add(o)
	}
	return s
}

// fifoApply applies a key's deltas to store, as the informer does.
func fifoApply(store *store.Indexer[*corev1.Pod], key ObjectName, deltas fifoDeltas) {
	for _, d := range deltas {
		if d.Type == Deleted {
			store.Delete(key)
		} else {
			store.Upsert(d.Object)
		}
	}
}

func fifoCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), fifoTimeout)
	t.Cleanup(cancel)
	return ctx
}

// fifoDesc renders a delta as "Type name@rv", with "?" appended when
// FinalStateUnknown is set and "<nil>" for a zero object.
func fifoDesc(d Delta[*corev1.Pod]) string {
	s := string(d.Type) + " "
	if d.Object == nil {
		s += "<nil>"
	} else {
		s += d.Object.Name + "@" + d.Object.ResourceVersion
	}
	if d.FinalStateUnknown {
		s += "?"
	}
	return s
}

// fifoLine renders one popped key as "name: delta, delta".
func fifoLine(key ObjectName, ds fifoDeltas) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fifoDesc(d)
	}
	return key.Name + ": " + strings.Join(parts, ", ")
}

type fifoPopped struct {
	key     ObjectName
	deltas  fifoDeltas
	initial bool
}

func (p fifoPopped) String() string { return fifoLine(p.key, p.deltas) }

func fifoLines(ps []fifoPopped) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// fifoPop pops one key, processing it successfully.
func fifoPop(t *testing.T, f *fifoT) fifoPopped {
	t.Helper()
	var p fifoPopped
	err := f.Pop(fifoCtx(t), func(key ObjectName, deltas fifoDeltas, initial bool) error {
		p = fifoPopped{key, slices.Clone(deltas), initial}
		return nil
	})
	if err != nil {
		t.Fatalf("Pop: %v", err)
	}
	return p
}

// fifoDrain pops until the queue is empty.
func fifoDrain(t *testing.T, f *fifoT) []fifoPopped {
	t.Helper()
	var out []fifoPopped
	for f.Len() > 0 {
		out = append(out, fifoPop(t, f))
	}
	return out
}

func fifoExpect(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

// fifoOp is one producer (or Pop) call of a table-driven test.
type fifoOp struct {
	name string
	run  func(ctx context.Context, t *testing.T, f *fifoT) error
}

func opAdd(name, rv string) fifoOp {
	return fifoOp{"Add " + name + "@" + rv, func(ctx context.Context, _ *testing.T, f *fifoT) error {
		return f.Add(ctx, fifoPod(name, rv))
	}}
}

func opUpdate(name, rv string) fifoOp {
	return fifoOp{"Update " + name + "@" + rv, func(ctx context.Context, _ *testing.T, f *fifoT) error {
		return f.Update(ctx, fifoPod(name, rv))
	}}
}

func opDelete(name, rv string) fifoOp {
	return fifoOp{"Delete " + name + "@" + rv, func(ctx context.Context, _ *testing.T, f *fifoT) error {
		return f.Delete(ctx, fifoPod(name, rv))
	}}
}

// opReplace takes "name@rv" strings.
func opReplace(objs ...string) fifoOp {
	return fifoOp{"Replace " + strings.Join(objs, ","), func(ctx context.Context, _ *testing.T, f *fifoT) error {
		list := make([]*corev1.Pod, len(objs))
		for i, o := range objs {
			name, rv, _ := strings.Cut(o, "@")
			list[i] = fifoPod(name, rv)
		}
		return f.Replace(ctx, list)
	}}
}

func opResync() fifoOp {
	return fifoOp{"Resync", func(ctx context.Context, _ *testing.T, f *fifoT) error {
		return f.Resync(ctx)
	}}
}

// opPop pops one key and discards it.
func opPop() fifoOp {
	return fifoOp{"Pop", func(_ context.Context, t *testing.T, f *fifoT) error {
		fifoPop(t, f)
		return nil
	}}
}

func fifoRun(t *testing.T, f *fifoT, ops []fifoOp) {
	t.Helper()
	ctx := fifoCtx(t)
	for _, op := range ops {
		if err := op.run(ctx, t, f); err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
	}
}

// fifoTable is a table-driven case: run ops on a new queue (with a
// KnownObjects store holding known when withKnown is set), then drain it and
// compare what was popped, key by key.
type fifoTable struct {
	name      string
	withKnown bool
	known     []*corev1.Pod
	ops       []fifoOp
	want      []string
}

func runFIFOTable(t *testing.T, cases []fifoTable) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var opts fifoOpts
			if tc.withKnown || tc.known != nil {
				opts.KnownObjects = fifoStore(tc.known...)
			}
			f := NewDeltaFIFO(opts)
			fifoRun(t, f, tc.ops)
			if got := f.Len(); got != len(tc.want) {
				t.Errorf("Len() = %d, want %d", got, len(tc.want))
			}
			fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), tc.want)
		})
	}
}

// fifoWaitCtx is a context that reports when a queue starts waiting on it:
// DeltaFIFO only calls Done when it is about to block (with its lock
// released), so the closing of waiting proves that the caller is blocked.
type fifoWaitCtx struct {
	context.Context
	once    sync.Once
	waiting chan struct{}
}

func newFIFOWaitCtx(parent context.Context) *fifoWaitCtx {
	return &fifoWaitCtx{Context: parent, waiting: make(chan struct{})}
}

func (c *fifoWaitCtx) Done() <-chan struct{} {
	c.once.Do(func() { close(c.waiting) })
	return c.Context.Done()
}

// fifoPauseCtx is a context whose first Done call, made by a queue that is
// about to wait for room with its lock released, blocks until resume is
// closed: the caller is then held outside the lock, after it decided to wait
// and before it can see the wake-up, so the test can interleave other calls
// deterministically.
type fifoPauseCtx struct {
	context.Context
	once   sync.Once
	paused chan struct{}
	resume chan struct{}
}

func newFIFOPauseCtx(parent context.Context) *fifoPauseCtx {
	return &fifoPauseCtx{Context: parent, paused: make(chan struct{}), resume: make(chan struct{})}
}

func (c *fifoPauseCtx) Done() <-chan struct{} {
	c.once.Do(func() {
		close(c.paused)
		select {
		case <-c.resume:
		case <-time.After(fifoTimeout):
		}
	})
	return c.Context.Done()
}

// fifoAwait fails the test unless ch is ready within fifoTimeout.
func fifoAwait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(fifoTimeout):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// fifoAwaitErr returns the error sent on ch, failing after fifoTimeout.
func fifoAwaitErr(t *testing.T, ch <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(fifoTimeout):
		t.Fatalf("timed out waiting for %s", what)
		return nil
	}
}

// fifoNotDone fails the test if ch already holds a result.
func fifoNotDone(t *testing.T, ch <-chan error, what string) {
	t.Helper()
	select {
	case err := <-ch:
		t.Fatalf("%s returned (%v) while it should be blocked", what, err)
	default:
	}
}

// #deltafifo-accumulates: a key's deltas accumulate under it, oldest first, and
// the key keeps its place in line; across keys, the key queued first is popped
// first.
func TestDeltaFIFO_PerKeyAccumulationKeepsLinePosition(t *testing.T) {
	runFIFOTable(t, []fifoTable{
		{
			name: "deltas of one key accumulate oldest first",
			ops:  []fifoOp{opAdd("a", "1"), opUpdate("a", "2"), opUpdate("a", "3")},
			want: []string{"a: Added a@1, Updated a@2, Updated a@3"},
		},
		{
			name: "a queued key keeps its place while deltas arrive",
			ops: []fifoOp{
				opAdd("a", "1"), opAdd("b", "1"), opUpdate("a", "2"), opAdd("c", "1"),
				opUpdate("b", "2"), opUpdate("a", "3"),
			},
			want: []string{
				"a: Added a@1, Updated a@2, Updated a@3",
				"b: Added b@1, Updated b@2",
				"c: Added c@1",
			},
		},
		{
			name: "across keys the first queued is popped first",
			ops:  []fifoOp{opAdd("c", "1"), opAdd("a", "1"), opUpdate("b", "1")},
			want: []string{"c: Added c@1", "a: Added a@1", "b: Updated b@1"},
		},
		{
			name: "a popped key that comes again goes to the back of the line",
			ops:  []fifoOp{opAdd("a", "1"), opAdd("b", "1"), opPop(), opUpdate("a", "2"), opAdd("c", "1")},
			want: []string{"b: Added b@1", "a: Updated a@2", "c: Added c@1"},
		},
		{
			name: "identical non-delete deltas are not collapsed",
			ops:  []fifoOp{opUpdate("a", "1"), opUpdate("a", "1")},
			want: []string{"a: Updated a@1, Updated a@1"},
		},
	})
}

// #delete-dedup: two consecutive deletes collapse into one; the older is kept
// unless it is a tombstone (FinalStateUnknown), in which case the real delete
// wins.
func TestDeltaFIFO_ConsecutiveDeletesCollapse(t *testing.T) {
	known := func() []*corev1.Pod { return []*corev1.Pod{fifoPod("a", "0"), fifoPod("b", "0")} }
	runFIFOTable(t, []fifoTable{
		{
			name:  "two real deletes keep the older",
			known: known(),
			ops:   []fifoOp{opDelete("a", "1"), opDelete("a", "2")},
			want:  []string{"a: Deleted a@1"},
		},
		{
			name:  "a tombstone followed by a real delete keeps the real one",
			known: known(),
			ops:   []fifoOp{opReplace("b@0"), opDelete("a", "1")},
			want:  []string{"b: Replaced b@0", "a: Deleted a@1"},
		},
		{
			name:  "a real delete followed by a tombstone keeps the real one",
			known: known(),
			ops:   []fifoOp{opDelete("a", "1"), opReplace("b@0")},
			want:  []string{"a: Deleted a@1", "b: Replaced b@0"},
		},
		{
			name:  "two relists without the key leave one tombstone",
			known: known(),
			ops:   []fifoOp{opReplace("b@0"), opReplace("b@1")},
			want:  []string{"b: Replaced b@0, Replaced b@1", "a: Deleted a@0?"},
		},
		{
			name:  "deletes that are not consecutive are kept",
			known: known(),
			ops:   []fifoOp{opDelete("a", "1"), opAdd("a", "2"), opDelete("a", "3")},
			want:  []string{"a: Deleted a@1, Added a@2, Deleted a@3"},
		},
	})
}

// #delete-unknown-key: a Delete of a key that is neither queued nor known is
// dropped; a Delete of a key that only KnownObjects holds is queued.
func TestDeltaFIFO_DeleteOfUnknownKeyIsDropped(t *testing.T) {
	runFIFOTable(t, []fifoTable{
		{
			name: "never-seen key without KnownObjects",
			ops:  []fifoOp{opDelete("x", "1")},
			want: nil,
		},
		{
			name:      "never-seen key with empty KnownObjects",
			withKnown: true,
			ops:       []fifoOp{opDelete("x", "1")},
			want:      nil,
		},
		{
			name:  "never-seen key with KnownObjects holding others",
			known: []*corev1.Pod{fifoPod("a", "0")},
			ops:   []fifoOp{opDelete("x", "1")},
			want:  nil,
		},
		{
			name: "popped key without KnownObjects",
			ops:  []fifoOp{opAdd("x", "1"), opPop(), opDelete("x", "2")},
			want: nil,
		},
		{
			name:  "key only in KnownObjects is queued",
			known: []*corev1.Pod{fifoPod("a", "0")},
			ops:   []fifoOp{opDelete("a", "1")},
			want:  []string{"a: Deleted a@1"},
		},
		{
			name: "queued key without KnownObjects is queued",
			ops:  []fifoOp{opAdd("x", "1"), opDelete("x", "2")},
			want: []string{"x: Added x@1, Deleted x@2"},
		},
	})
}

// #replace-delta-type to #replace-after-delete: Replace queues a Replaced delta
// per listed object in list order, then one Deleted/FinalStateUnknown delta per
// key that is queued or known but not listed, carrying the newest queued
// object, else the known one. The cases named "Replace after a
// queued Delete" pin #replace-after-delete.
func TestDeltaFIFO_ReplaceEmitsReplacedThenTombstones(t *testing.T) {
	runFIFOTable(t, []fifoTable{
		{
			name: "Replaced deltas in list order",
			ops:  []fifoOp{opReplace("c@1", "a@1", "b@1")},
			want: []string{"c: Replaced c@1", "a: Replaced a@1", "b: Replaced b@1"},
		},
		{
			name: "queued-only missing key: tombstone with the newest queued object",
			ops:  []fifoOp{opAdd("a", "1"), opUpdate("a", "2"), opReplace("b@1")},
			want: []string{"a: Added a@1, Updated a@2, Deleted a@2?", "b: Replaced b@1"},
		},
		{
			name:  "known-only missing key: tombstone with the known object, queued after the Replaced deltas",
			known: []*corev1.Pod{fifoPod("a", "0")},
			ops:   []fifoOp{opReplace("c@1", "b@1")},
			want:  []string{"c: Replaced c@1", "b: Replaced b@1", "a: Deleted a@0?"},
		},
		{
			name:  "queued and known missing key: the newest queued object wins",
			known: []*corev1.Pod{fifoPod("a", "0")},
			ops:   []fifoOp{opUpdate("a", "1"), opUpdate("a", "2"), opReplace("b@1")},
			want:  []string{"a: Updated a@1, Updated a@2, Deleted a@2?", "b: Replaced b@1"},
		},
		{
			name:  "listed keys get no tombstone",
			known: []*corev1.Pod{fifoPod("a", "0"), fifoPod("b", "0")},
			ops:   []fifoOp{opUpdate("a", "1"), opReplace("a@2", "b@2")},
			want:  []string{"a: Updated a@1, Replaced a@2", "b: Replaced b@2"},
		},
		{
			name:  "Replace after a queued Delete still delivers the object (known key)",
			known: []*corev1.Pod{fifoPod("a", "0")},
			ops:   []fifoOp{opDelete("a", "1"), opReplace("a@2")},
			want:  []string{"a: Deleted a@1, Replaced a@2"},
		},
		{
			name: "Replace after a queued Delete still delivers the object (queued key)",
			ops:  []fifoOp{opAdd("a", "1"), opDelete("a", "2"), opReplace("a@3")},
			want: []string{"a: Added a@1, Deleted a@2, Replaced a@3"},
		},
		{
			name:  "missing key whose newest queued delta is a Delete gets a single delete (known key)",
			known: []*corev1.Pod{fifoPod("a", "0")},
			ops:   []fifoOp{opDelete("a", "1"), opReplace()},
			want:  []string{"a: Deleted a@1"},
		},
		{
			name: "missing key whose newest queued delta is a Delete gets a single delete (queued key)",
			ops:  []fifoOp{opAdd("a", "1"), opDelete("a", "2"), opReplace()},
			want: []string{"a: Added a@1, Deleted a@2"},
		},
		{
			name: "a key missing from two relists gets a single tombstone",
			ops:  []fifoOp{opAdd("a", "1"), opReplace(), opReplace()},
			want: []string{"a: Added a@1, Deleted a@1?"},
		},
		{
			name:      "empty Replace of an empty queue queues nothing",
			withKnown: true,
			ops:       []fifoOp{opReplace()},
			want:      nil,
		},
	})
}

// #relist-tombstones, #relist-order: several tombstones are queued after every
// Replaced delta (their mutual order is unspecified, as in client-go), and each
// carries the right object.
func TestDeltaFIFO_ReplaceTombstonesFollowListInAnyOrder(t *testing.T) {
	known := []*corev1.Pod{fifoPod("x", "0"), fifoPod("y", "0"), fifoPod("z", "0"), fifoPod("a", "0")}
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(known...)})
	fifoRun(t, f, []fifoOp{opAdd("q", "1"), opReplace("b@1", "a@1")})
	got := fifoLines(fifoDrain(t, f))
	if len(got) != 6 {
		t.Fatalf("popped %q, want 6 keys", got)
	}
	fifoExpect(t, "keys queued before and listed", got[:3], []string{
		"q: Added q@1, Deleted q@1?", "b: Replaced b@1", "a: Replaced a@1",
	})
	tail := slices.Sorted(slices.Values(got[3:]))
	fifoExpect(t, "tombstones of known keys", tail, []string{
		"x: Deleted x@0?", "y: Deleted y@0?", "z: Deleted z@0?",
	})
}

// #relist-tombstones, #shared-pointers: a tombstone of a known-only key carries
// the very object the store holds.
func TestDeltaFIFO_ReplaceTombstoneCarriesKnownObject(t *testing.T) {
	a := fifoPod("a", "0")
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(a)})
	if err := f.Replace(fifoCtx(t), nil); err != nil {
		t.Fatal(err)
	}
	p := fifoPop(t, f)
	if len(p.deltas) != 1 || p.deltas[0].Object != a || !p.deltas[0].FinalStateUnknown {
		t.Errorf("popped %v, want a tombstone carrying the stored object", p)
	}
}

// #queue-synced: HasSynced is false before any Replace.
func TestDeltaFIFO_HasSyncedFalseBeforeReplace(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(fifoPod("a", "0"))})
	if f.HasSynced() {
		t.Error("HasSynced() = true on a new queue")
	}
	if err := f.Resync(fifoCtx(t)); err != nil {
		t.Fatal(err)
	}
	if f.HasSynced() {
		t.Error("HasSynced() = true after Resync alone")
	}
}

// #initial-list-flag, #queue-synced: after the first Replace, HasSynced becomes
// true only once every initial key (tombstones included) has been popped and
// processed; while the last one is processed it is still false. Initial items
// are popped with isInInitialList set.
func TestDeltaFIFO_HasSyncedAfterInitialItemsProcessed(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(fifoPod("gone", "0"))})
	if err := f.Replace(fifoCtx(t), []*corev1.Pod{fifoPod("a", "1"), fifoPod("b", "1")}); err != nil {
		t.Fatal(err)
	}
	want := []string{"a: Replaced a@1", "b: Replaced b@1", "gone: Deleted gone@0?"}
	for i, w := range want {
		if f.HasSynced() {
			t.Fatalf("HasSynced() = true before popping item %d", i)
		}
		err := f.Pop(fifoCtx(t), func(key ObjectName, deltas fifoDeltas, initial bool) error {
			if got := fifoLine(key, deltas); got != w {
				t.Errorf("popped %q, want %q", got, w)
			}
			if !initial {
				t.Errorf("%s: isInInitialList = false, want true", key.Name)
			}
			if f.HasSynced() {
				t.Errorf("%s: HasSynced() = true while the item is being processed", key.Name)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !f.HasSynced() {
		t.Error("HasSynced() = false after every initial item was processed")
	}
}

// #queue-synced: Replace of an empty list makes the queue synced at once.
func TestDeltaFIFO_HasSyncedAfterEmptyReplace(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore()})
	if err := f.Replace(fifoCtx(t), nil); err != nil {
		t.Fatal(err)
	}
	if !f.HasSynced() {
		t.Error("HasSynced() = false after Replace([])")
	}
}

// #initial-list-flag, #queue-synced: an Add, Update or Delete before the first
// Replace makes the queue synced (before anything is popped), and a later
// Replace is not an initial list.
func TestDeltaFIFO_HasSyncedAfterEventBeforeReplace(t *testing.T) {
	for _, op := range []fifoOp{
		opAdd("a", "1"), opUpdate("a", "1"), opDelete("known", "1"), opDelete("never-seen", "1"),
	} {
		t.Run(op.name, func(t *testing.T) {
			f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(fifoPod("known", "0"))})
			fifoRun(t, f, []fifoOp{op})
			if !f.HasSynced() {
				t.Errorf("HasSynced() = false after %s before any Replace", op.name)
			}
			fifoRun(t, f, []fifoOp{opReplace("b@1")})
			for _, p := range fifoDrain(t, f) {
				if p.initial {
					t.Errorf("%v popped with isInInitialList = true", p)
				}
			}
		})
	}
}

// #initial-list-flag: isInInitialList is true for the items of the first
// Replace and false for everything after, later relists included.
func TestDeltaFIFO_IsInInitialListOnlyForFirstReplace(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	fifoRun(t, f, []fifoOp{opReplace("a@1", "b@1")})
	for _, p := range fifoDrain(t, f) {
		if !p.initial {
			t.Errorf("first Replace: %v popped with isInInitialList = false", p)
		}
	}
	fifoRun(t, f, []fifoOp{opReplace("a@2", "c@1"), opAdd("d", "1")})
	ps := fifoDrain(t, f)
	// b is neither queued nor known (no KnownObjects): no tombstone.
	fifoExpect(t, "second Replace", fifoLines(ps), []string{
		"a: Replaced a@2", "c: Replaced c@1", "d: Added d@1",
	})
	for _, p := range ps {
		if p.initial {
			t.Errorf("after sync: %v popped with isInInitialList = true", p)
		}
	}
}

// #initial-list-flag and #queue-synced with a failing process: an initial item
// whose processing fails has not been processed, so the queue must not be
// synced until it is processed successfully, and it is still an initial item
// when it comes back. In the second case a watch event queued after the first
// Replace is popped before the requeued initial item.
func TestDeltaFIFO_HasSyncedWaitsForFailedInitialItems(t *testing.T) {
	for _, tc := range []struct {
		name string
		ops  []fifoOp
	}{
		{"only initial keys", []fifoOp{opReplace("a@1", "b@1")}},
		{"watch event queued behind the initial keys", []fifoOp{opReplace("a@1"), opAdd("x", "1")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewDeltaFIFO(fifoOpts{})
			fifoRun(t, f, tc.ops)
			err := f.Pop(fifoCtx(t), func(key ObjectName, _ fifoDeltas, initial bool) error {
				if key.Name != "a" || !initial {
					t.Errorf("popped %s (isInInitialList %v), want initial a", key.Name, initial)
				}
				return errFIFOBoom
			})
			if !errors.Is(err, errFIFOBoom) {
				t.Fatalf("Pop returned %v, want %v", err, errFIFOBoom)
			}
			// Everything but the requeued a.
			for f.Len() > 1 {
				p := fifoPop(t, f)
				if p.key.Name == "a" {
					t.Fatalf("the requeued key was popped before %d others", f.Len())
				}
				if f.HasSynced() {
					t.Fatalf("HasSynced() = true after processing %v while initial item a failed and is still queued", p)
				}
			}
			p := fifoPop(t, f)
			if p.key.Name != "a" || !p.initial {
				t.Errorf("last pop %v (isInInitialList %v), want a as an initial item", p, p.initial)
			}
			if !f.HasSynced() {
				t.Error("HasSynced() = false after every initial item was processed")
			}
		})
	}
}

// A failing process puts the deltas back; the key goes to the back of the
// line.
func TestDeltaFIFO_PopErrorRequeuesAtTheBack(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	fifoRun(t, f, []fifoOp{opAdd("a", "1"), opUpdate("a", "2"), opAdd("b", "1"), opAdd("c", "1")})
	var got fifoDeltas
	err := f.Pop(fifoCtx(t), func(_ ObjectName, deltas fifoDeltas, _ bool) error {
		got = slices.Clone(deltas)
		return errFIFOBoom
	})
	if !errors.Is(err, errFIFOBoom) {
		t.Fatalf("Pop returned %v, want the process error", err)
	}
	if s := fifoLine(fifoKey("a"), got); s != "a: Added a@1, Updated a@2" {
		t.Errorf("process saw %q", s)
	}
	if f.Len() != 3 {
		t.Errorf("Len() = %d after a failed Pop, want 3", f.Len())
	}
	fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), []string{
		"b: Added b@1", "c: Added c@1", "a: Added a@1, Updated a@2",
	})
}

// A failing process puts its deltas back ahead of the deltas that arrived for
// the same key while it ran; the key then has the place those new deltas
// took in line.
func TestDeltaFIFO_PopErrorRequeuesAheadOfNewDeltas(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	fifoRun(t, f, []fifoOp{opAdd("a", "1"), opAdd("b", "1")})
	ctx := fifoCtx(t)
	err := f.Pop(ctx, func(key ObjectName, _ fifoDeltas, _ bool) error {
		fifoRun(t, f, []fifoOp{opUpdate("a", "2"), opAdd("c", "1"), opUpdate("a", "3")})
		return errFIFOBoom
	})
	if !errors.Is(err, errFIFOBoom) {
		t.Fatalf("Pop returned %v, want the process error", err)
	}
	fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), []string{
		"b: Added b@1", "a: Added a@1, Updated a@2, Updated a@3", "c: Added c@1",
	})
}

// #delete-dedup across a requeue: when a failed Deleted delta is put back in
// front of a Deleted delta that arrived while it was processed, the two are
// consecutive deletes and must collapse as any other two.
func TestDeltaFIFO_PopErrorRequeueCollapsesDeletes(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(fifoPod("a", "0"))})
	fifoRun(t, f, []fifoOp{opDelete("a", "1")})
	err := f.Pop(fifoCtx(t), func(ObjectName, fifoDeltas, bool) error {
		fifoRun(t, f, []fifoOp{opDelete("a", "2")})
		return errFIFOBoom
	})
	if !errors.Is(err, errFIFOBoom) {
		t.Fatalf("Pop returned %v, want the process error", err)
	}
	fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), []string{"a: Deleted a@1"})
}

// While process runs for key K (the queue's lock is released), K counts as
// queued: a Replace without K queues a tombstone for it (after the Replaced
// deltas), carrying K's newest in-flight object, unless that is already a
// delete; a Replace with K queues no tombstone.
func TestDeltaFIFO_InFlightKeyReplace(t *testing.T) {
	for _, tc := range []struct {
		name string
		// known: initial store content (nil: no KnownObjects).
		known []*corev1.Pod
		ops   []fifoOp // before the Pop of k
		// storeFirst: process writes k to the store before Replace.
		storeFirst bool
		replace    fifoOp
		want       []string
	}{
		{
			name:    "no KnownObjects",
			ops:     []fifoOp{opAdd("k", "1")},
			replace: opReplace("j@1"),
			want:    []string{"j: Replaced j@1", "k: Deleted k@1?"},
		},
		{
			name:    "store does not hold k yet",
			known:   []*corev1.Pod{},
			ops:     []fifoOp{opAdd("k", "1")},
			replace: opReplace("j@1"),
			want:    []string{"j: Replaced j@1", "k: Deleted k@1?"},
		},
		{
			name:    "store holds an older k",
			known:   []*corev1.Pod{fifoPod("k", "0")},
			ops:     []fifoOp{opUpdate("k", "1")},
			replace: opReplace("j@1"),
			want:    []string{"j: Replaced j@1", "k: Deleted k@1?"},
		},
		{
			name:       "store already updated by process",
			known:      []*corev1.Pod{},
			ops:        []fifoOp{opAdd("k", "1")},
			storeFirst: true,
			replace:    opReplace("j@1"),
			want:       []string{"j: Replaced j@1", "k: Deleted k@1?"},
		},
		{
			name:    "listed in-flight key gets no tombstone",
			known:   []*corev1.Pod{fifoPod("k", "0")},
			ops:     []fifoOp{opUpdate("k", "1")},
			replace: opReplace("j@1", "k@2"),
			want:    []string{"j: Replaced j@1", "k: Replaced k@2"},
		},
		{
			name:    "in-flight delete gets no second delete",
			known:   []*corev1.Pod{fifoPod("k", "0")},
			ops:     []fifoOp{opDelete("k", "1")},
			replace: opReplace("j@1"),
			want:    []string{"j: Replaced j@1"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts fifoOpts
			var store *store.Indexer[*corev1.Pod]
			if tc.known != nil {
				store = fifoStore(tc.known...)
				opts.KnownObjects = store
			}
			f := NewDeltaFIFO(opts)
			fifoRun(t, f, tc.ops)
			err := f.Pop(fifoCtx(t), func(key ObjectName, deltas fifoDeltas, _ bool) error {
				if tc.storeFirst {
					newest, _ := deltas.Newest()
					store.Update(newest.Object)
				}
				fifoRun(t, f, []fifoOp{tc.replace})
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), tc.want)
		})
	}
}

// fifoWhileInFlight pops one key and, while its process is running, runs
// during from another goroutine; process waits for it to finish, so during
// runs with the key in flight and the queue's lock released.
func fifoWhileInFlight(t *testing.T, f *fifoT, during func()) fifoPopped {
	t.Helper()
	started, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		<-started
		during()
	}()
	var p fifoPopped
	err := f.Pop(fifoCtx(t), func(key ObjectName, deltas fifoDeltas, initial bool) error {
		p = fifoPopped{key, slices.Clone(deltas), initial}
		close(started)
		select {
		case <-finished:
		case <-time.After(fifoTimeout):
			return errors.New("producer blocked while a key was in flight")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// #delete-unknown-key with a key in flight: a Delete of the key being processed
// is queued, not dropped, even when neither the queue nor KnownObjects holds
// it.
func TestDeltaFIFO_InFlightKeyDeleteIsQueued(t *testing.T) {
	for _, tc := range []struct {
		name  string
		known []*corev1.Pod
	}{
		{"no KnownObjects", nil},
		{"store does not hold k yet", []*corev1.Pod{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts fifoOpts
			if tc.known != nil {
				opts.KnownObjects = fifoStore(tc.known...)
			}
			f := NewDeltaFIFO(opts)
			fifoRun(t, f, []fifoOp{opAdd("k", "1")})
			ctx := fifoCtx(t)
			var delErr error
			fifoWhileInFlight(t, f, func() { delErr = f.Delete(ctx, fifoPod("k", "2")) })
			if delErr != nil {
				t.Fatal(delErr)
			}
			fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), []string{"k: Deleted k@2"})
		})
	}
}

// #resync-skips-queued with a key in flight: Resync skips the key being
// processed (the store may not reflect it yet) and queues Sync for the other
// known keys.
func TestDeltaFIFO_InFlightKeyResyncSkipsIt(t *testing.T) {
	store := fifoStore(fifoPod("k", "0"), fifoPod("j", "0"))
	f := NewDeltaFIFO(fifoOpts{KnownObjects: store})
	fifoRun(t, f, []fifoOp{opUpdate("k", "1")})
	ctx := fifoCtx(t)
	var resyncErr error
	fifoWhileInFlight(t, f, func() { resyncErr = f.Resync(ctx) })
	if resyncErr != nil {
		t.Fatal(resyncErr)
	}
	fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), []string{"j: Sync j@0"})
}

// A Replace from another goroutine completes while a key is in flight and
// queues the in-flight key's tombstone after the listed objects.
func TestDeltaFIFO_InFlightKeyReplaceFromAnotherGoroutine(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(fifoPod("k", "0"))})
	fifoRun(t, f, []fifoOp{opUpdate("k", "1")})
	ctx := fifoCtx(t)
	var replaceErr error
	fifoWhileInFlight(t, f, func() {
		replaceErr = f.Replace(ctx, []*corev1.Pod{fifoPod("j", "1"), fifoPod("i", "1")})
	})
	if replaceErr != nil {
		t.Fatal(replaceErr)
	}
	fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), []string{
		"j: Replaced j@1", "i: Replaced i@1", "k: Deleted k@1?",
	})
}

// #resync-skips-queued: Resync queues a Sync delta (with the stored object) for
// every known key that is not queued, and skips queued keys; without
// KnownObjects it does nothing.
func TestDeltaFIFO_ResyncSkipsQueuedKeys(t *testing.T) {
	t.Run("no KnownObjects", func(t *testing.T) {
		f := NewDeltaFIFO(fifoOpts{})
		fifoRun(t, f, []fifoOp{opResync()})
		if f.Len() != 0 {
			t.Errorf("Len() = %d after Resync without KnownObjects", f.Len())
		}
		fifoRun(t, f, []fifoOp{opAdd("a", "1"), opResync()})
		fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), []string{"a: Added a@1"})
	})
	t.Run("known keys", func(t *testing.T) {
		a, b, c := fifoPod("a", "0"), fifoPod("b", "0"), fifoPod("c", "0")
		f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(a, b, c)})
		fifoRun(t, f, []fifoOp{opUpdate("b", "1"), opResync(), opResync()})
		ps := fifoDrain(t, f)
		got := fifoLines(ps)
		if len(got) != 3 {
			t.Fatalf("popped %q, want 3 keys", got)
		}
		fifoExpect(t, "queued key", got[:1], []string{"b: Updated b@1"})
		fifoExpect(t, "resynced keys", slices.Sorted(slices.Values(got[1:])), []string{"a: Sync a@0", "c: Sync c@0"})
		for _, p := range ps[1:] {
			if want := map[string]*corev1.Pod{"a": a, "c": c}[p.key.Name]; p.deltas[0].Object != want {
				t.Errorf("%s: Sync does not carry the stored object", p.key.Name)
			}
		}
	})
}

// fifoTransformCounter is a Transform that counts its calls per object, marks
// the objects it saw and fails for objects named "bad".
type fifoTransformCounter struct {
	mu    sync.Mutex
	calls map[*corev1.Pod]int
}

func (c *fifoTransformCounter) transform(p *corev1.Pod) (*corev1.Pod, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calls == nil {
		c.calls = map[*corev1.Pod]int{}
	}
	c.calls[p]++
	if p.Name == "bad" {
		return nil, errFIFOBoom
	}
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	p.Labels["transformed"] = "true"
	return p, nil
}

func (c *fifoTransformCounter) count(p *corev1.Pod) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[p]
}

// #transform-once: Transform runs once per object entering the queue through
// Add, Update, Delete or Replace, and never on objects that Resync or an
// inferred delete takes from KnownObjects or from the queue.
func TestDeltaFIFO_TransformOncePerIncomingObject(t *testing.T) {
	var tr fifoTransformCounter
	known := fifoPod("known", "0")
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(known), Transform: tr.transform})
	ctx := fifoCtx(t)
	a1, a2, b1, b2, a3, c1 := fifoPod("a", "1"), fifoPod("a", "2"), fifoPod("b", "1"), fifoPod("b", "2"), fifoPod("a", "3"), fifoPod("c", "1")
	for _, err := range []error{
		f.Add(ctx, a1), f.Update(ctx, a2), f.Add(ctx, b1), f.Update(ctx, b2),
		// b and known are missing: b's tombstone carries b2 (from the queue),
		// known's carries the stored object.
		f.Replace(ctx, []*corev1.Pod{a3, c1}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	ps := fifoDrain(t, f)
	fifoExpect(t, "popped", fifoLines(ps), []string{
		"a: Added a@1, Updated a@2, Replaced a@3",
		"b: Added b@1, Updated b@2, Deleted b@2?",
		"c: Replaced c@1",
		"known: Deleted known@0?",
	})
	for _, p := range []*corev1.Pod{a1, a2, b1, b2, a3, c1} {
		if n := tr.count(p); n != 1 {
			t.Errorf("%s@%s transformed %d times, want 1", p.Name, p.ResourceVersion, n)
		}
	}
	for _, p := range ps {
		for _, d := range p.deltas {
			want := p.key.Name != "known"
			if got := d.Object.Labels["transformed"] == "true"; got != want {
				t.Errorf("%s: delivered object transformed = %v, want %v", fifoDesc(d), got, want)
			}
		}
	}
	// Resync re-delivers the stored object without transforming it; a Delete
	// is transformed.
	d := fifoPod("known", "1")
	if err := f.Resync(ctx); err != nil {
		t.Fatal(err)
	}
	if err := f.Delete(ctx, d); err != nil {
		t.Fatal(err)
	}
	fifoExpect(t, "after Resync and Delete", fifoLines(fifoDrain(t, f)), []string{"known: Sync known@0, Deleted known@1"})
	if n := tr.count(known); n != 0 {
		t.Errorf("stored object transformed %d times, want 0", n)
	}
	if n := tr.count(d); n != 1 {
		t.Errorf("deleted object transformed %d times, want 1", n)
	}
}

// #transform-errors: a transform error is returned and nothing is queued, for
// Replace not even the objects before the failing one.
func TestDeltaFIFO_TransformErrorQueuesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		op   func(ctx context.Context, f *fifoT) error
	}{
		{"Add", func(ctx context.Context, f *fifoT) error { return f.Add(ctx, fifoPod("bad", "1")) }},
		{"Update", func(ctx context.Context, f *fifoT) error { return f.Update(ctx, fifoPod("bad", "1")) }},
		{"Delete", func(ctx context.Context, f *fifoT) error { return f.Delete(ctx, fifoPod("bad", "1")) }},
		{"Replace", func(ctx context.Context, f *fifoT) error {
			return f.Replace(ctx, []*corev1.Pod{fifoPod("ok", "1"), fifoPod("bad", "1"), fifoPod("ok2", "1")})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tr fifoTransformCounter
			f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(fifoPod("bad", "0")), Transform: tr.transform})
			if err := tc.op(fifoCtx(t), f); !errors.Is(err, errFIFOBoom) {
				t.Fatalf("got error %v, want the transform error", err)
			}
			if f.Len() != 0 {
				t.Errorf("Len() = %d after a transform error, want 0", f.Len())
			}
		})
	}
}

// A transform that returns no object (nil, without an error) is an error
// naming the object's key, never a panic: Add, Update and Delete return it;
// Replace leaves that object out and queues the others.
func TestDeltaFIFO_TransformReturningNilIsAnError(t *testing.T) {
	dropBad := func(p *corev1.Pod) (*corev1.Pod, error) {
		if p.Name == "bad" {
			return nil, nil
		}
		return p, nil
	}
	for _, tc := range []struct {
		name string
		op   func(ctx context.Context, f *fifoT) error
	}{
		{"Add", func(ctx context.Context, f *fifoT) error { return f.Add(ctx, fifoPod("bad", "1")) }},
		{"Update", func(ctx context.Context, f *fifoT) error { return f.Update(ctx, fifoPod("bad", "1")) }},
		{"Delete", func(ctx context.Context, f *fifoT) error { return f.Delete(ctx, fifoPod("bad", "1")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(fifoPod("bad", "0")), Transform: dropBad})
			err := tc.op(fifoCtx(t), f)
			if err == nil || !strings.Contains(err.Error(), "ns/bad") {
				t.Fatalf("got error %v, want one naming ns/bad", err)
			}
			if f.Len() != 0 {
				t.Errorf("Len() = %d, want 0", f.Len())
			}
		})
	}
	t.Run("Replace", func(t *testing.T) {
		f := NewDeltaFIFO(fifoOpts{Transform: dropBad})
		if err := f.Replace(fifoCtx(t), []*corev1.Pod{fifoPod("ok", "1"), fifoPod("bad", "1"), fifoPod("ok2", "1")}); err != nil {
			t.Fatalf("Replace: %v", err)
		}
		var popped []string
		for f.Len() > 0 {
			popped = append(popped, fifoPop(t, f).key.Name)
		}
		if !slices.Equal(popped, []string{"ok", "ok2"}) {
			t.Fatalf("popped %v, want [ok ok2]", popped)
		}
	})
}

// ErrFIFOClosed is client-go's, so that errors.Is checks written for
// client-go's queues match it.
func TestDeltaFIFO_ErrFIFOClosedIsClientGos(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	f.Close()
	err := f.Pop(fifoCtx(t), func(ObjectName, Deltas[*corev1.Pod], bool) error { return nil })
	if !errors.Is(err, clientcache.ErrFIFOClosed) {
		t.Fatalf("Pop on a closed queue = %v, want client-go's ErrFIFOClosed", err)
	}
}

// MaxSize: with MaxSize keys queued, an Add of a new key waits until Pop
// makes room, then queues it.
func TestDeltaFIFO_MaxSizeNewKeyWaitsForPop(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{MaxSize: 2})
	fifoRun(t, f, []fifoOp{opAdd("a", "1"), opAdd("b", "1")})
	wctx := newFIFOWaitCtx(fifoCtx(t))
	done := make(chan error, 1)
	go func() { done <- f.Add(wctx, fifoPod("c", "1")) }()
	fifoAwait(t, wctx.waiting, "Add to start waiting")
	fifoNotDone(t, done, "Add of a new key into a full queue")
	if f.Len() != 2 {
		t.Fatalf("Len() = %d while a producer waits, want 2", f.Len())
	}
	if p := fifoPop(t, f); p.key.Name != "a" {
		t.Fatalf("popped %v, want a", p)
	}
	if err := fifoAwaitErr(t, done, "Add to return after Pop"); err != nil {
		t.Fatalf("Add returned %v after Pop made room", err)
	}
	fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), []string{"b: Added b@1", "c: Added c@1"})
}

// MaxSize: deltas for a key that is already queued never wait, even when the
// queue is full: with a context that is already cancelled they still succeed
// (a call that waited would return the context's error at once).
func TestDeltaFIFO_MaxSizeQueuedKeyNeverWaits(t *testing.T) {
	for _, op := range []fifoOp{
		opAdd("a", "2"), opUpdate("a", "2"), opDelete("a", "2"), opReplace("a@2", "b@2"),
	} {
		t.Run(op.name, func(t *testing.T) {
			f := NewDeltaFIFO(fifoOpts{MaxSize: 2})
			fifoRun(t, f, []fifoOp{opAdd("a", "1"), opAdd("b", "1")})
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if err := op.run(ctx, t, f); err != nil {
				t.Fatalf("%s into a full queue: %v", op.name, err)
			}
			if f.Len() != 2 {
				t.Errorf("Len() = %d, want 2", f.Len())
			}
			// And a new key does wait.
			if err := f.Add(ctx, fifoPod("c", "1")); !errors.Is(err, context.Canceled) {
				t.Errorf("Add of a new key into a full queue with a cancelled context: %v, want context.Canceled", err)
			}
		})
	}
}

// MaxSize: a producer waiting for room returns the context's error when its
// context ends and ErrFIFOClosed when the queue is closed; nothing is queued.
func TestDeltaFIFO_MaxSizeWaitingProducerHonoursCancelAndClose(t *testing.T) {
	for _, tc := range []struct {
		name string
		op   func(ctx context.Context, f *fifoT) error
		stop func(cancel context.CancelFunc, f *fifoT)
		want error
	}{
		{
			name: "Add cancelled",
			op:   func(ctx context.Context, f *fifoT) error { return f.Add(ctx, fifoPod("c", "1")) },
			stop: func(cancel context.CancelFunc, _ *fifoT) { cancel() },
			want: context.Canceled,
		},
		{
			name: "Add closed",
			op:   func(ctx context.Context, f *fifoT) error { return f.Add(ctx, fifoPod("c", "1")) },
			stop: func(_ context.CancelFunc, f *fifoT) { f.Close() },
			want: ErrFIFOClosed,
		},
		{
			name: "Replace cancelled",
			op: func(ctx context.Context, f *fifoT) error {
				return f.Replace(ctx, []*corev1.Pod{fifoPod("a", "2"), fifoPod("c", "1")})
			},
			stop: func(cancel context.CancelFunc, _ *fifoT) { cancel() },
			want: context.Canceled,
		},
		{
			name: "Update closed",
			op:   func(ctx context.Context, f *fifoT) error { return f.Update(ctx, fifoPod("c", "1")) },
			stop: func(_ context.CancelFunc, f *fifoT) { f.Close() },
			want: ErrFIFOClosed,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewDeltaFIFO(fifoOpts{MaxSize: 2})
			fifoRun(t, f, []fifoOp{opAdd("a", "1"), opAdd("b", "1")})
			ctx, cancel := context.WithCancel(fifoCtx(t))
			defer cancel()
			wctx := newFIFOWaitCtx(ctx)
			done := make(chan error, 1)
			go func() { done <- tc.op(wctx, f) }()
			fifoAwait(t, wctx.waiting, "the producer to start waiting")
			fifoNotDone(t, done, tc.name)
			tc.stop(cancel, f)
			if err := fifoAwaitErr(t, done, "the producer to return"); !errors.Is(err, tc.want) {
				t.Fatalf("producer returned %v, want %v", err, tc.want)
			}
			if f.Len() != 2 {
				t.Errorf("Len() = %d, want 2", f.Len())
			}
			for _, p := range fifoDrain(t, f) {
				if p.key.Name == "c" {
					t.Errorf("%v was queued by a producer that gave up", p)
				}
			}
		})
	}
}

// #resync-skips-queued with MaxSize: a Resync that has to wait for room must
// not queue a Sync delta carrying the object it read before waiting once a
// newer state of that key has been queued or processed meanwhile (a resync
// never overtakes a newer update, and must never put an older object back into
// the store). The Resync is held, deterministically, after it decided to wait.
func TestDeltaFIFO_MaxSizeResyncDoesNotQueueStaleSync(t *testing.T) {
	for _, tc := range []struct {
		name string
		// processNewer: the consumer pops and applies a@1 while Resync waits.
		processNewer bool
		// allowed outcomes of draining the queue afterwards.
		allowed [][]string
	}{
		{
			name:    "newer delta still queued when Resync resumes",
			allowed: [][]string{{"a: Updated a@1"}},
		},
		{
			name:         "newer delta already processed when Resync resumes",
			processNewer: true,
			allowed:      [][]string{nil, {"a: Sync a@1"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := fifoStore(fifoPod("a", "0"))
			f := NewDeltaFIFO(fifoOpts{KnownObjects: store, MaxSize: 1})
			fifoRun(t, f, []fifoOp{opAdd("x", "1")}) // fills the queue; x is not known
			pctx := newFIFOPauseCtx(fifoCtx(t))
			done := make(chan error, 1)
			go func() { done <- f.Resync(pctx) }()
			fifoAwait(t, pctx.paused, "Resync to wait for room")
			fifoNotDone(t, done, "Resync into a full queue")

			// Meanwhile the consumer makes room and the reflector queues a
			// newer state of a.
			if p := fifoPop(t, f); p.key.Name != "x" {
				t.Fatalf("popped %v, want x", p)
			}
			fifoRun(t, f, []fifoOp{opUpdate("a", "1")})
			if tc.processNewer {
				err := f.Pop(fifoCtx(t), func(_ ObjectName, deltas fifoDeltas, _ bool) error {
					for _, d := range deltas {
						store.Update(d.Object)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			close(pctx.resume)
			if err := fifoAwaitErr(t, done, "Resync to return"); err != nil {
				t.Fatalf("Resync: %v", err)
			}
			got := fifoLines(fifoDrain(t, f))
			if !slices.ContainsFunc(tc.allowed, func(w []string) bool { return slices.Equal(got, w) }) {
				t.Errorf("popped %q, want one of %q: a Sync carrying a@0 (read before waiting) is stale", got, tc.allowed)
			}
		})
	}
}

// #relist-tombstones with MaxSize and a second producer: a tombstone that
// Replace has to wait for room to queue must carry the key's newest queued
// state at the time it is queued, not the known object it read before waiting.
func TestDeltaFIFO_MaxSizeReplaceTombstoneCarriesNewestState(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(fifoPod("k", "0")), MaxSize: 1})
	fifoRun(t, f, []fifoOp{opAdd("x", "1")}) // fills the queue
	pctx := newFIFOPauseCtx(fifoCtx(t))
	done := make(chan error, 1)
	// x is queued and missing: its tombstone is appended at once; k is known
	// only: its tombstone needs room.
	go func() { done <- f.Replace(pctx, nil) }()
	fifoAwait(t, pctx.paused, "Replace to wait for room")
	if p := fifoPop(t, f); p.String() != "x: Added x@1, Deleted x@1?" {
		t.Fatalf("popped %v", p)
	}
	fifoRun(t, f, []fifoOp{opUpdate("k", "1")})
	close(pctx.resume)
	if err := fifoAwaitErr(t, done, "Replace to return"); err != nil {
		t.Fatalf("Replace: %v", err)
	}
	fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), []string{"k: Updated k@1, Deleted k@1?"})
}

// #queue-synced with MaxSize and a second producer: while the first Replace
// waits for room, an Update of an already-queued key (which never waits) must
// not make the queue synced before the rest of the list is queued and
// processed; HasSynced must not go from true back to false.
func TestDeltaFIFO_HasSyncedStaysFalseWhileFirstReplaceWaits(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{MaxSize: 1})
	pctx := newFIFOPauseCtx(fifoCtx(t))
	done := make(chan error, 1)
	go func() { done <- f.Replace(pctx, []*corev1.Pod{fifoPod("a", "1"), fifoPod("b", "1")}) }()
	fifoAwait(t, pctx.paused, "Replace to wait for room")
	fifoRun(t, f, []fifoOp{opUpdate("a", "2")})
	if p := fifoPop(t, f); p.String() != "a: Replaced a@1, Updated a@2" || !p.initial {
		t.Fatalf("popped %v (isInInitialList %v), want a's deltas as an initial item", p, p.initial)
	}
	syncedEarly := f.HasSynced()
	if syncedEarly {
		t.Error("HasSynced() = true while the first Replace has not yet queued b")
	}
	close(pctx.resume)
	if err := fifoAwaitErr(t, done, "Replace to return"); err != nil {
		t.Fatalf("Replace: %v", err)
	}
	if syncedEarly && !f.HasSynced() {
		t.Error("HasSynced() went from true back to false")
	}
	if p := fifoPop(t, f); p.String() != "b: Replaced b@1" || !p.initial {
		t.Errorf("popped %v (isInInitialList %v), want b as an initial item", p, p.initial)
	}
	if !f.HasSynced() {
		t.Error("HasSynced() = false after every initial item was processed")
	}
}

// MaxSize: a first Replace of a list longer than MaxSize completes while a
// consumer pops concurrently; the queue never holds more than MaxSize keys,
// every delta is delivered once in order (Replaced in list order, then the
// tombstones), every item is initial, and HasSynced becomes true only once
// the last one is processed.
func TestDeltaFIFO_MaxSizeReplaceLongerThanMaxSize(t *testing.T) {
	const maxSize, listed, gone = 3, 50, 10
	var list, known []*corev1.Pod
	for i := range listed {
		list = append(list, fifoPod(fmt.Sprintf("p%02d", i), "1"))
		if i%5 == 0 {
			known = append(known, fifoPod(fmt.Sprintf("p%02d", i), "0"))
		}
	}
	for i := range gone {
		known = append(known, fifoPod(fmt.Sprintf("gone%02d", i), "0"))
	}
	f := NewDeltaFIFO(fifoOpts{MaxSize: maxSize, KnownObjects: fifoStore(known...)})
	ctx := fifoCtx(t)

	type result struct {
		lines  []string
		errors []string
	}
	consumed := make(chan result, 1)
	go func() {
		var r result
		for range listed + gone {
			err := f.Pop(ctx, func(key ObjectName, deltas fifoDeltas, initial bool) error {
				r.lines = append(r.lines, fifoLine(key, deltas))
				if !initial {
					r.errors = append(r.errors, key.Name+": isInInitialList = false")
				}
				if f.HasSynced() {
					r.errors = append(r.errors, key.Name+": HasSynced() = true while processing")
				}
				if n := f.Len(); n > maxSize {
					r.errors = append(r.errors, fmt.Sprintf("%s: Len() = %d > MaxSize", key.Name, n))
				}
				return nil
			})
			if err != nil {
				r.errors = append(r.errors, "Pop: "+err.Error())
				break
			}
		}
		consumed <- r
	}()
	if err := f.Replace(ctx, list); err != nil {
		t.Fatalf("Replace: %v", err)
	}
	var r result
	select {
	case r = <-consumed:
	case <-time.After(fifoTimeout):
		t.Fatal("timed out waiting for the consumer")
	}
	for _, e := range r.errors {
		t.Error(e)
	}
	if len(r.lines) != listed+gone {
		t.Fatalf("delivered %d keys, want %d", len(r.lines), listed+gone)
	}
	var want []string
	for _, p := range list {
		want = append(want, fmt.Sprintf("%s: Replaced %s@1", p.Name, p.Name))
	}
	fifoExpect(t, "listed keys", r.lines[:listed], want)
	want = want[:0]
	for i := range gone {
		want = append(want, fmt.Sprintf("gone%02d: Deleted gone%02d@0?", i, i))
	}
	fifoExpect(t, "tombstones", slices.Sorted(slices.Values(r.lines[listed:])), want)
	if !f.HasSynced() {
		t.Error("HasSynced() = false after every initial item was processed")
	}
	if f.Len() != 0 {
		t.Errorf("Len() = %d, want 0", f.Len())
	}
}

// Close: Pop drains what is queued, then returns ErrFIFOClosed; Close may be
// called twice.
func TestDeltaFIFO_CloseDrainsThenErrFIFOClosed(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	fifoRun(t, f, []fifoOp{opAdd("a", "1"), opAdd("b", "1"), opUpdate("a", "2")})
	f.Close()
	f.Close()
	if !f.IsClosed() {
		t.Error("IsClosed() = false after Close")
	}
	fifoExpect(t, "drained", fifoLines([]fifoPopped{fifoPop(t, f), fifoPop(t, f)}), []string{
		"a: Added a@1, Updated a@2", "b: Added b@1",
	})
	called := false
	err := f.Pop(fifoCtx(t), func(ObjectName, fifoDeltas, bool) error { called = true; return nil })
	if !errors.Is(err, ErrFIFOClosed) || called {
		t.Errorf("Pop on a closed, drained queue: %v (process called %v), want ErrFIFOClosed", err, called)
	}
}

// A Pop waiting on an empty queue wakes up for an Add, returns ErrFIFOClosed
// on Close and the context's error on cancel.
func TestDeltaFIFO_BlockedPopWakesOnAddCloseAndCancel(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(cancel context.CancelFunc, f *fifoT) error
		want error
	}{
		{"Add", func(_ context.CancelFunc, f *fifoT) error { return f.Add(t.Context(), fifoPod("a", "1")) }, nil},
		{"Close", func(_ context.CancelFunc, f *fifoT) error { f.Close(); return nil }, ErrFIFOClosed},
		{"cancel", func(cancel context.CancelFunc, _ *fifoT) error { cancel(); return nil }, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewDeltaFIFO(fifoOpts{})
			ctx, cancel := context.WithCancel(fifoCtx(t))
			defer cancel()
			wctx := newFIFOWaitCtx(ctx)
			done := make(chan error, 1)
			var popped []string
			go func() {
				done <- f.Pop(wctx, func(key ObjectName, deltas fifoDeltas, _ bool) error {
					popped = append(popped, fifoLine(key, deltas))
					return nil
				})
			}()
			fifoAwait(t, wctx.waiting, "Pop to start waiting")
			fifoNotDone(t, done, "Pop on an empty queue")
			if err := tc.stop(cancel, f); err != nil {
				t.Fatal(err)
			}
			if err := fifoAwaitErr(t, done, "Pop to return"); !errors.Is(err, tc.want) {
				t.Fatalf("Pop returned %v, want %v", err, tc.want)
			}
			var want []string
			if tc.want == nil {
				want = []string{"a: Added a@1"}
			}
			fifoExpect(t, "popped", popped, want)
		})
	}
}

// Several producers, each owning its keys, issue random Add/Update/Delete and
// Resync calls while one consumer pops (failing now and then, so deltas are
// requeued) and applies the deltas to the KnownObjects store. Each key's
// delivered deltas, Sync aside, must be exactly what its producer issued, in
// order; each Sync must carry the object last delivered for its key. Run it
// under -race.
func TestDeltaFIFO_ConcurrentProducersKeepPerKeyOrder(t *testing.T) {
	const producers, keysPerProducer = 4, 6
	opsPerProducer := 600
	if testing.Short() {
		opsPerProducer = 150
	}
	for _, maxSize := range []int{0, 3} {
		t.Run(fmt.Sprintf("MaxSize=%d", maxSize), func(t *testing.T) {
			seed := uint64(time.Now().UnixNano())
			t.Logf("seed %d", seed)
			store := fifoStore()
			f := NewDeltaFIFO(fifoOpts{KnownObjects: store, MaxSize: maxSize})
			ctx, cancel := context.WithTimeout(t.Context(), fifoStressTimeout)
			defer cancel()

			type record struct {
				delivered map[ObjectName][]string
				problems  []string
			}
			consumed := make(chan record, 1)
			go func() {
				r := record{delivered: map[ObjectName][]string{}}
				last := map[ObjectName]*corev1.Pod{} // last delivered object; nil after a delete
				rng := rand.New(rand.NewPCG(seed, 1000))
				for {
					fail := rng.IntN(10) == 0
					err := f.Pop(ctx, func(key ObjectName, deltas fifoDeltas, _ bool) error {
						if fail {
							return errFIFOBoom
						}
						for i, d := range deltas {
							if i > 0 && d.Type == Deleted && deltas[i-1].Type == Deleted {
								r.problems = append(r.problems, "consecutive deletes: "+fifoLine(key, deltas))
							}
							switch d.Type {
							case Sync:
								if last[key] == nil || d.Object != last[key] {
									was := "nothing or a delete"
									if last[key] != nil {
										was = last[key].Name + "@" + last[key].ResourceVersion
									}
									r.problems = append(r.problems, fmt.Sprintf("%s: %s delivered after %s (deltas %s)", key, fifoDesc(d), was, fifoLine(key, deltas)))
								}
								continue
							case Deleted:
								store.Delete(key)
								last[key] = nil
							default:
								store.Update(d.Object)
								last[key] = d.Object
							}
							r.delivered[key] = append(r.delivered[key], fifoDesc(d))
						}
						return nil
					})
					if errors.Is(err, ErrFIFOClosed) {
						break
					}
					if err != nil && !errors.Is(err, errFIFOBoom) {
						r.problems = append(r.problems, "Pop: "+err.Error())
						break
					}
				}
				consumed <- r
			}()

			issued := make([]map[ObjectName][]string, producers)
			errs := make([]error, producers)
			var wg sync.WaitGroup
			for p := range producers {
				issued[p] = map[ObjectName][]string{}
				wg.Go(func() {
					rng := rand.New(rand.NewPCG(seed, uint64(p)))
					alive := map[int]bool{}
					for seq := range opsPerProducer {
						k := rng.IntN(keysPerProducer)
						obj := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
							Namespace: "p" + strconv.Itoa(p), Name: "k" + strconv.Itoa(k), ResourceVersion: strconv.Itoa(seq),
						}}
						var d DeltaType
						var err error
						switch r := rng.IntN(100); {
						case r < 5:
							errs[p] = f.Resync(ctx)
							if errs[p] != nil {
								return
							}
							continue
						case !alive[k]:
							// Only live keys are deleted, so no delete is
							// dropped and no two deletes are consecutive.
							d, err, alive[k] = Added, f.Add(ctx, obj), true
						case r < 70:
							d, err = Updated, f.Update(ctx, obj)
						default:
							d, err, alive[k] = Deleted, f.Delete(ctx, obj), false
						}
						if err != nil {
							errs[p] = err
							return
						}
						key := keyOf(obj)
						issued[p][key] = append(issued[p][key], fifoDesc(Delta[*corev1.Pod]{Type: d, Object: obj}))
					}
				})
			}
			wg.Wait()
			f.Close()
			var r record
			select {
			case r = <-consumed:
			case <-time.After(fifoStressTimeout):
				t.Fatal("timed out waiting for the consumer to drain the queue")
			}
			for p, err := range errs {
				if err != nil {
					t.Errorf("producer %d: %v", p, err)
				}
			}
			for i, pr := range r.problems {
				if i == 10 {
					t.Errorf("... and %d more problems", len(r.problems)-i)
					break
				}
				t.Error(pr)
			}
			total := 0
			for p := range producers {
				for key, want := range issued[p] {
					total += len(want)
					if got := r.delivered[key]; !slices.Equal(got, want) {
						t.Errorf("%s: delivered %d deltas, issued %d; first difference at %d",
							key, len(got), len(want), fifoFirstDiff(got, want))
					}
				}
			}
			delivered := 0
			for _, ds := range r.delivered {
				delivered += len(ds)
			}
			if delivered != total {
				t.Errorf("delivered %d deltas, issued %d", delivered, total)
			}
		})
	}
}

func fifoFirstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A panic in Pop's process function reaches Pop's caller as an ordinary panic
// (never a fatal error of the runtime) and leaves the queue consistent: the
// key is no longer in flight, its deltas are dropped, it counts as processed
// for HasSynced, and the queue goes on working.
func TestDeltaFIFO_PopPanicLeavesTheQueueConsistent(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore()})
	if err := f.Replace(fifoCtx(t), []*corev1.Pod{fifoPod("a", "1"), fifoPod("b", "1")}); err != nil {
		t.Fatal(err)
	}
	recovered := func() (r any) {
		defer func() { r = recover() }()
		_ = f.Pop(fifoCtx(t), func(ObjectName, fifoDeltas, bool) error { panic("scripted process panic") })
		return nil
	}()
	if recovered != "scripted process panic" {
		t.Fatalf("recovered %v, want the process function's panic", recovered)
	}
	f.mu.Lock()
	inflight := f.processedTo.Load() < f.first
	f.mu.Unlock()
	if inflight {
		t.Error("the key is still in flight after its process function panicked")
	}
	if n := f.Len(); n != 1 {
		t.Errorf("Len() = %d after the panic, want 1 (b)", n)
	}
	if f.HasSynced() {
		t.Error("HasSynced() = true while b is still queued")
	}
	if err := f.Add(fifoCtx(t), fifoPod("a", "2")); err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 2 {
		if err := f.Pop(fifoCtx(t), func(key ObjectName, deltas fifoDeltas, _ bool) error {
			got = append(got, fifoLine(key, deltas))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"b: Replaced b@1", "a: Added a@2"}; !slices.Equal(got, want) {
		t.Errorf("popped %q after the panic, want %q", got, want)
	}
	if !f.HasSynced() {
		t.Error("HasSynced() = false after every initial key was popped (one of them panicking)")
	}
}

// #has-synced with MaxSize: a first Replace that gave up waiting for room
// leaves the keys it queued marked. When the consumer has one of them in
// flight as the next Replace (again the first to complete) lists that key
// again, the listed state is queued behind it, and HasSynced waits for that
// state too, not only for the one in flight. If the processing in flight
// fails, its deltas go back ahead of the listed state, in one entry that
// HasSynced waits for once.
func TestDeltaFIFO_MaxSizeRetriedFirstReplaceWaitsForTheStateOfAKeyInFlight(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail error
		want []string
	}{
		{"processed", nil, []string{"b: Replaced b@1, Replaced b@2", "k: Replaced k@2"}},
		{"failed", errors.New("retry"), []string{"b: Replaced b@1, Replaced b@2", "k: Replaced k@1, Replaced k@2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewDeltaFIFO(fifoOpts{MaxSize: 2})
			ctx, cancel := context.WithCancel(fifoCtx(t))
			wctx := newFIFOWaitCtx(ctx)
			done := make(chan error, 1)
			go func() {
				done <- f.Replace(wctx, []*corev1.Pod{fifoPod("k", "1"), fifoPod("b", "1"), fifoPod("c", "1")})
			}()
			fifoAwait(t, wctx.waiting, "the first Replace to wait for room")
			cancel()
			if err := fifoAwaitErr(t, done, "the first Replace to give up"); !errors.Is(err, context.Canceled) {
				t.Fatalf("the first Replace returned %v, want context.Canceled", err)
			}

			inFlight, release := make(chan struct{}), make(chan struct{})
			popped := make(chan error, 1)
			go func() {
				popped <- f.Pop(fifoCtx(t), func(key ObjectName, _ fifoDeltas, initial bool) error {
					if key.Name != "k" || !initial {
						t.Errorf("popped %s (initial %v), want k of the first list", key.Name, initial)
					}
					close(inFlight)
					<-release
					return tc.fail
				})
			}()
			fifoAwait(t, inFlight, "k to be in flight")
			if err := f.Replace(fifoCtx(t), []*corev1.Pod{fifoPod("b", "2"), fifoPod("k", "2")}); err != nil {
				t.Fatalf("the second Replace returned %v", err)
			}
			close(release)
			if err := fifoAwaitErr(t, popped, "k's processing to end"); err != tc.fail {
				t.Fatalf("Pop returned %v, want %v", err, tc.fail)
			}
			var lines []string
			for f.Len() > 0 {
				if f.HasSynced() {
					t.Fatalf("HasSynced is true with %d keys of the completed first list queued", f.Len())
				}
				lines = append(lines, fifoPop(t, f).String())
			}
			if !f.HasSynced() {
				t.Error("HasSynced is false once every listed state is processed")
			}
			fifoExpect(t, "popped", lines, tc.want)
		})
	}
}

package queue

import (
	"errors"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// fifoBatchPop takes up to most keys off f's line when its batch is empty and
// processes the next one with process, failing the test on an error other
// than errFIFOBoom.
func fifoBatchPop(t *testing.T, f *fifoT, most int, process PopProcessFunc[*corev1.Pod]) {
	t.Helper()
	if err := f.PopBatch(fifoCtx(t), most, process); err != nil && !errors.Is(err, errFIFOBoom) {
		t.Fatal(err)
	}
}

// fifoBatchDrain processes the batch and the line to the end.
func fifoBatchDrain(t *testing.T, f *fifoT, most int) []string {
	t.Helper()
	return fifoBatchDrainHolding(t, f, most, nil)
}

// fifoBatchDrainHolding is fifoBatchDrain, calling holding (when not nil)
// once, as the first key popped is processed: with that key's batch taken
// off the line and in flight.
func fifoBatchDrainHolding(t *testing.T, f *fifoT, most int, holding func()) []string {
	t.Helper()
	var got []string
	for f.Len() > 0 || len(f.batch) > 0 {
		fifoBatchPop(t, f, most, func(key ObjectName, deltas fifoDeltas, _ bool) error {
			if holding != nil {
				holding()
				holding = nil
			}
			got = append(got, fifoLine(key, deltas))
			return nil
		})
	}
	return got
}

// A batch takes the keys at the head of the line, in order, and its keys
// leave the line: Len no longer counts them, and a delta for one of them is
// queued under a new entry at the end. Until its processing ends a taken key
// is in flight, as the key Pop processes is: a Delete of it is queued, Resync
// skips it, and a Replace that leaves it out gives it a tombstone carrying
// its newest taken state. Once processed (the consumer's store updated), it
// is neither: Resync queues a Sync with the stored object.
func TestDeltaFIFO_BatchedKeysAreInFlightUntilProcessed(t *testing.T) {
	store := fifoStore()
	f := NewDeltaFIFO(fifoOpts{KnownObjects: store})
	fifoRun(t, f, []fifoOp{opAdd("a", "1"), opAdd("b", "1"), opAdd("c", "1"), opAdd("d", "1"), opAdd("e", "1")})
	ctx := fifoCtx(t)
	var got []string
	apply := func(key ObjectName, deltas fifoDeltas) {
		got = append(got, fifoLine(key, deltas))
		fifoApply(store, key, deltas)
	}
	// a: b and c wait in the batch; d and e are queued.
	fifoBatchPop(t, f, 3, func(key ObjectName, deltas fifoDeltas, _ bool) error {
		if n := f.Len(); n != 2 {
			t.Errorf("Len() = %d with a in process and b, c in the batch, want 2", n)
		}
		// b is in nobody's store yet: its Delete is queued, not dropped.
		if err := f.Delete(ctx, fifoPod("b", "2")); err != nil {
			t.Fatal(err)
		}
		apply(key, deltas)
		return nil
	})
	// b: a is processed, c waits in the batch.
	fifoBatchPop(t, f, 3, func(key ObjectName, deltas fifoDeltas, _ bool) error {
		if err := f.Resync(ctx); err != nil { // Sync for a alone
			t.Fatal(err)
		}
		if err := f.Replace(ctx, []*corev1.Pod{fifoPod("x", "1")}); err != nil {
			t.Fatal(err)
		}
		apply(key, deltas)
		return nil
	})
	got = append(got, fifoBatchDrain(t, f, 3)...)
	fifoExpect(t, "popped", got, []string{
		"a: Added a@1",
		"b: Added b@1",
		"c: Added c@1",
		"d: Added d@1, Deleted d@1?",
		"e: Added e@1, Deleted e@1?",
		"b: Deleted b@2",
		"a: Sync a@1, Deleted a@1?",
		"x: Replaced x@1",
		"c: Deleted c@1?",
	})
	if err := checkFIFOIndex(f); err != nil {
		t.Error(err)
	}
}

// A key whose processing fails in the middle of a batch goes back in line
// (at the end, or ahead of its newer deltas); the rest of the batch is
// processed next, in order.
func TestDeltaFIFO_BatchedKeyFailureRequeuesItAlone(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	fifoRun(t, f, []fifoOp{opAdd("a", "1"), opAdd("b", "1"), opAdd("c", "1"), opAdd("d", "1")})
	ctx := fifoCtx(t)
	var got []string
	failed := false
	for f.Len() > 0 || len(f.batch) > 0 {
		fifoBatchPop(t, f, 3, func(key ObjectName, deltas fifoDeltas, _ bool) error {
			got = append(got, fifoLine(key, deltas))
			if key.Name == "b" && !failed {
				failed = true
				if err := f.Update(ctx, fifoPod("b", "2")); err != nil {
					t.Fatal(err)
				}
				return errFIFOBoom
			}
			return nil
		})
		if err := checkFIFOIndex(f); err != nil {
			t.Fatal(err)
		}
	}
	fifoExpect(t, "popped", got, []string{
		"a: Added a@1",
		"b: Added b@1",
		"c: Added c@1",
		"d: Added d@1",
		"b: Added b@1, Updated b@2",
	})
}

// The keys of the first list count for HasSynced as each is processed, in a
// batch as one at a time: HasSynced turns true with the last of them, and
// not before, even with later keys waiting in the same batch.
func TestDeltaFIFO_BatchedInitialKeysCountAsProcessed(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore()})
	if err := f.Replace(fifoCtx(t), []*corev1.Pod{fifoPod("a", "1"), fifoPod("b", "1")}); err != nil {
		t.Fatal(err)
	}
	fifoRun(t, f, []fifoOp{opAdd("c", "1"), opAdd("d", "1")})
	var synced []bool
	for range 4 {
		fifoBatchPop(t, f, 4, func(ObjectName, fifoDeltas, bool) error { return nil })
		synced = append(synced, f.HasSynced())
	}
	if want := []bool{false, true, true, true}; !slices.Equal(synced, want) {
		t.Errorf("HasSynced after each pop = %v, want %v", synced, want)
	}
}

// Random producer calls, made between pops and while batched keys are in
// process, with random batch sizes and failures: once drained, the
// consumer's store holds exactly what the calls left (the model), and the
// queue's index and marks stay consistent at every step. A key a batch lost
// track of shows here: a Resync would put back an older stored state, a
// Delete would be dropped, a Replace would leave a key behind.
func TestDeltaFIFO_BatchedPopKeepsTheStoreRight(t *testing.T) {
	seeds := 300
	if cachetest.RaceEnabled {
		seeds = 60
	}
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 5))
		store := fifoStore()
		f := NewDeltaFIFO(fifoOpts{KnownObjects: store})
		f.staleFloor = []int{0, 1, 4, defaultStaleFloor}[seed%4]
		ctx := fifoCtx(t)
		model := map[string]*corev1.Pod{}
		rv := 0
		name := func() string { return "p" + strconv.Itoa(rng.IntN(12)) }
		produce := func() {
			rv++
			var err error
			switch op := rng.IntN(20); {
			case op < 10:
				p := fifoPod(name(), strconv.Itoa(rv))
				model[p.Name] = p
				err = f.Update(ctx, p)
			case op < 15:
				p := fifoPod(name(), strconv.Itoa(rv))
				delete(model, p.Name)
				err = f.Delete(ctx, p)
			case op < 18:
				err = f.Resync(ctx)
			default:
				var list []*corev1.Pod
				clear(model)
				for i := range 12 {
					if rng.IntN(2) == 0 {
						p := fifoPod("p"+strconv.Itoa(i), strconv.Itoa(rv))
						model[p.Name] = p
						list = append(list, p)
					}
				}
				err = f.Replace(ctx, list)
			}
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
		process := func(key ObjectName, deltas fifoDeltas, _ bool) error {
			for range rng.IntN(3) {
				produce()
			}
			if err := checkFIFOIndex(f); err != nil {
				t.Fatalf("seed %d, in process: %v", seed, err)
			}
			if rng.IntN(10) == 0 {
				return errFIFOBoom
			}
			fifoApply(store, key, deltas)
			return nil
		}
		for range 300 {
			if rng.IntN(2) == 0 {
				produce()
			} else if f.Len() > 0 || len(f.batch) > 0 {
				fifoBatchPop(t, f, 1+rng.IntN(8), process)
			}
			if err := checkFIFOIndex(f); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
		for f.Len() > 0 || len(f.batch) > 0 {
			fifoBatchPop(t, f, 1+rng.IntN(8), func(key ObjectName, deltas fifoDeltas, _ bool) error {
				fifoApply(store, key, deltas)
				return nil
			})
		}
		if err := checkFIFOIndex(f); err != nil {
			t.Fatalf("seed %d, drained: %v", seed, err)
		}
		got := map[string]*corev1.Pod{}
		for _, p := range store.List() {
			got[p.Name] = p
		}
		if !maps.Equal(got, model) {
			t.Fatalf("seed %d: the store holds %v, the calls left %v", seed, storedPods(got), storedPods(model))
		}
		if len(f.entries) > releaseAbove || len(f.index) > f.stale || f.stale > f.staleFloor {
			t.Fatalf("seed %d: the drained queue keeps %d entries and %d index keys (%d counted as processed, at most %d kept)", seed, len(f.entries), len(f.index), f.stale, f.staleFloor)
		}
	}
}

// storedPods renders a map of pods as sorted name@resourceVersion pairs.
func storedPods(pods map[string]*corev1.Pod) []string {
	var out []string
	for name, p := range pods {
		out = append(out, name+"@"+p.ResourceVersion)
	}
	slices.Sort(out)
	return out
}

// Once the consumer takes keys in batches, the queue owns the deltas it hands
// out: a processed key's cells are cleared (no popped object is kept alive),
// a failed key's deltas go back in line intact, a key queued with one delta
// keeps it in its entry's cells, as it keeps a second; a third moves the list
// out and clears the cells.
func TestDeltaFIFO_BatchedDeltasAreClearedAndKeptInTheirEntries(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	fifoRun(t, f, []fifoOp{opAdd("a", "1"), opAdd("b", "1"), opAdd("c", "1")})
	var kept []fifoDeltas // kept against pop's contract, to look at the cells
	for f.Len() > 0 || len(f.batch) > 0 {
		fifoBatchPop(t, f, 3, func(key ObjectName, deltas fifoDeltas, _ bool) error {
			kept = append(kept, deltas)
			return nil
		})
	}
	for i, ds := range kept {
		if ds[0].Object != nil {
			t.Errorf("list %d still holds %s after its key was processed", i, ds[0].Object.Name)
		}
	}

	const keys = 3000
	for i := range keys {
		if err := f.Add(fifoCtx(t), fifoPod("p"+strconv.Itoa(i), "1")); err != nil {
			t.Fatal(err)
		}
	}
	for seq := f.first; seq < f.next; seq++ {
		if e := f.entryAt(seq); !e.inline() {
			t.Fatalf("%s was queued with its delta outside its entry", e.key.Name)
		}
	}
	for i := range keys {
		if err := f.Update(fifoCtx(t), fifoPod("p"+strconv.Itoa(i), "2")); err != nil {
			t.Fatal(err)
		}
	}
	for seq := f.first; seq < f.next; seq++ {
		if e := f.entryAt(seq); len(e.deltas) != 2 || !e.inline() {
			t.Fatalf("%s: %d deltas, in its entry's cells: %v", e.key.Name, len(e.deltas), e.inline())
		}
	}
	if f.slab != nil {
		t.Errorf("a slab of %d cells was cut for the pairs", cap(f.slab))
	}
	// A third delta moves a key's list out of its entry, whose cells then
	// hold no object.
	for i := 0; i < keys; i += 3 {
		if err := f.Update(fifoCtx(t), fifoPod("p"+strconv.Itoa(i), "3")); err != nil {
			t.Fatal(err)
		}
	}
	for seq := f.first; seq < f.next; seq++ {
		e := f.entryAt(seq)
		i, _ := strconv.Atoi(strings.TrimPrefix(e.key.Name, "p"))
		want := 2
		if i%3 == 0 {
			want = 3
		}
		if len(e.deltas) != want || e.inline() == (want == 3) {
			t.Fatalf("%s: %d deltas, want %d; in its entry's cells: %v", e.key.Name, len(e.deltas), want, e.inline())
		}
		if want == 3 && (e.cells[0].Object != nil || e.cells[1].Object != nil) {
			t.Fatalf("%s: its cells still hold %v", e.key.Name, e.cells)
		}
		if got := e.deltas[want-1].Object.ResourceVersion; got != strconv.Itoa(want) {
			t.Fatalf("%s: newest delta at %s, want %d", e.key.Name, got, want)
		}
	}
}

// A queue whose consumer declared that it takes batches (OwnDeltas, as the
// informer's controller does before it runs) keeps the one delta of each key
// of its first list in the key's entry, with no slab cut, and clears it once
// processed.
func TestDeltaFIFO_DeclaredBatchConsumerOwnsTheFirstList(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	f.OwnDeltas()
	list := make([]*corev1.Pod, 100)
	for i := range list {
		list[i] = fifoPod("p"+strconv.Itoa(i), "1")
	}
	if err := f.Replace(fifoCtx(t), list); err != nil {
		t.Fatal(err)
	}
	for seq := f.first; seq < f.next; seq++ {
		if e := f.entryAt(seq); !e.inline() {
			t.Fatalf("%s was queued with its delta outside its entry", e.key.Name)
		}
	}
	if f.slab != nil {
		t.Errorf("a slab of %d cells was cut for the first list", cap(f.slab))
	}
	var kept []fifoDeltas // kept against pop's contract, to look at the cells
	for f.Len() > 0 || len(f.batch) > 0 {
		fifoBatchPop(t, f, InformerBatch, func(key ObjectName, deltas fifoDeltas, initial bool) error {
			if !initial || len(deltas) != 1 || deltas[0].Type != Replaced || deltas[0].Object.Name != key.Name {
				t.Fatalf("%s: %v, initial %v", key.Name, deltas, initial)
			}
			kept = append(kept, deltas)
			return nil
		})
	}
	if !f.HasSynced() {
		t.Error("not synced after the first list was processed")
	}
	for i, ds := range kept {
		if ds[0].Object != nil {
			t.Errorf("list %d still holds %s after its key was processed", i, ds[0].Object.Name)
		}
	}
}

// A consumer that catches up with the line and waits for the next key, again
// and again, waits on the queue's one wake channel, made with the queue: it
// allocates nothing to wait.
func TestDeltaFIFO_ConsumerWaitsOnOneChannel(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	wake := f.notEmpty
	popped := make(chan string)
	go func() {
		defer close(popped)
		for {
			err := f.PopBatch(fifoCtx(t), InformerBatch, func(key ObjectName, _ fifoDeltas, _ bool) error {
				popped <- key.Name
				return nil
			})
			if err != nil {
				return
			}
		}
	}()
	waiting := func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.consumerWaits
	}
	for i := range 100 {
		for !waiting() {
			runtime.Gosched()
		}
		name := "p" + strconv.Itoa(i)
		if err := f.Add(fifoCtx(t), fifoPod(name, "1")); err != nil {
			t.Fatal(err)
		}
		if got := <-popped; got != name {
			t.Fatalf("popped %s, want %s", got, name)
		}
	}
	f.Close()
	for range popped {
	}
	if f.notEmpty != wake {
		t.Error("the consumer's waits made a new wake channel")
	}
}

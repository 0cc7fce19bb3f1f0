package queue

import (
	"errors"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// A line of thousands of keys, popped and refilled at random: the ring grows
// and wraps, Pop leaves popped keys in the index and the index is rebuilt,
// and through all of it keys come out in the order they were first queued,
// each with all its deltas. Once drained, the queue keeps the storage the
// long line grew for a while (another burst may come), and releases it once
// keepFactor times as many keys as the line held have passed through smaller
// lines.
func TestDeltaFIFO_LongLineKeepsOrderAndReleasesStorage(t *testing.T) {
	cachetest.SkipUnderRace(t)
	const names = 5000
	f := NewDeltaFIFO(fifoOpts{})
	rng := rand.New(rand.NewPCG(7, 11))
	var line []string          // the model: keys in line
	queued := map[string]int{} // deltas per queued key
	rv := 0
	sawStale, sawRebuild := false, false
	check := func() {
		t.Helper()
		if err := checkFIFOIndex(f); err != nil {
			t.Fatal(err)
		}
		if n := f.Len(); n != len(line) {
			t.Fatalf("Len() = %d, the model has %d", n, len(line))
		}
		stale := len(f.index) - f.Len()
		if stale > 2*f.Len()+f.staleFloor+1 {
			t.Fatalf("%d popped keys left in the index with %d queued", stale, f.Len())
		}
		if stale > 0 {
			sawStale = true
		}
	}
	pop := func() {
		t.Helper()
		want := line[0]
		err := f.Pop(fifoCtx(t), func(key ObjectName, deltas fifoDeltas, _ bool) error {
			if key.Name != want || len(deltas) != queued[want] {
				t.Fatalf("popped %s with %d deltas, want %s with %d", key.Name, len(deltas), want, queued[want])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		line = line[1:]
		delete(queued, want)
	}
	step := func(fill float64) {
		t.Helper()
		if len(line) == 0 || rng.Float64() < fill {
			name := "p" + strconv.Itoa(rng.IntN(names))
			rv++
			if err := f.Update(fifoCtx(t), fifoPod(name, strconv.Itoa(rv))); err != nil {
				t.Fatal(err)
			}
			if queued[name] == 0 {
				line = append(line, name)
			}
			queued[name]++
			return
		}
		before := f.stale
		pop()
		if f.stale < before && f.Len() > 0 {
			sawRebuild = true
		}
	}
	// Fill faster than draining, then drain faster than filling until the
	// line is empty.
	for i := range 30000 {
		step(0.65)
		if i%499 == 0 {
			check()
		}
	}
	check()
	if len(f.entries) <= releaseAbove {
		t.Fatalf("the ring never grew past %d entries (%d): the test does not reach the release", releaseAbove, len(f.entries))
	}
	for i := 0; len(line) > 0; i++ {
		step(0.35)
		if i%499 == 0 {
			check()
		}
	}
	check()
	if !sawStale || !sawRebuild {
		t.Errorf("the line never took the lazy path (popped keys left in the index %v, index rebuilt %v)", sawStale, sawRebuild)
	}
	// The line of single events outgrew releaseAbove: its ring and index are
	// kept for the next burst until keepFactor times as many keys as it held
	// at its longest have passed through smaller lines.
	keep := f.keepKeys
	if len(f.entries) <= releaseAbove || f.burstIndex == nil || f.indexPeak > releaseAbove || keep < keepFactor*releaseAbove {
		t.Fatalf("drained queue keeps a ring of %d entries and a burst table %v, for %d more keys, and its index was grown to %d keys; want the ring and burst table kept and a small index", len(f.entries), f.burstIndex != nil, keep, f.indexPeak)
	}
	const small = releaseAbove / 2
	passed := 0
	for f.entries != nil {
		if passed > keep {
			t.Fatalf("the ring is still kept after %d keys passed through small lines, want it released after %d", passed, keep)
		}
		line, queued = nil, map[string]int{}
		for i := range small {
			name := "small" + strconv.Itoa(i)
			if err := f.Add(fifoCtx(t), fifoPod(name, "1")); err != nil {
				t.Fatal(err)
			}
			line, queued[name] = append(line, name), 1
		}
		for len(line) > 0 {
			pop()
		}
		passed += small
		check()
	}
	if passed < keep {
		t.Errorf("the ring was released after %d keys passed through small lines, want %d", passed, keep)
	}
	// What is left of the index is processed keys, no more than a small
	// queue keeps.
	if f.entries != nil || f.burstIndex != nil || f.quietIndex != nil || len(f.index) > f.stale || f.stale > f.staleFloor || f.indexPeak > releaseAbove {
		t.Errorf("drained queue keeps a ring of %d entries and an index of %d keys (peak %d; %d counted as processed, at most %d kept)", len(f.entries), len(f.index), f.indexPeak, f.stale, f.staleFloor)
	}
	// And it works on from empty.
	if err := f.Add(fifoCtx(t), fifoPod("again", "1")); err != nil {
		t.Fatal(err)
	}
	line, queued = []string{"again"}, map[string]int{"again": 1}
	pop()
	check()
}

// Keys queued one after another get their one-delta lists, and the pairs a
// second delta makes, from one slab. Appending a delta to one of them (a
// second or third event, a requeue after an error), or changing one in place
// (a watch-list stream listing a key twice), must leave every other key's
// deltas as they were.
func TestDeltaFIFO_SlabListsShareNothing(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	ctx := fifoCtx(t)
	const keys = 3 * deltaSlab
	want := map[string][]string{}
	for i := range keys {
		name := "p" + strconv.Itoa(i)
		if err := f.Add(ctx, fifoPod(name, "1")); err != nil {
			t.Fatal(err)
		}
		want[name] = []string{"Added@1"}
	}
	if len(f.slab) == 0 || cap(f.slab) < 2 {
		t.Fatalf("the lists were not cut from a slab (%d left of %d)", len(f.slab), cap(f.slab))
	}
	for i := 0; i < keys; i += 7 {
		name := "p" + strconv.Itoa(i)
		if err := f.Update(ctx, fifoPod(name, "2")); err != nil {
			t.Fatal(err)
		}
		want[name] = append(want[name], "Updated@2")
		if i%2 == 0 { // a third delta: the pair is copied out of the slab
			if err := f.Update(ctx, fifoPod(name, "2b")); err != nil {
				t.Fatal(err)
			}
			want[name] = append(want[name], "Updated@2b")
		}
	}
	popAll := func(fail func(key ObjectName) error) {
		t.Helper()
		for f.Len() > 0 {
			err := f.Pop(ctx, func(key ObjectName, deltas fifoDeltas, _ bool) error {
				var got []string
				for _, d := range deltas {
					got = append(got, string(d.Type)+"@"+d.Object.ResourceVersion)
				}
				if !slices.Equal(got, want[key.Name]) {
					t.Errorf("%s: deltas %v, want %v", key.Name, got, want[key.Name])
				}
				return fail(key)
			})
			if err != nil && !errors.Is(err, errFIFOBoom) {
				t.Fatal(err)
			}
		}
	}
	// Every third key fails once and goes back in line; a delta queued
	// for it meanwhile is appended to the list it was popped with.
	failed := map[string]bool{}
	popAll(func(key ObjectName) error {
		i, _ := strconv.Atoi(key.Name[1:])
		if i%3 != 0 || failed[key.Name] {
			delete(want, key.Name)
			return nil
		}
		failed[key.Name] = true
		if err := f.Update(ctx, fifoPod("p"+strconv.Itoa((i+1)%keys), "3")); err != nil {
			t.Fatal(err)
		}
		if next := "p" + strconv.Itoa((i+1)%keys); want[next] != nil {
			want[next] = append(want[next], "Updated@3")
		} else {
			want[next] = []string{"Updated@3"}
		}
		return errFIFOBoom
	})
	if len(want) != 0 {
		t.Errorf("never popped: %v", slices.Sorted(maps.Keys(want)))
	}

	// A stream listing a key twice keeps its newest state only, in place.
	list := []*corev1.Pod{fifoPod("a", "1"), fifoPod("b", "1"), fifoPod("a", "2"), fifoPod("c", "1")}
	if err := f.replace(ctx, list, true); err != nil {
		t.Fatal(err)
	}
	want = map[string][]string{"a": {"Replaced@2"}, "b": {"Replaced@1"}, "c": {"Replaced@1"}}
	popAll(func(ObjectName) error { return nil })
}

// A queue that drains after every key (a quiet informer) leaves the keys it
// processed in its index, but no more than staleFloor of them: thousands of
// distinct keys do not grow it, and every key is still found as queued while
// it is.
func TestDeltaFIFO_DrainingLineKeepsItsIndexSmall(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	most := 0
	for i := range 10 * defaultStaleFloor {
		name := "p" + strconv.Itoa(i)
		if err := f.Add(fifoCtx(t), fifoPod(name, strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
		if !f.queuedLocked(fifoKey(name)) {
			t.Fatalf("%s is not queued after Add", name)
		}
		if p := fifoPop(t, f); p.key.Name != name {
			t.Fatalf("popped %s, want %s", p.key.Name, name)
		}
		if err := checkFIFOIndex(f); err != nil {
			t.Fatal(err)
		}
		most = max(most, len(f.index))
	}
	if most > defaultStaleFloor+1 {
		t.Errorf("the index held up to %d keys of a line of one, want at most %d", most, defaultStaleFloor+1)
	}
	if most < defaultStaleFloor/2 {
		t.Errorf("the index held at most %d keys: processed keys are deleted, not left for a rebuild", most)
	}
}

// A line that a Replace or a Resync filled (an initial list, a relist, a
// resync) releases the ring and index it grew as soon as it drains, even
// right after a burst of single events that would have kept them: a quiet
// informer keeps none of what its initial list needed.
func TestDeltaFIFO_ListedLineReleasesStorageAtOnce(t *testing.T) {
	const keys = 3 * releaseAbove
	store := fifoStore()
	f := NewDeltaFIFO(fifoOpts{KnownObjects: store})
	drain := func() {
		t.Helper()
		for f.Len() > 0 || len(f.batch) > 0 {
			fifoBatchPop(t, f, InformerBatch, func(key ObjectName, deltas fifoDeltas, _ bool) error {
				fifoApply(store, key, deltas)
				return nil
			})
		}
	}
	released := func(what string) {
		t.Helper()
		if f.entries != nil || f.burstIndex != nil || f.quietIndex != nil || f.indexPeak > releaseAbove || f.keepKeys > 0 {
			t.Errorf("after %s: a ring of %d entries and an index grown to %d keys kept for %d more keys, want both released", what, len(f.entries), f.indexPeak, f.keepKeys)
		}
	}
	list := make([]*corev1.Pod, keys)
	for i := range list {
		list[i] = fifoPod("p"+strconv.Itoa(i), "1")
	}
	if err := f.Replace(fifoCtx(t), list); err != nil {
		t.Fatal(err)
	}
	drain()
	released("the initial list")

	for round, refill := range []func() error{
		func() error { return f.Resync(fifoCtx(t)) },
		func() error { return f.Replace(fifoCtx(t), slices.Clone(list)) },
	} {
		for i := range keys {
			if err := f.Update(fifoCtx(t), fifoPod("p"+strconv.Itoa(i), strconv.Itoa(2+round))); err != nil {
				t.Fatal(err)
			}
		}
		drain()
		if want := keepFactor * max(keys, keepLeast); f.keepKeys != want || f.entries == nil || f.burstIndex == nil {
			t.Fatalf("round %d: a burst of %d updates left a ring of %d entries, kept for %d more keys; want it kept for %d", round, keys, len(f.entries), f.keepKeys, want)
		}
		if err := refill(); err != nil {
			t.Fatal(err)
		}
		drain()
		released([]string{"a resync", "a relist"}[round])
	}
}

// Keys queued with one delta keep it in their entry while the queue owns its
// deltas. When the ring grows while the consumer holds a batch, the entries
// move: the batch still reads its deltas, the moved entries read theirs from
// their new cells, and deltas appended meanwhile reach the right keys.
func TestDeltaFIFO_RingGrowsUnderABatchOfCells(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	ctx := fifoCtx(t)
	update := func(name, rv string) {
		t.Helper()
		if err := f.Update(ctx, fifoPod(name, rv)); err != nil {
			t.Fatal(err)
		}
	}
	update("first", "1")
	fifoBatchDrain(t, f, InformerBatch) // from here on the queue owns its deltas
	const head = 12
	for i := range head {
		update("h"+strconv.Itoa(i), "1")
	}
	// The whole head is in the batch: queue enough keys to grow the ring
	// several times, with a second delta for some as they come (so that
	// entries holding two deltas move too), and a third for some of those.
	got := fifoBatchDrainHolding(t, f, InformerBatch, func() {
		before := len(f.entries)
		for i := range 200 {
			update("t"+strconv.Itoa(i), "1")
			if i%3 == 0 {
				update("t"+strconv.Itoa(i), "2")
			}
		}
		for i := 0; i < 200; i += 6 {
			update("t"+strconv.Itoa(i), "3")
		}
		update("h0", "2") // in flight: queued again at the end
		if len(f.entries) <= 2*before {
			t.Fatalf("the ring grew from %d to %d entries only", before, len(f.entries))
		}
		for seq := f.first; seq < f.next; seq++ {
			if e := f.entryAt(seq); len(e.deltas) <= 2 && !e.inline() {
				t.Fatalf("%s: its %d deltas are not in its own cells after the ring grew", e.key.Name, len(e.deltas))
			}
		}
		if err := checkFIFOIndex(f); err != nil {
			t.Fatal(err)
		}
	})
	var want []string
	for i := range head {
		want = append(want, fifoLine(fifoKey("h"+strconv.Itoa(i)), fifoDeltas{{Type: Updated, Object: fifoPod("h"+strconv.Itoa(i), "1")}}))
	}
	for i := range 200 {
		name := "t" + strconv.Itoa(i)
		ds := fifoDeltas{{Type: Updated, Object: fifoPod(name, "1")}}
		if i%3 == 0 {
			ds = append(ds, Delta[*corev1.Pod]{Type: Updated, Object: fifoPod(name, "2")})
			if i%2 == 0 {
				ds = append(ds, Delta[*corev1.Pod]{Type: Updated, Object: fifoPod(name, "3")})
			}
		}
		want = append(want, fifoLine(fifoKey(name), ds))
	}
	want = append(want, fifoLine(fifoKey("h0"), fifoDeltas{{Type: Updated, Object: fifoPod("h0", "2")}}))
	if !slices.Equal(got, want) {
		t.Errorf("popped\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A burst of single events longer than releaseAbove leaves its index table
// kept, empty, for the next burst, while shorter lines use a small table.
// The next burst moves to the kept table as it outgrows the small one, with
// keys in flight, and hands it back when it drains: the two tables are
// reused, and every key comes out in order with its deltas.
func TestDeltaFIFO_BurstsReuseTheirIndexTable(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	ctx := fifoCtx(t)
	table := func(m map[ObjectName]uint64) uintptr { return uintptr(reflect.ValueOf(m).UnsafePointer()) }
	queue := func(prefix string, n int, rv string) []string {
		t.Helper()
		var want []string
		for i := range n {
			p := fifoPod(prefix+strconv.Itoa(i), rv)
			if err := f.Update(ctx, p); err != nil {
				t.Fatal(err)
			}
			want = append(want, fifoLine(fifoKey(p.Name), fifoDeltas{{Type: Updated, Object: p}}))
		}
		return want
	}
	const burst = 3 * releaseAbove
	want := queue("a", burst, "1")
	if got := fifoBatchDrain(t, f, InformerBatch); !slices.Equal(got, want) {
		t.Fatalf("first burst: popped %d keys, want %d in order", len(got), len(want))
	}
	if f.burstIndex == nil || f.quietIndex != nil || f.indexPeak > releaseAbove {
		t.Fatalf("after a burst: burst table kept %v, index grown to %d keys; want the burst table kept and a small index", f.burstIndex != nil, f.indexPeak)
	}
	burstTable, keep := table(f.burstIndex), f.keepKeys

	want = queue("s", 100, "1")
	if got := fifoBatchDrain(t, f, InformerBatch); !slices.Equal(got, want) {
		t.Fatalf("short line: popped %v, want %v", got, want)
	}
	if f.burstIndex == nil || table(f.burstIndex) != burstTable || f.keepKeys != keep-100 {
		t.Fatalf("a short line changed the kept burst table, or did not count its keys (%d kept for, want %d)", f.keepKeys, keep-100)
	}
	smallTable := table(f.index)

	// The next burst starts while the consumer holds a batch of it.
	want = queue("b", InformerBatch, "2")
	got := fifoBatchDrainHolding(t, f, InformerBatch, func() {
		want = append(want, queue("c", burst, "2")...)
		if table(f.index) != burstTable || f.quietIndex == nil || table(f.quietIndex) != smallTable {
			t.Fatalf("a burst of %d keys did not move to the kept burst table", burst)
		}
		if err := checkFIFOIndex(f); err != nil {
			t.Fatal(err)
		}
	})
	if !slices.Equal(got, want) {
		t.Fatalf("second burst: popped %d keys, want %d in order", len(got), len(want))
	}
	if f.burstIndex == nil || table(f.burstIndex) != burstTable || table(f.index) != smallTable || f.quietIndex != nil {
		t.Errorf("after the second burst the tables were not handed back: burst table reused %v, small table reused %v", f.burstIndex != nil && table(f.burstIndex) == burstTable, table(f.index) == smallTable)
	}
	if err := checkFIFOIndex(f); err != nil {
		t.Fatal(err)
	}
}

// A consumer that nearly keeps up with a long burst drains lines a little
// longer than releaseAbove between many short ones. The ring and the burst
// table the first such line grew are kept through all of them (keepLeast),
// not released and grown again every keepFactor lines.
func TestDeltaFIFO_NearlyKeptUpBurstKeepsItsStorage(t *testing.T) {
	cachetest.SkipUnderRace(t)
	f := NewDeltaFIFO(fifoOpts{})
	ctx := fifoCtx(t)
	table := func(m map[ObjectName]uint64) uintptr { return uintptr(reflect.ValueOf(m).UnsafePointer()) }
	line := func(prefix string, n int) {
		t.Helper()
		for i := range n {
			if err := f.Update(ctx, fifoPod(prefix+strconv.Itoa(i), "1")); err != nil {
				t.Fatal(err)
			}
		}
		if got := fifoBatchDrain(t, f, InformerBatch); len(got) != n {
			t.Fatalf("popped %d keys, want %d", len(got), n)
		}
	}
	const long, short = releaseAbove + releaseAbove/2, 100
	line("l", long)
	if f.burstIndex == nil || len(f.entries) <= releaseAbove {
		t.Fatalf("a line of %d keys left a ring of %d entries and a burst table %v; want both kept", long, len(f.entries), f.burstIndex != nil)
	}
	ring, burst := &f.entries[0], table(f.burstIndex)
	passed := 0
	for round := range 20 {
		// Between two long lines, more keys pass through short lines than
		// keepFactor times the long line held.
		for passed = 0; passed <= keepFactor*long; passed += short {
			line("s", short)
		}
		line("l", long)
		if f.burstIndex == nil || table(f.burstIndex) != burst || len(f.entries) <= releaseAbove || &f.entries[0] != ring {
			t.Fatalf("round %d: the ring or the burst table was released and grown again", round)
		}
	}
	// What keeps them is a count of keys: past it, both are released.
	for passed = 0; f.entries != nil; {
		if passed > keepFactor*keepLeast {
			t.Fatalf("the ring is still kept after %d keys passed through short lines, want it released after %d", passed, keepFactor*keepLeast)
		}
		line("s", short)
		passed += short
	}
	if f.burstIndex != nil {
		t.Error("the burst table was kept after the ring was released")
	}
}

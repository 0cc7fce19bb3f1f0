package queue

// Differential test of DeltaFIFO against client-go's DeltaFIFO, created as
// client-go's informers create it:
//
//	cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{
//		KeyFunction: cache.MetaNamespaceKeyFunc, KnownObjects: <indexer>,
//		EmitDeltaTypeReplaced: true,
//	})
//
// Per seed, a random sequence of producer calls goes to both queues: Add,
// Update and Delete (of a key the consumer's store holds, of a queued key,
// and of a key nobody has seen, which both drop), Replace with lists that
// leave keys out (tombstones for queued and for stored keys), Resync, and
// partial pops: k keys at a time, some of whose processing fails. Each side's
// consumer applies what it pops to its own store, which is also the queue's
// KnownObjects, the way an informer does (Deleted removes the key; any other
// delta adds the object or updates it): ours an Indexer[*corev1.Pod],
// client-go's a cache.NewIndexer. Both queues get the same *corev1.Pod
// pointers. After every call and every pop the test compares
//
//   - what was popped: the key, its deltas (type, object identity and
//     resourceVersion, and whether the delete's final state is unknown:
//     client-go's cache.DeletedFinalStateUnknown is unwrapped, its Key must be
//     the popped key), isInInitialList and the process error;
//   - the queue: its keys in line order (so also its length) and each key's
//     queued deltas;
//   - HasSynced;
//   - the consumer's store: the same keys holding the same pointers.
//
// Line order is compared exactly, across keys too: both queues put a key
// at the back when it is first queued and keep its place while more deltas
// arrive. The only order neither queue defines is that of the keys a Replace
// or a Resync queues from KnownObjects, which follows KnownObjects.ListKeys,
// "in no particular order" on both stores. The KnownObjects client-go's queue
// gets (fdRefKnown) therefore lists client-go's keys in the order our store
// lists its own, so that both queues see the same order.
//
// Documented differences (docs/runtime-semantics.md#queue-and-delivery-order,
// "processing returns an error"), modelled rather than hidden:
//
//   - When process returns an error, our Pop puts the key's deltas back (at
//     the back of the line). Client-go v0.37's DeltaFIFO drops them: its Pop
//     returns them, and its documentation tells the caller to put them back
//     with AddIfNotPresent, which it no longer has. The test puts them back
//     on client-go's queue as AddIfNotPresent did (queued at the back unless
//     the key is queued already), by reaching into its unexported fields
//     (fdRefQueue); client-go v0.37 exposes neither its line nor its length,
//     so the comparison reads those fields too.
//   - HasSynced and isInInitialList. Client-go counts pops: it has synced
//     once as many keys have been popped as the first Replace queued, failed
//     ones included, and isInInitialList is "not synced yet". Ours waits
//     until every key of the first Replace has been processed without error,
//     and isInInitialList is true for exactly those keys. The test keeps a
//     model of each (fdRun.initial, fdRun.refCount), checks each queue
//     against its own model at every step, and checks that the two models
//     agree as long as no initial key has failed: then the queues agree too.
//
// FIFO_DIFF_SEEDS sets the number of seeds (fdDefaultSeeds when unset, fewer
// under the race detector); FIFO_DIFF_SEED=N runs seed N alone and logs each
// of its operations. A failure names its seed and prints the operations that
// led to it.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/store"
)

const (
	fdDefaultSeeds = 2000
	fdRaceSeeds    = 1000 // the race detector slows the comparisons down
	fdSteps        = 48   // producer calls and pop batches per seed
	fdNames        = 8    // names of the pods a seed uses, so keys collide
	fdFailOneIn    = 5    // the chance that processing one popped key fails
)

var errFIFODiff = errors.New("process failed")

// fdDelta is one delta of either queue, normalised: for client-go's, a
// DeletedFinalStateUnknown is unwrapped into obj with fsu set.
type fdDelta struct {
	typ string
	obj *corev1.Pod
	fsu bool
}

func (d fdDelta) String() string {
	s := d.typ + " "
	if d.obj == nil {
		s += "<nil>"
	} else {
		s += d.obj.Name + "@" + d.obj.ResourceVersion
	}
	if d.fsu {
		s += "?"
	}
	return s
}

func fdFormat(ds []fdDelta) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// fdEqual compares two delta lists, objects by identity.
func fdEqual(a, b []fdDelta) bool { return slices.Equal(a, b) }

func fdOurs(ds Deltas[*corev1.Pod]) []fdDelta {
	out := make([]fdDelta, len(ds))
	for i, d := range ds {
		out[i] = fdDelta{string(d.Type), d.Object, d.FinalStateUnknown}
	}
	return out
}

// fdTheirs normalises client-go's deltas for key; a tombstone whose Key is
// not key, or an object that is not a pod, is an error.
func fdTheirs(key string, ds clientcache.Deltas) ([]fdDelta, error) {
	out := make([]fdDelta, len(ds))
	for i, d := range ds {
		obj, fsu := d.Object, false
		if tomb, ok := obj.(clientcache.DeletedFinalStateUnknown); ok {
			if tomb.Key != key {
				return nil, fmt.Errorf("tombstone for key %q in the deltas of %q", tomb.Key, key)
			}
			obj, fsu = tomb.Obj, true
		}
		var pod *corev1.Pod
		if obj != nil {
			p, ok := obj.(*corev1.Pod)
			if !ok {
				return nil, fmt.Errorf("delta of %q carries a %T", key, obj)
			}
			pod = p
		}
		out[i] = fdDelta{string(d.Type), pod, fsu}
	}
	return out, nil
}

// fdRefKnown is client-go's KnownObjects: client-go's store, listing its keys
// in the order our store lists its own (see the top of the file). Keys our
// store lacks come last, sorted; the store comparison reports them.
type fdRefKnown struct {
	store clientcache.Indexer
	ours  *store.Indexer[*corev1.Pod]
}

func (k fdRefKnown) ListKeys() []string {
	rank := map[string]int{}
	for i, key := range k.ours.ListKeys() {
		rank[key.String()] = i
	}
	keys := k.store.ListKeys()
	slices.SortFunc(keys, func(a, b string) int {
		ra, okA := rank[a]
		rb, okB := rank[b]
		switch {
		case okA && okB:
			return ra - rb
		case okA:
			return -1
		case okB:
			return 1
		}
		return strings.Compare(a, b)
	})
	return keys
}

func (k fdRefKnown) GetByKey(key string) (any, bool, error) { return k.store.GetByKey(key) }

// fdRefQueue reaches into client-go's DeltaFIFO, whose line and queued
// deltas v0.37 does not expose: items (key to deltas) and queue (the line).
type fdRefQueue struct {
	items map[string]clientcache.Deltas
	queue *[]string
}

func newFDRefQueue(f *clientcache.DeltaFIFO) (fdRefQueue, error) {
	v := reflect.ValueOf(f).Elem()
	field := func(name string, typ reflect.Type) (reflect.Value, error) {
		fv := v.FieldByName(name)
		if !fv.IsValid() || fv.Type() != typ {
			return reflect.Value{}, fmt.Errorf("client-go's DeltaFIFO has no field %s of type %v: update fdRefQueue", name, typ)
		}
		return reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())), nil
	}
	items, err := field("items", reflect.TypeFor[map[string]clientcache.Deltas]())
	if err != nil {
		return fdRefQueue{}, err
	}
	queue, err := field("queue", reflect.TypeFor[[]string]())
	if err != nil {
		return fdRefQueue{}, err
	}
	return fdRefQueue{
		items: *items.Interface().(*map[string]clientcache.Deltas),
		queue: queue.Interface().(*[]string),
	}, nil
}

// addIfNotPresent puts popped deltas back as client-go's
// DeltaFIFO.AddIfNotPresent did: at the back of the line, unless the key is
// queued already (then they are dropped). The queue's lock is not taken:
// nothing else uses the queue meanwhile.
func (q fdRefQueue) addIfNotPresent(key string, ds clientcache.Deltas) {
	if _, ok := q.items[key]; ok {
		return
	}
	*q.queue = append(*q.queue, key)
	q.items[key] = ds
}

// fdStats counts what the seeds exercised, so that a change that stops the
// generator from reaching a case shows in the log.
type fdStats struct {
	steps, pops, failedPops, initialFailed     int
	tombstones, syncs, replaced, deleteDropped int
	queuedDeletes                              int
}

// fdRun is one seed.
type fdRun struct {
	seed  uint64
	rng   *rand.Rand
	rv    int
	ops   []string
	trace func(string) // logs every operation when replaying one seed
	stats *fdStats

	ours      *fifoT
	ourStore  *store.Indexer[*corev1.Pod]
	ref       *clientcache.DeltaFIFO
	refStore  clientcache.Indexer
	refQueue  fdRefQueue
	everSeen  map[string]bool // names given to a producer call so far
	ctx       context.Context
	populated bool // a producer call (not Resync) has been made
	// initial is our queue's model: the keys of the first Replace not yet
	// processed without error. refCount is client-go's: how many more pops
	// its first Replace waits for. initialFailed is set once the processing
	// of an initial key failed before the models said synced; from then on
	// they may disagree.
	initial       map[string]bool
	refCount      int
	initialFailed bool
}

func newFDRun(seed uint64, stats *fdStats) (*fdRun, error) {
	d := &fdRun{
		seed:     seed,
		rng:      rand.New(rand.NewPCG(seed, 0x6669666f)),
		stats:    stats,
		ourStore: cachetest.Must(store.NewIndexer[*corev1.Pod](nil)),
		refStore: clientcache.NewIndexer(clientcache.DeletionHandlingMetaNamespaceKeyFunc, clientcache.Indexers{}),
		everSeen: map[string]bool{},
		ctx:      context.Background(),
	}
	d.ours = NewDeltaFIFO(fifoOpts{KnownObjects: d.ourStore})
	// Pop leaves popped keys in the queue's index from staleFloor queued keys
	// on; most seeds lower it so that the few keys of a run take that path.
	d.ours.staleFloor = []int{0, 1, 2, 4, defaultStaleFloor}[seed%5]
	d.ref = clientcache.NewDeltaFIFOWithOptions(clientcache.DeltaFIFOOptions{
		KeyFunction:           clientcache.MetaNamespaceKeyFunc,
		KnownObjects:          fdRefKnown{store: d.refStore, ours: d.ourStore},
		EmitDeltaTypeReplaced: true,
	})
	var err error
	d.refQueue, err = newFDRefQueue(d.ref)
	return d, err
}

func (d *fdRun) log(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	d.ops = append(d.ops, s)
	if d.trace != nil {
		d.trace(s)
	}
}

func (d *fdRun) pod(name string) *corev1.Pod {
	d.rv++
	d.everSeen[name] = true
	return fifoPod(name, strconv.Itoa(d.rv))
}

func fdName(i int) string { return fmt.Sprintf("p%d", i) }

// checkFIFOIndex checks the queue's index and initial marks against its line:
// every queued key maps to its entry, every in-flight key to its entry or a
// newer queued one, every other key of the index to a number below the
// in-flight ones, and initialLeft counts the marks of the queued and
// in-flight entries.
func checkFIFOIndex[T Object](f *DeltaFIFO[T]) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	processed := f.processedTo.Load()
	if len(f.burstIndex) > 0 || len(f.quietIndex) > 0 || (f.burstIndex != nil && f.quietIndex != nil) {
		return fmt.Errorf("the spare index tables hold %d and %d keys (both kept: %v)", len(f.burstIndex), len(f.quietIndex), f.burstIndex != nil && f.quietIndex != nil)
	}
	if f.taken > processed || processed > f.first || f.first > f.next {
		return fmt.Errorf("numbers out of order: taken %d, processed to %d, first %d, next %d", f.taken, processed, f.first, f.next)
	}
	if n := len(f.entries); n&(n-1) != 0 || f.next-f.taken > uint64(n) {
		return fmt.Errorf("ring of %d entries holding numbers %d to %d", n, f.taken, f.next)
	}
	marks := 0
	for i := range f.entries {
		e := &f.entries[i]
		seq := f.taken + (uint64(i)-f.taken)&uint64(len(f.entries)-1)
		switch {
		case seq >= f.next:
			if e.key != (ObjectName{}) || e.deltas != nil || e.initial {
				return fmt.Errorf("free entry %d still holds %v", i, e.key)
			}
		case seq < processed:
			// processed, cleared by the next settle
		case seq < f.first:
			if got, ok := f.index[e.key]; !ok || got < seq {
				return fmt.Errorf("index[%v] = %d, %v; the key is in flight as number %d", e.key, got, ok, seq)
			}
			if e.initial {
				marks++
			}
		default:
			if got, ok := f.index[e.key]; !ok || got != seq {
				return fmt.Errorf("index[%v] = %d, %v; the key is queued as number %d", e.key, got, ok, seq)
			}
			if len(e.deltas) == 0 {
				return fmt.Errorf("queued key %v has no deltas", e.key)
			}
			if e.initial {
				marks++
			}
		}
	}
	live := 0
	for key, seq := range f.index {
		if seq >= f.next {
			return fmt.Errorf("index[%v] = %d, beyond the line's end %d", key, seq, f.next)
		}
		if seq >= processed {
			live++
			if f.entryAt(seq).key != key {
				return fmt.Errorf("index[%v] = %d names the entry of %v", key, seq, f.entryAt(seq).key)
			}
		}
	}
	if left := len(f.index) - live - int(processed-f.taken); left > f.stale {
		return fmt.Errorf("%d keys in the index, %d queued or in flight, %d counted as popped", len(f.index), live, f.stale)
	}
	if marks != f.initialLeft {
		return fmt.Errorf("%d initial marks, %d counted", marks, f.initialLeft)
	}
	return nil
}

// ourLine returns our queue's keys in line order and their deltas.
func (d *fdRun) ourLine() ([]string, map[string][]fdDelta) {
	d.ours.mu.Lock()
	defer d.ours.mu.Unlock()
	var keys []string
	items := map[string][]fdDelta{}
	for seq := d.ours.first; seq < d.ours.next; seq++ {
		e := d.ours.entryAt(seq)
		keys = append(keys, e.key.String())
		items[e.key.String()] = fdOurs(e.deltas)
	}
	return keys, items
}

func (d *fdRun) refLine() ([]string, map[string][]fdDelta, error) {
	keys := slices.Clone(*d.refQueue.queue)
	items := map[string][]fdDelta{}
	for k, ds := range d.refQueue.items {
		n, err := fdTheirs(k, ds)
		if err != nil {
			return nil, nil, err
		}
		items[k] = n
	}
	return keys, items, nil
}

func (d *fdRun) ourSynced() bool { return d.populated && len(d.initial) == 0 }
func (d *fdRun) refSynced() bool { return d.populated && d.refCount == 0 }

// compare checks both queues, HasSynced and both stores.
func (d *fdRun) compare() error {
	if err := checkFIFOIndex(d.ours); err != nil {
		return err
	}
	ourKeys, ourItems := d.ourLine()
	refKeys, refItems, err := d.refLine()
	if err != nil {
		return err
	}
	if !slices.Equal(ourKeys, refKeys) {
		return fmt.Errorf("line:\n ours     %q\n client-go %q", ourKeys, refKeys)
	}
	if len(ourItems) != len(ourKeys) || len(refItems) != len(refKeys) {
		return fmt.Errorf("%d keys in line, %d queued (ours); %d in line, %d queued (client-go)",
			len(ourKeys), len(ourItems), len(refKeys), len(refItems))
	}
	for _, k := range ourKeys {
		if !fdEqual(ourItems[k], refItems[k]) {
			return fmt.Errorf("queued deltas of %s:\n ours      %s\n client-go %s", k, fdFormat(ourItems[k]), fdFormat(refItems[k]))
		}
	}
	if got := d.ours.Len(); got != len(ourKeys) {
		return fmt.Errorf("Len() = %d with %d keys in line", got, len(ourKeys))
	}
	if got, want := d.ours.HasSynced(), d.ourSynced(); got != want {
		return fmt.Errorf("our HasSynced() = %v, want %v (initial keys left %v)", got, want, d.initial)
	}
	if got, want := d.ref.HasSynced(), d.refSynced(); got != want {
		return fmt.Errorf("client-go's HasSynced() = %v, its model wants %v (%d pops left): the test's model of client-go is wrong", got, want, d.refCount)
	}
	if !d.initialFailed && d.ourSynced() != d.refSynced() {
		return fmt.Errorf("models disagree on HasSynced (ours %v, client-go %v) though no initial key failed", d.ourSynced(), d.refSynced())
	}
	ourObjs := map[string]*corev1.Pod{}
	for _, o := range d.ourStore.List() {
		ourObjs[keyOf(o).String()] = o
	}
	refObjs := map[string]*corev1.Pod{}
	for _, o := range d.refStore.List() {
		p := o.(*corev1.Pod)
		refObjs[p.Namespace+"/"+p.Name] = p
	}
	if len(ourObjs) != len(refObjs) {
		return fmt.Errorf("store: ours has %d objects, client-go's %d", len(ourObjs), len(refObjs))
	}
	for k, o := range ourObjs {
		if refObjs[k] != o {
			return fmt.Errorf("store[%s]: ours %s@%s, client-go's %v", k, o.Name, o.ResourceVersion, refObjs[k])
		}
	}
	return nil
}

// refApply is client-go's consumer (ours is fifoApply): it applies popped
// deltas to its store as an informer does.
func (d *fdRun) refApply(ds clientcache.Deltas) error {
	for _, delta := range ds {
		var err error
		switch delta.Type {
		case clientcache.Deleted:
			err = d.refStore.Delete(delta.Object)
		default:
			if _, exists, _ := d.refStore.Get(delta.Object); exists {
				err = d.refStore.Update(delta.Object)
			} else {
				err = d.refStore.Add(delta.Object)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// pop pops one key from each queue; processing fails on both when fail is
// set.
func (d *fdRun) pop(fail bool) error {
	d.stats.pops++
	var ourPop, refPop struct {
		key     string
		deltas  []fdDelta
		initial bool
	}
	var ourErr, applyErr error
	err := d.ours.Pop(d.ctx, func(key ObjectName, ds Deltas[*corev1.Pod], initial bool) error {
		ourPop.key, ourPop.deltas, ourPop.initial = key.String(), fdOurs(ds), initial
		if fail {
			return errFIFODiff
		}
		fifoApply(d.ourStore, key, ds)
		return nil
	})
	if fail != errors.Is(err, errFIFODiff) || (!fail && err != nil) {
		ourErr = fmt.Errorf("our Pop returned %v (processing failed: %v)", err, fail)
	}
	item, err := d.ref.Pop(func(obj any, initial bool) error {
		ds := obj.(clientcache.Deltas)
		key, err := d.ref.KeyOf(ds)
		if err != nil {
			return err
		}
		refPop.key, refPop.initial = key, initial
		if refPop.deltas, err = fdTheirs(key, ds); err != nil {
			return err
		}
		if fail {
			return errFIFODiff
		}
		applyErr = d.refApply(ds)
		return nil
	})
	if fail != errors.Is(err, errFIFODiff) || (!fail && err != nil) {
		return fmt.Errorf("client-go's Pop returned %v (processing failed: %v)", err, fail)
	}
	if applyErr != nil {
		return fmt.Errorf("client-go's store: %v", applyErr)
	}
	if fail {
		d.refQueue.addIfNotPresent(refPop.key, item.(clientcache.Deltas))
	}
	outcome := "ok"
	if fail {
		outcome = "failed"
		d.stats.failedPops++
	}
	d.log("Pop %s %s initial=%v -> %s", ourPop.key, fdFormat(ourPop.deltas), ourPop.initial, outcome)
	if ourErr != nil {
		return ourErr
	}
	for _, delta := range ourPop.deltas {
		switch {
		case delta.fsu:
			d.stats.tombstones++
		case delta.typ == string(Sync):
			d.stats.syncs++
		case delta.typ == string(Replaced):
			d.stats.replaced++
		}
	}
	if ourPop.key != refPop.key || !fdEqual(ourPop.deltas, refPop.deltas) {
		return fmt.Errorf("popped:\n ours      %s %s\n client-go %s %s",
			ourPop.key, fdFormat(ourPop.deltas), refPop.key, fdFormat(refPop.deltas))
	}

	// isInInitialList against each queue's model, then the models.
	wantOurs := d.initial[ourPop.key]
	wantRef := !d.refSynced()
	if ourPop.initial != wantOurs {
		return fmt.Errorf("our isInInitialList = %v for %s, want %v (initial keys left %v)", ourPop.initial, ourPop.key, wantOurs, d.initial)
	}
	if refPop.initial != wantRef {
		return fmt.Errorf("client-go's isInInitialList = %v for %s, its model wants %v: the test's model of client-go is wrong", refPop.initial, refPop.key, wantRef)
	}
	if !d.initialFailed && wantOurs != wantRef {
		return fmt.Errorf("models disagree on isInInitialList for %s (ours %v, client-go %v) though no initial key failed", ourPop.key, wantOurs, wantRef)
	}
	if d.refCount > 0 {
		d.refCount--
	}
	if fail {
		if d.initial[ourPop.key] {
			d.initialFailed = true
		}
	} else {
		delete(d.initial, ourPop.key)
	}
	return nil
}

// step makes one random producer call, or pops a few keys.
func (d *fdRun) step() error {
	d.stats.steps++
	name := fdName(d.rng.IntN(fdNames))
	switch r := d.rng.IntN(100); {
	case r < 18:
		return d.produce("Add", d.pod(name))
	case r < 36:
		return d.produce("Update", d.pod(name))
	case r < 52:
		return d.delete()
	case r < 62:
		return d.replace()
	case r < 70:
		d.log("Resync")
		if err := d.ours.Resync(d.ctx); err != nil {
			return fmt.Errorf("our Resync: %v", err)
		}
		if err := d.ref.Resync(); err != nil {
			return fmt.Errorf("client-go's Resync: %v", err)
		}
		return d.compare()
	default:
		n := d.ours.Len()
		if n == 0 {
			return nil
		}
		k := 1 + d.rng.IntN(n)
		for range k {
			if err := d.pop(d.rng.IntN(fdFailOneIn) == 0); err != nil {
				return err
			}
			if err := d.compare(); err != nil {
				return err
			}
		}
		return nil
	}
}

// produce sends Add, Update or Delete of obj to both queues.
func (d *fdRun) produce(op string, obj *corev1.Pod) error {
	d.log("%s %s@%s", op, obj.Name, obj.ResourceVersion)
	d.populated = true
	var ourErr, refErr error
	switch op {
	case "Add":
		ourErr, refErr = d.ours.Add(d.ctx, obj), d.ref.Add(obj)
	case "Update":
		ourErr, refErr = d.ours.Update(d.ctx, obj), d.ref.Update(obj)
	case "Delete":
		ourErr, refErr = d.ours.Delete(d.ctx, obj), d.ref.Delete(obj)
	}
	if ourErr != nil || refErr != nil {
		return fmt.Errorf("%s: ours %v, client-go %v", op, ourErr, refErr)
	}
	return d.compare()
}

// delete deletes a stored key, a queued key, or a key that nobody has seen.
func (d *fdRun) delete() error {
	var candidates []string
	switch d.rng.IntN(3) {
	case 0:
		for _, k := range d.ourStore.ListKeys() {
			candidates = append(candidates, k.Name)
		}
	case 1:
		keys, _ := d.ourLine()
		for _, k := range keys {
			_, name, _ := strings.Cut(k, "/")
			candidates = append(candidates, name)
		}
	default:
		for i := range fdNames {
			if !d.everSeen[fdName(i)] {
				candidates = append(candidates, fdName(i))
			}
		}
		if len(candidates) == 0 {
			candidates = append(candidates, fdName(d.rng.IntN(fdNames)))
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	name := candidates[d.rng.IntN(len(candidates))]
	key := fifoKey(name)
	d.ours.mu.Lock()
	queued := d.ours.entryLocked(key) != nil
	d.ours.mu.Unlock()
	if _, stored := d.ourStore.Get(key); !stored && !queued {
		d.stats.deleteDropped++
	} else {
		d.stats.queuedDeletes++
	}
	return d.produce("Delete", d.pod(name))
}

// replace sends a list of a random subset of the names, in random order,
// each at a new resourceVersion; sometimes the list is empty.
func (d *fdRun) replace() error {
	var list []*corev1.Pod
	if d.rng.IntN(8) != 0 {
		keep := 0.3 + 0.6*d.rng.Float64()
		for i := range fdNames {
			if d.rng.Float64() < keep {
				list = append(list, d.pod(fdName(i)))
			}
		}
		d.rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	}
	names := make([]string, len(list))
	refList := make([]any, len(list))
	for i, p := range list {
		names[i] = p.Name + "@" + p.ResourceVersion
		refList[i] = p
	}
	d.log("Replace [%s]", strings.Join(names, " "))
	if !d.populated {
		// The first Replace: neither queue nor store holds anything yet.
		d.initial = map[string]bool{}
		for _, p := range list {
			d.initial[keyOf(p).String()] = true
		}
		d.refCount = len(d.initial)
	}
	d.populated = true
	if err := d.ours.Replace(d.ctx, slices.Clone(list)); err != nil {
		return fmt.Errorf("our Replace: %v", err)
	}
	if err := d.ref.Replace(refList, strconv.Itoa(d.rv)); err != nil {
		return fmt.Errorf("client-go's Replace: %v", err)
	}
	return d.compare()
}

// run makes fdSteps calls (the first one a Replace, mostly, as a reflector
// would), then drains both queues without failures.
func (d *fdRun) run() error {
	if d.rng.IntN(4) != 0 {
		if err := d.replace(); err != nil {
			return err
		}
	}
	for range fdSteps {
		if err := d.step(); err != nil {
			return err
		}
	}
	for d.ours.Len() > 0 {
		if err := d.pop(false); err != nil {
			return err
		}
		if err := d.compare(); err != nil {
			return err
		}
	}
	if d.initialFailed {
		d.stats.initialFailed++
	}
	if d.populated && (!d.ours.HasSynced() || !d.ref.HasSynced()) {
		return fmt.Errorf("drained: HasSynced() ours %v, client-go %v", d.ours.HasSynced(), d.ref.HasSynced())
	}
	return nil
}

// fdEnvInt returns the environment variable name as a non-negative integer,
// or def when it is unset.
func fdEnvInt(t *testing.T, name string, def int) (int, bool) {
	s := os.Getenv(name)
	if s == "" {
		return def, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a non-negative integer", name, s)
	}
	return n, true
}

// TestDeltaFIFODifferentialAgainstClientGo runs random producer calls and
// pops on our DeltaFIFO and client-go's and requires the same pops, queue,
// HasSynced and consumer store, but for the documented differences (see the
// top of the file).
func TestDeltaFIFODifferentialAgainstClientGo(t *testing.T) {
	def := fdDefaultSeeds
	if cachetest.RaceEnabled {
		def = fdRaceSeeds
	}
	seeds, _ := fdEnvInt(t, "FIFO_DIFF_SEEDS", def)
	first := 0
	if seed, ok := fdEnvInt(t, "FIFO_DIFF_SEED", 0); ok {
		first, seeds = seed, 1
	}
	var stats fdStats
	start := time.Now()
	for seed := first; seed < first+seeds; seed++ {
		d, err := newFDRun(uint64(seed), &stats)
		if err != nil {
			t.Fatal(err)
		}
		if seeds == 1 {
			d.trace = func(s string) { t.Log(s) }
		}
		if err := d.run(); err != nil {
			t.Fatalf("seed %d, after %d operations: %v\noperations:\n  %s\nreplay: FIFO_DIFF_SEED=%d go test -count=1 -run FIFODiff -v ./runtime/cache/internal/queue/",
				seed, len(d.ops), err, strings.Join(d.ops, "\n  "), seed)
		}
	}
	t.Logf("%d seeds in %v: %d steps, %d pops (%d failed; %d seeds with a failed initial key), "+
		"%d tombstones, %d Sync and %d Replaced deltas popped, %d deletes queued, %d deletes of unseen keys dropped",
		seeds, time.Since(start).Round(time.Millisecond), stats.steps, stats.pops, stats.failedPops, stats.initialFailed,
		stats.tombstones, stats.syncs, stats.replaced, stats.queuedDeletes, stats.deleteDropped)
}

// A key that is not part of the first Replace is not in the initial list,
// even when it is popped before the queue has synced because an initial key
// failed and went to the back of the line, behind it; client-go, which
// counts pops, says the same (docs/clientgo-semantics.md#initial-list-flag). The failed initial key is still initial when it comes back
// (client-go, which dropped it, has synced by then: a documented
// difference).
func TestDeltaFIFODiff_KeyBehindFailedInitialKeyIsNotInitial(t *testing.T) {
	f := NewDeltaFIFO(fifoOpts{})
	fifoRun(t, f, []fifoOp{opReplace("a@1"), opAdd("b", "2")})
	if err := f.Pop(fifoCtx(t), func(ObjectName, fifoDeltas, bool) error { return errFIFOBoom }); !errors.Is(err, errFIFOBoom) {
		t.Fatalf("Pop returned %v, want the process error", err)
	}
	if p := fifoPop(t, f); p.key.Name != "b" || p.initial {
		t.Errorf("popped %v with isInInitialList %v, want b, not initial", p, p.initial)
	}
	if f.HasSynced() {
		t.Error("HasSynced() = true while initial key a waits for a retry")
	}
	if p := fifoPop(t, f); p.key.Name != "a" || !p.initial {
		t.Errorf("popped %v with isInInitialList %v, want a, initial", p, p.initial)
	}
	if !f.HasSynced() {
		t.Error("HasSynced() = false once every initial key was processed")
	}

	ref := clientcache.NewDeltaFIFOWithOptions(clientcache.DeltaFIFOOptions{
		KeyFunction: clientcache.MetaNamespaceKeyFunc, EmitDeltaTypeReplaced: true,
	})
	if err := ref.Replace([]any{fifoPod("a", "1")}, "1"); err != nil {
		t.Fatal(err)
	}
	if err := ref.Add(fifoPod("b", "2")); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Pop(func(any, bool) error { return errFIFOBoom }); !errors.Is(err, errFIFOBoom) {
		t.Fatalf("client-go's Pop returned %v, want the process error", err)
	}
	var initial bool
	if _, err := ref.Pop(func(_ any, isInInitialList bool) error { initial = isInInitialList; return nil }); err != nil {
		t.Fatal(err)
	}
	if initial {
		t.Error("client-go's isInInitialList = true for b")
	}
}

package store

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/client-go/tools/cache"
)

// entry is what a slot holds: the object, its interned namespace and its
// position in that namespace's list of slots.
type entry[T Object] struct {
	obj T
	ns  nsID
	pos uint32 // index of the slot in its namespace's slots
}

// namespace lists the slots of one namespace's objects, in no order. Its
// name is the string the key map checks a found object's namespace against,
// and holds in its keys by namespace and name, so that lookups read one
// copy of it, which stays in the CPU cache, rather than each object's own.
type namespace struct {
	id    nsID
	name  string
	slots []slot
	peak  int // the most objects it held at once
}

// spareNamespaceMax is the peak size up to which a released namespace is kept
// for reuse, with its list of slots.
const spareNamespaceMax = 8

// minSlotsCap is the capacity up to which a namespace's list of slots is not
// reallocated when it shrinks.
const minSlotsCap = 64

// Indexer is the typed, indexed object store an informer keeps and listers
// read, the counterpart of what client-go's cache.NewIndexer returns: objects,
// index definitions and index contents behind one sync.RWMutex. It is safe for
// concurrent use. The zero value is not usable; call NewIndexer.
//
// Objects returned by any method are the stored pointers, shared with every
// other reader: callers must not mutate them (client-go's contract).
type Indexer[T Object] struct {
	// Every object gets a slot (a small integer) and every namespace that holds
	// objects an id. Objects are found by key through a map of names to the
	// object, its slot and its namespace (keyMap), as client-go's store finds
	// them through its map of string keys; the keys are the stored objects' own
	// name strings, so that the store builds and keeps no key string, and a
	// lookup hashes only the name. Every namespace lists its slots; indexes
	// map values to buckets of (namespace id, slot) members, and keep for every
	// slot the buckets its object is in. Removing the last object of a namespace
	// releases the namespace: its list goes (but for one small one, kept empty
	// for the next new namespace), and its id is reused by the next new
	// namespace. That is safe because no bucket still names the id: removing an
	// object removes its members from every bucket. So the store's memory
	// follows the objects it holds and the namespaces they are in, not every
	// namespace it ever saw. Buckets return to their compact forms as they
	// shrink (index.go), and the key map is rebuilt smaller when it holds less
	// than an eighth of its peak; what a larger past leaves is, as in client-go,
	// the size of Go map tables (the namespaces, an index's values) and of the
	// slot array, until the store empties or is replaced: once it holds no
	// object, it keeps nothing of its past content (as after Replace with no
	// object).

	mu sync.RWMutex

	namespaces map[string]*namespace // namespaces holding at least one object
	byID       []*namespace          // the same namespaces, by id (nil: free)
	nextNS     nsID                  // ids below nextNS are in use or in freeNS
	freeNS     []nsID                // ids of released namespaces, to reuse
	spare      *namespace            // a released small namespace, empty, to reuse
	entries    []entry[T]            // by slot; free slots hold the zero entry
	free       []slot
	count      int
	keys       keyMap[T] // every object, its slot and namespace, by key

	indexes      []*index[T]          // in the order they were added
	refs         refTable             // every index's buckets of every slot
	indexByName  map[string]*index[T] // the same indexes, by name
	labelIndexes map[string]*index[T] // label indexes by label key

	buffers sync.Pool // *[]T for IndexedObjects

	// rv is the resourceVersion of the last object stored, or the last one
	// noteResourceVersion recorded.
	rv string
}

// NewIndexer returns an empty store with the given indexes. An index without
// a function is an error.
func NewIndexer[T Object](indexers Indexers[T]) (*Indexer[T], error) {
	s := &Indexer[T]{
		namespaces:   map[string]*namespace{},
		indexByName:  map[string]*index[T]{},
		labelIndexes: map[string]*index[T]{},
		keys:         newKeyMap[T](0),
	}
	if err := s.AddIndexers(indexers); err != nil {
		return nil, err
	}
	return s, nil
}

// Add stores obj under its key, replacing any object stored under it. It
// is the same as Update.
func (s *Indexer[T]) Add(obj T) { s.Upsert(obj) }

// Update stores obj under its key, replacing any object stored under it.
func (s *Indexer[T]) Update(obj T) { s.Upsert(obj) }

// Upsert stores obj under its key and returns the object it replaced, if any,
// in one critical section.
func (s *Indexer[T]) Upsert(obj T) (old T, existed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.upsertLocked(obj)
}

func (s *Indexer[T]) upsertLocked(obj T) (old T, existed bool) {
	s.rv = obj.GetResourceVersion()
	key := KeyOf(obj)
	if k, where := s.keys.find(s.byID, key); where != absent {
		// The key map's entry has all an update reads: the slot's entry
		// is only written.
		id := k.id
		s.entries[id].obj = obj
		// The map takes the new object's name for the key, too: it keeps
		// nothing of the old object.
		s.keys.replace(where, s.byID[k.ns], key.Name, keyed[T]{obj, id, k.ns})
		for _, ix := range s.indexes {
			ix.update(member{k.ns, id}, obj)
		}
		return k.obj, true
	}
	ns := s.namespaceLocked(key.Namespace)
	id := s.allocate(entry[T]{obj: obj, ns: ns.id, pos: uint32(len(ns.slots))})
	ns.slots = append(ns.slots, id)
	ns.peak = max(ns.peak, len(ns.slots))
	s.keys.insert(ns, key.Name, keyed[T]{obj, id, ns.id})
	for _, ix := range s.indexes {
		ix.update(member{ns.id, id}, obj)
	}
	return old, false
}

// namespaceLocked returns the namespace called name, creating it if needed
// with the id of a released namespace, if any (and the spare namespace's
// empty map, if any).
func (s *Indexer[T]) namespaceLocked(name string) *namespace {
	ns := s.namespaces[name]
	if ns == nil {
		var id nsID
		if n := len(s.freeNS); n > 0 {
			id = s.freeNS[n-1]
			s.freeNS = s.freeNS[:n-1]
		} else {
			id = s.nextNS
			s.nextNS++
		}
		if ns = s.spare; ns != nil {
			s.spare = nil
			ns.id, ns.name, ns.peak = id, name, 0
		} else {
			ns = &namespace{id: id, name: name}
		}
		s.namespaces[name] = ns
		if int(id) >= len(s.byID) {
			s.byID = append(s.byID, make([]*namespace, int(id)+1-len(s.byID))...)
		}
		s.byID[id] = ns
	}
	return ns
}

// releaseNamespaceLocked forgets ns, whose last object was just
// removed, and frees its id. No bucket holds a member of ns (each removal
// took its object's members out of every bucket), so the id can name
// another namespace at once. When that was the last namespace, the store
// holds no object and starts afresh, dropping the tables its past content
// grew (Go maps never shrink). A namespace that never held more than
// spareNamespaceMax objects is kept as the spare, so that a namespace
// losing and regaining its only object (next to other namespaces)
// allocates nothing.
func (s *Indexer[T]) releaseNamespaceLocked(ns *namespace) {
	delete(s.namespaces, ns.name)
	if len(s.namespaces) == 0 {
		s.resetLocked(0)
	} else {
		s.freeNS = append(s.freeNS, ns.id)
		s.byID[ns.id] = nil
	}
	if ns.peak <= spareNamespaceMax {
		s.spare = ns
	}
}

// reserve gives an empty store room for n objects, so that filling it (an
// informer's first list) does not grow its tables step by step. It does
// nothing to a store that holds objects or has room already.
func (s *Indexer[T]) reserve(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.count == 0 && n > cap(s.entries) {
		s.resetLocked(n)
	}
}

// resetLocked empties the store, keeping its indexes, with room for
// capacity objects.
func (s *Indexer[T]) resetLocked(capacity int) {
	s.namespaces = map[string]*namespace{}
	s.byID = nil
	s.nextNS = 0
	s.freeNS = nil
	s.entries = make([]entry[T], 0, capacity)
	s.free = nil
	s.count = 0
	s.keys = newKeyMap[T](capacity)
	s.refs.reset(capacity)
	for _, ix := range s.indexes {
		ix.reset()
	}
}

func (s *Indexer[T]) allocate(e entry[T]) slot {
	s.count++
	if n := len(s.free); n > 0 {
		id := s.free[n-1]
		s.free = s.free[:n-1]
		s.entries[id] = e
		return id
	}
	s.entries = append(s.entries, e)
	s.refs.grow(len(s.entries))
	return slot(len(s.entries) - 1)
}

// Delete removes the object stored under key, if any. Deleting a missing key is
// a no-op (docs/clientgo-semantics.md#store-writes).
func (s *Indexer[T]) Delete(key ObjectName) { s.Remove(key) }

// Remove deletes the object stored under key and returns it, if any, in one
// critical section.
func (s *Indexer[T]) Remove(key ObjectName) (old T, existed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, where := s.keys.find(s.byID, key)
	if where == absent {
		return old, false
	}
	id := k.id
	var zero T
	e := s.entries[id]
	old = e.obj
	for _, ix := range s.indexes {
		ix.update(member{e.ns, id}, zero)
	}
	s.keys.remove(where, key)
	s.keys.shrink()
	ns := s.byID[e.ns]
	s.removeSlotLocked(ns, e.pos)
	s.entries[id] = entry[T]{}
	s.free = append(s.free, id)
	s.count--
	if len(ns.slots) == 0 {
		s.releaseNamespaceLocked(ns)
	}
	return old, true
}

// removeSlotLocked takes the slot at position pos out of the namespace's list,
// moving the last one there (and telling its entry), and gives back most of
// the list's capacity when it is mostly unused.
func (s *Indexer[T]) removeSlotLocked(ns *namespace, pos uint32) {
	last := len(ns.slots) - 1
	moved := ns.slots[last]
	ns.slots[pos] = moved
	s.entries[moved].pos = pos
	ns.slots = ns.slots[:last]
	if c := cap(ns.slots); c > minSlotsCap && 4*len(ns.slots) <= c {
		ns.slots = append(make([]slot, 0, c/2), ns.slots...)
	}
}

// Replace replaces the whole content of the store with objs and rebuilds
// every index. When objs holds two objects with one key, the later wins.
func (s *Indexer[T]) Replace(objs []T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resetLocked(len(objs))
	for _, obj := range objs {
		s.upsertLocked(obj)
	}
}

// scopeLocked translates a namespace name to a lookup scope; the empty name
// means every namespace. ok is false when the namespace holds no object.
func (s *Indexer[T]) scopeLocked(namespaceName string) (sc scope, ok bool) {
	if namespaceName == "" {
		return everywhere, true
	}
	ns := s.namespaces[namespaceName]
	if ns == nil {
		return scope{}, false
	}
	return scope{ns: ns.id}, true
}

// Get returns the object stored under key. It allocates nothing.
func (s *Indexer[T]) Get(key ObjectName) (T, bool) {
	s.mu.RLock()
	k, where := s.keys.find(s.byID, key) // cannot panic: no deferred unlock needed
	s.mu.RUnlock()
	return k.obj, where != absent
}

// GetByKey returns the object stored under a client-go string key
// ("namespace/name" or "name"); a key of any other form that names no stored
// object is an error. It allocates nothing unless the key is malformed:
// namespace and name are looked up as parts of key.
func (s *Indexer[T]) GetByKey(key string) (T, bool, error) {
	name := ObjectName{Name: key}
	i := strings.IndexByte(key, '/')
	if i == 0 {
		var zero T
		return zero, false, fmt.Errorf("malformed key %q: empty namespace", key)
	} else if i > 0 {
		name = ObjectName{Namespace: key[:i], Name: key[i+1:]}
	}
	s.mu.RLock()
	k, where := s.keys.find(s.byID, name) // as in Get
	s.mu.RUnlock()
	if where == absent && i > 0 && strings.IndexByte(name.Name, '/') >= 0 {
		// Checked on a miss only: a hit is the key of a stored object.
		_, err := cache.ParseObjectName(key)
		return k.obj, false, err
	}
	return k.obj, where != absent, nil
}

// Len returns the number of stored objects.
func (s *Indexer[T]) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.count
}

// List returns every stored object, in no particular order.
func (s *Indexer[T]) List() []T {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]T, 0, s.count)
	for obj := range s.liveLocked() {
		out = append(out, obj)
	}
	return out
}

// ListKeys returns the key of every stored object, in no particular order.
func (s *Indexer[T]) ListKeys() []ObjectName {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]ObjectName, 0, s.count)
	for obj := range s.liveLocked() {
		out = append(out, KeyOf(obj))
	}
	return out
}

// liveLocked yields every stored object.
func (s *Indexer[T]) liveLocked() iter.Seq[T] {
	return func(yield func(T) bool) {
		var zero T
		for _, e := range s.entries {
			if e.obj != zero && !yield(e.obj) {
				return
			}
		}
	}
}

// ListNamespace returns the objects of one namespace, in no particular
// order, at a cost proportional to their number.
func (s *Indexer[T]) ListNamespace(namespace string) []T {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ns := s.namespaces[namespace]
	if ns == nil {
		return nil
	}
	out := make([]T, 0, len(ns.slots))
	for _, id := range ns.slots {
		out = append(out, s.entries[id].obj)
	}
	return out
}

// Select returns the objects of namespace (all namespaces when it is empty)
// whose labels match selector, using a label index to narrow the candidates
// where the selector allows it. An empty selector selects everything and
// labels.Nothing() selects nothing, without looking at labels
// (docs/clientgo-semantics.md#listers). When the selector requires an exact
// value (=, == or a one-value in) of a label that has a label index, only the
// objects indexed under that value are matched against the selector (and not at
// all when that is the selector's only requirement); when several such labels
// exist, the one with the fewest candidates is used.
func (s *Indexer[T]) Select(namespace string, selector labels.Selector) []T {
	if labels.MatchesNothing(selector) {
		return nil
	}
	if selector.Empty() {
		if namespace == "" {
			return s.List()
		}
		return s.ListNamespace(namespace)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	sc, ok := s.scopeLocked(namespace)
	if !ok {
		return nil
	}
	reqs, _ := selector.Requirements()
	narrow, value, candidates := s.narrowestLocked(sc, reqs)
	var out []T
	switch {
	case narrow != nil && len(reqs) == 1:
		out = make([]T, 0, candidates)
		narrow.visit(sc, value, func(id slot) { out = append(out, s.entries[id].obj) })
	case narrow != nil:
		narrow.visit(sc, value, func(id slot) {
			if obj := s.entries[id].obj; selector.Matches(labels.Set(obj.GetLabels())) {
				out = append(out, obj)
			}
		})
	default:
		match := func(obj T) {
			if selector.Matches(labels.Set(obj.GetLabels())) {
				out = append(out, obj)
			}
		}
		if sc.all {
			for obj := range s.liveLocked() {
				match(obj)
			}
		} else {
			for _, id := range s.namespaces[namespace].slots {
				match(s.entries[id].obj)
			}
		}
	}
	return out
}

// narrowestLocked returns the label index and value that leave the fewest
// candidates for reqs in scope, and that number; nil when no requirement can
// use a label index.
func (s *Indexer[T]) narrowestLocked(sc scope, reqs labels.Requirements) (*index[T], string, int) {
	var best *index[T]
	var bestValue string
	bestCount := 0
	for _, r := range reqs {
		ix := s.labelIndexes[r.Key()]
		if ix == nil || !exactValue(r) {
			continue
		}
		v, _ := r.Values().PopAny()
		if n := ix.count(sc, v); best == nil || n < bestCount {
			best, bestValue, bestCount = ix, v, n
		}
	}
	return best, bestValue, bestCount
}

// exactValue reports whether r admits exactly one value of its label and
// requires the label to be present.
func exactValue(r labels.Requirement) bool {
	switch r.Operator() {
	case selection.Equals, selection.DoubleEquals:
		return true
	case selection.In:
		return r.Values().Len() == 1
	}
	return false
}

// AddIndexers adds indexes; existing objects are indexed at once. A name that
// is already in use is an error, and then no index is added. Adding indexes to
// a store that holds objects indexes them under the write lock
// (docs/clientgo-semantics.md#add-indexers-late).
func (s *Indexer[T]) AddIndexers(indexers Indexers[T]) error {
	return addIndexes(s, indexers, func(fn IndexFunc[T]) bool { return fn == nil },
		func(name string, fn IndexFunc[T]) *index[T] { return newIndex(name, fn, "") })
}

// addIndexes adds an index built by build for each function of fns, in the
// order of their names, under the write lock; existing objects are indexed
// at once. A name already in use or a nil function is an error, and then
// no index is added.
func addIndexes[T Object, F any](s *Indexer[T], fns map[string]F, isNil func(F) bool, build func(name string, fn F) *index[T]) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, fn := range fns {
		if _, ok := s.indexByName[name]; ok {
			return fmt.Errorf("index %q already exists", name)
		}
		if isNil(fn) {
			return fmt.Errorf("index %q has no index function", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(fns)) {
		s.addIndexLocked(build(name, fns[name]))
	}
	return nil
}

// AddLabelIndex adds an index, named name, of the value of the label
// labelKey (objects without that label are not indexed). Select uses it to
// narrow selectors that require an exact value of that label.
func (s *Indexer[T]) AddLabelIndex(name, labelKey string) error {
	if labelKey == "" {
		return fmt.Errorf("label index %q has an empty label key", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.indexByName[name]; ok {
		return fmt.Errorf("index %q already exists", name)
	}
	ix := newIndex[T](name, nil, labelKey)
	s.addIndexLocked(ix)
	if _, ok := s.labelIndexes[labelKey]; !ok {
		s.labelIndexes[labelKey] = ix
	}
	return nil
}

func (s *Indexer[T]) addIndexLocked(ix *index[T]) {
	var zero T
	ix.table, ix.col = &s.refs, s.refs.widen()
	s.refs.grow(len(s.entries))
	for id, e := range s.entries {
		if e.obj != zero {
			ix.update(member{e.ns, slot(id)}, e.obj)
		}
	}
	s.indexes = append(s.indexes, ix)
	s.indexByName[ix.name] = ix
}

// IndexNames returns the names of the indexes, sorted.
func (s *Indexer[T]) IndexNames() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Sorted(maps.Keys(s.indexByName))
}

func (s *Indexer[T]) indexLocked(name string) (*index[T], error) {
	ix := s.indexByName[name]
	if ix == nil {
		return nil, fmt.Errorf("index %q does not exist", name)
	}
	return ix, nil
}

// ByIndex returns the objects indexed under value, in no particular order.
func (s *Indexer[T]) ByIndex(indexName, value string) ([]T, error) {
	return s.ByIndexInNamespace(indexName, "", value)
}

// ByIndexInNamespace returns the objects of one namespace indexed under
// value, at a cost proportional to their number.
// An empty namespace means every
// namespace.
func (s *Indexer[T]) ByIndexInNamespace(indexName, namespace, value string) ([]T, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix, err := s.indexLocked(indexName)
	if err != nil {
		return nil, err
	}
	sc, ok := s.scopeLocked(namespace)
	if !ok {
		return nil, nil
	}
	return s.appendMatchesLocked(nil, ix, sc, value), nil
}

// appendMatchesLocked appends the objects indexed under value in scope to dst,
// growing it at most once.
func (s *Indexer[T]) appendMatchesLocked(dst []T, ix *index[T], sc scope, value string) []T {
	n := ix.count(sc, value)
	if n == 0 {
		return dst
	}
	dst = slices.Grow(dst, n)
	ix.visit(sc, value, func(id slot) { dst = append(dst, s.entries[id].obj) })
	return dst
}

// IndexedObjects visits the objects indexed under value (in namespace
// when it is not empty) without allocating once warmed up. The objects
// are collected under the read lock and visited after it is released, so
// the loop body may use the store.
// An unknown index yields nothing.
func (s *Indexer[T]) IndexedObjects(indexName, namespace, value string) iter.Seq[T] {
	return func(yield func(T) bool) {
		buf := s.collect(indexName, namespace, value)
		if buf == nil {
			return
		}
		defer s.release(buf)
		for _, obj := range *buf {
			if !yield(obj) {
				return
			}
		}
	}
}

// collect copies the matches of a lookup into a pooled buffer.
func (s *Indexer[T]) collect(indexName, namespace, value string) *[]T {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix := s.indexByName[indexName]
	if ix == nil {
		return nil
	}
	sc, ok := s.scopeLocked(namespace)
	if !ok || ix.count(sc, value) == 0 {
		return nil
	}
	buf, _ := s.buffers.Get().(*[]T)
	if buf == nil {
		buf = new([]T)
	}
	*buf = s.appendMatchesLocked((*buf)[:0], ix, sc, value)
	return buf
}

// release clears a buffer (so that it pins no object) and pools it.
func (s *Indexer[T]) release(buf *[]T) {
	clear(*buf)
	*buf = (*buf)[:0]
	s.buffers.Put(buf)
}

// Index returns the objects that share at least one value of the index
// with obj, each once.
func (s *Indexer[T]) Index(indexName string, obj T) ([]T, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix, err := s.indexLocked(indexName)
	if err != nil {
		return nil, err
	}
	var buf [1]string
	values := ix.values(obj, buf[:0])
	if len(values) == 1 {
		return s.appendMatchesLocked(nil, ix, everywhere, values[0]), nil
	}
	seen := map[slot]struct{}{}
	var out []T
	for _, v := range values {
		ix.visit(everywhere, v, func(id slot) {
			if _, ok := seen[id]; !ok {
				seen[id] = struct{}{}
				out = append(out, s.entries[id].obj)
			}
		})
	}
	return out, nil
}

// IndexKeys returns the keys of the objects indexed under value, sorted.
func (s *Indexer[T]) IndexKeys(indexName, value string) ([]ObjectName, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix, err := s.indexLocked(indexName)
	if err != nil {
		return nil, err
	}
	keys := make([]ObjectName, 0, ix.count(everywhere, value))
	ix.visit(everywhere, value, func(id slot) { keys = append(keys, KeyOf(s.entries[id].obj)) })
	slices.SortFunc(keys, compareNames)
	return keys, nil
}

func compareNames(a, b ObjectName) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

// ListIndexFuncValues returns every value under which at least one object
// is indexed, sorted.
// An unknown index has no values.
func (s *Indexer[T]) ListIndexFuncValues(indexName string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix := s.indexByName[indexName]
	if ix == nil {
		return nil
	}
	return ix.sortedValues()
}

// noteResourceVersion records rv as the store's resourceVersion (a delete, a
// bookmark, the resourceVersion of a list).
func (s *Indexer[T]) noteResourceVersion(rv string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv = rv
}

// resourceVersion returns the store's resourceVersion: that of the last object
// stored or the last one noted.
func (s *Indexer[T]) resourceVersion() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rv
}

// hasIndex reports whether the store has an index called name.
func (s *Indexer[T]) hasIndex(name string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.indexByName[name] != nil
}

// indexFuncs returns the function of every index, label indexes included.
func (s *Indexer[T]) indexFuncs() map[string]IndexFunc[T] {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[string]IndexFunc[T], len(s.indexes))
	for _, ix := range s.indexes {
		out[ix.name] = func(obj T) []string { return ix.values(obj, nil) }
	}
	return out
}

// namespaceNames returns the names of the namespaces that hold objects,
// sorted.
func (s *Indexer[T]) namespaceNames() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Sorted(maps.Keys(s.namespaces))
}

package store

import "strings"

// keyed is what the key map holds for an object: the object itself, so that
// a lookup by key reads nothing else, its slot and its namespace's id.
type keyed[T Object] struct {
	obj T
	id  slot
	ns  nsID
}

// vacantNS is the namespace id of a byName entry whose object was removed
// while objects of other namespaces with the same name are still stored (in
// others). It holds no object.
const vacantNS = ^nsID(0)

// keyPlace says where find found a key.
type keyPlace uint8

const (
	absent   keyPlace = iota // not stored
	inByName                 // in keyMap.byName
	inOthers                 // in keyMap.others
)

// keyMap finds stored objects by key. Most names are unique across
// namespaces (generated suffixes make them so), so objects are kept by name
// alone: a lookup hashes and compares one string, the name, and then checks
// the namespace by its id, against one string per namespace that stays in
// the CPU cache. An object whose name another namespace's object already
// holds (a ConfigMap or ServiceAccount that every namespace has) goes to a
// second map, by namespace and name. The keys are the stored object's name
// string and the namespace's string: the map keeps no string of an object
// it no longer stores, but for the name of a vacant entry, which it copies.
type keyMap[T Object] struct {
	// byName holds, for every name, one stored object with that name, or
	// a vacant entry while others holds the name.
	byName map[string]keyed[T]
	// others holds every stored object that is not in byName, by
	// namespace and name. nil while empty.
	others map[ObjectName]keyed[T]
	// shared counts the entries of others per name. nil while empty.
	shared map[string]int
	n      int // stored objects
	peak   int // the most objects stored at once since the maps were made
}

// newKeyMap returns an empty key map with room for capacity objects.
func newKeyMap[T Object](capacity int) keyMap[T] {
	return keyMap[T]{byName: make(map[string]keyed[T], capacity), peak: capacity}
}

// find returns the entry stored under key, and where it is. byID is the
// store's namespaces by id.
func (m *keyMap[T]) find(byID []*namespace, key ObjectName) (keyed[T], keyPlace) {
	k, ok := m.byName[key.Name]
	if !ok {
		return keyed[T]{}, absent
	}
	if k.ns != vacantNS && byID[k.ns].name == key.Namespace {
		return k, inByName
	}
	if k, ok = m.others[key]; ok {
		return k, inOthers
	}
	return keyed[T]{}, absent
}

// insert stores k, the object called name in namespace ns, which find
// reported absent.
func (m *keyMap[T]) insert(ns *namespace, name string, k keyed[T]) {
	m.n++
	m.peak = max(m.peak, m.n)
	if cur, taken := m.byName[name]; !taken || cur.ns == vacantNS {
		m.byName[name] = k
		return
	}
	if m.others == nil {
		m.others, m.shared = map[ObjectName]keyed[T]{}, map[string]int{}
	}
	m.others[ObjectName{Namespace: ns.name, Name: name}] = k
	m.shared[name]++
}

// replace stores k, the new object called name in namespace ns, in place of
// the entry find found at p. The key takes the new object's name string.
func (m *keyMap[T]) replace(p keyPlace, ns *namespace, name string, k keyed[T]) {
	if p == inByName {
		m.byName[name] = k
	} else {
		m.others[ObjectName{Namespace: ns.name, Name: name}] = k
	}
}

// remove deletes the entry find found at p for key.
func (m *keyMap[T]) remove(p keyPlace, key ObjectName) {
	m.n--
	if p == inOthers {
		delete(m.others, key)
		if m.shared[key.Name]--; m.shared[key.Name] > 0 {
			return
		}
		delete(m.shared, key.Name)
		if m.byName[key.Name].ns == vacantNS {
			delete(m.byName, key.Name)
		}
		return
	}
	if m.shared[key.Name] > 0 {
		// The entry stays, vacant, for the other namespaces' objects;
		// its key becomes a copy, so as to keep nothing of the removed
		// object.
		m.byName[strings.Clone(key.Name)] = keyed[T]{ns: vacantNS}
		return
	}
	delete(m.byName, key.Name)
}

// minKeysPeak is the size up to which the key map is never rebuilt smaller.
const minKeysPeak = 256

// shrink rebuilds the maps when they hold less than an eighth of the most
// objects they held: Go maps never shrink, and the store's memory is to
// follow the objects it holds. Each rebuild copies the remaining entries,
// once per seven eighths of the peak removed.
func (m *keyMap[T]) shrink() {
	if m.peak <= minKeysPeak || 8*m.n >= m.peak {
		return
	}
	m.byName = resized(m.byName)
	if len(m.others) > 0 {
		m.others, m.shared = resized(m.others), resized(m.shared)
	} else {
		m.others, m.shared = nil, nil
	}
	m.peak = m.n
}

// resized returns a copy of m in a map made for its size.
func resized[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

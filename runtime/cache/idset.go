package cache

import "slices"

// slot identifies an object inside a Indexer. Slots are reused after
// the object they named is deleted; index sets hold slots, never objects, so an
// update that does not change an object's index values leaves the indexes
// untouched.
type slot uint32

// smallSetMax is the size up to which an idSet keeps its members in a slice
// (linear search, no map); larger sets switch to a map.
const smallSetMax = 32

// idSet is a set of slots. The zero value is an empty set. Small sets are a
// slice, which costs 4 bytes a member and no map header.
type idSet struct {
	list []slot
	m    map[slot]struct{}
}

func (s *idSet) len() int {
	if s.m != nil {
		return len(s.m)
	}
	return len(s.list)
}

// add inserts id and reports whether it was not already a member.
func (s *idSet) add(id slot) bool {
	if s.m != nil {
		if _, ok := s.m[id]; ok {
			return false
		}
		s.m[id] = struct{}{}
		return true
	}
	if slices.Contains(s.list, id) {
		return false
	}
	if len(s.list) < smallSetMax {
		s.list = append(s.list, id)
		return true
	}
	s.m = make(map[slot]struct{}, 2*smallSetMax)
	for _, v := range s.list {
		s.m[v] = struct{}{}
	}
	s.list = nil
	s.m[id] = struct{}{}
	return true
}

// remove deletes id and reports whether it was a member.
func (s *idSet) remove(id slot) bool {
	if s.m != nil {
		if _, ok := s.m[id]; !ok {
			return false
		}
		delete(s.m, id)
		return true
	}
	i := slices.Index(s.list, id)
	if i < 0 {
		return false
	}
	last := len(s.list) - 1
	s.list[i] = s.list[last]
	s.list = s.list[:last]
	return true
}

func (s *idSet) has(id slot) bool {
	if s.m != nil {
		_, ok := s.m[id]
		return ok
	}
	return slices.Contains(s.list, id)
}

// visit calls fn for every member.
func (s *idSet) visit(fn func(slot)) {
	for _, id := range s.list {
		fn(id)
	}
	for id := range s.m {
		fn(id)
	}
}

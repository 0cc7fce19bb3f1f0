package store

import "slices"

// slot identifies an object inside a Indexer. Slots are reused after
// the object they named is deleted; index sets hold slots, never objects, so an
// update that does not change an object's index values leaves the indexes
// untouched.
type slot uint32

// smallSetMax is the size up to which an idSet keeps its members in a slice
// (linear search, no map); larger sets switch to a map. A set in a map
// switches back to a slice when it shrinks to smallSetMin members (half of
// smallSetMax, so that a set hovering around either size does not switch
// back and forth): Go maps never shrink, so a set that once was large would
// otherwise keep its largest table.
const (
	smallSetMax = 32
	smallSetMin = smallSetMax / 2
)

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
		if len(s.m) <= smallSetMin {
			s.list = make([]slot, 0, smallSetMax)
			for v := range s.m {
				s.list = append(s.list, v)
			}
			s.m = nil
		}
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

// visit calls fn for every member.
func (s *idSet) visit(fn func(slot)) {
	for _, id := range s.list {
		fn(id)
	}
	for id := range s.m {
		fn(id)
	}
}

package shard

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"math/bits"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	apisharding "k8s.io/apimachinery/pkg/sharding"
)

// Key is the object field whose hash places an object in a slot, named as
// the server's shard selectors name it.
type Key string

const (
	// ByUID spreads a resource's objects evenly, whatever their namespaces.
	ByUID Key = "object.metadata.uid"
	// ByNamespace keeps the objects of one namespace together, so that an
	// owner and its dependents (which share a namespace) go to one replica.
	ByNamespace Key = "object.metadata.namespace"
)

// Valid reports whether the server knows k.
func (k Key) Valid() bool { return k == ByUID || k == ByNamespace }

// DefaultSlots is the number of slots the hash space is split into when
// Options leave it zero: 64 slots give every member of a ring of up to 64 an
// equal share within one slot, and a member's selector at most 32 ranges.
const DefaultSlots = 64

// MaxSlots is the largest number of slots: a selector of a member that owns
// every other slot has MaxSlots/2 ranges, and it travels in every request.
const MaxSlots = 1024

// checkSlots returns an error unless n is a power of two from 1 to MaxSlots,
// so that slot boundaries are exact in the 64-bit hash space.
func checkSlots(n int) error {
	if n < 1 || n > MaxSlots || n&(n-1) != 0 {
		return fmt.Errorf("shard: %d slots: want a power of two from 1 to %d", n, MaxSlots)
	}
	return nil
}

// ErrNoSlots is Selector's error for no slot: there is nothing to list.
var ErrNoSlots = errors.New("shard: no slot")

// Hash is the 64-bit FNV-1a hash of value: the hash the server's shard
// selectors compare against their ranges.
func Hash(value string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(value))
	return h.Sum64()
}

// SlotOf returns the slot, of slots (a power of two), that hash falls in:
// slot i holds the hashes from i·2⁶⁴/slots up to (i+1)·2⁶⁴/slots.
func SlotOf(hash uint64, slots int) int {
	if slots <= 1 {
		return 0
	}
	return int(hash >> (64 - bits.TrailingZeros(uint(slots))))
}

// ValueOf returns the value of obj's field that key hashes.
func ValueOf(obj runtime.Object, key Key) (string, error) {
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return "", err
	}
	switch key {
	case ByUID:
		return string(accessor.GetUID()), nil
	case ByNamespace:
		return accessor.GetNamespace(), nil
	}
	return "", errUnknownKey(key)
}

func errUnknownKey(key Key) error { return fmt.Errorf("shard: unknown key %q", key) }

// Assignment says which member owns each slot. It is a pure function of the
// members and the number of slots (Assign), so that every member computes
// the same one from the same membership.
type Assignment struct {
	// Owners[i] is the member that owns slot i.
	Owners []string
}

// Assign splits slots (a power of two) among members, which must be distinct
// and not empty: each member gets slots/len(members) slots or one more.
// Every slot goes, in order of a score of (member, slot), to the member
// with the highest score that still has room (rendezvous hashing with bounded
// loads), so a member that joins or leaves moves few slots beyond its own
// share: about 1/len(members) of them (the tests measure how many).
func Assign(members []string, slots int) (Assignment, error) {
	if err := checkSlots(slots); err != nil {
		return Assignment{}, err
	}
	if len(members) == 0 {
		return Assignment{}, fmt.Errorf("shard: no members")
	}
	ms := slices.Clone(members)
	slices.Sort(ms)
	for i, m := range ms {
		if m == "" {
			return Assignment{}, fmt.Errorf("shard: a member has no name")
		}
		if i > 0 && ms[i-1] == m {
			return Assignment{}, fmt.Errorf("shard: member %q listed twice", m)
		}
	}
	// Which members get one slot more than the others is decided by a score
	// of the member alone, so that it changes little as members come and go.
	seeds := make(map[string]uint64, len(ms))
	for _, m := range ms {
		seeds[m] = Hash(m)
	}
	slices.SortFunc(ms, func(a, b string) int {
		return cmp.Or(cmp.Compare(score(seeds[b], -1), score(seeds[a], -1)), cmp.Compare(a, b))
	})
	room := make(map[string]int, len(ms))
	for i, m := range ms {
		room[m] = slots / len(ms)
		if i < slots%len(ms) {
			room[m]++
		}
	}
	type bid struct {
		score  uint64
		member string
		slot   int
	}
	bids := make([]bid, 0, len(ms)*slots)
	for _, m := range ms {
		for s := range slots {
			bids = append(bids, bid{score(seeds[m], s), m, s})
		}
	}
	slices.SortFunc(bids, func(a, b bid) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.member, b.member), cmp.Compare(a.slot, b.slot))
	})
	owners := make([]string, slots)
	for _, b := range bids {
		if owners[b.slot] == "" && room[b.member] > 0 {
			owners[b.slot] = b.member
			room[b.member]--
		}
	}
	return Assignment{Owners: owners}, nil
}

// score mixes a member's seed with a slot number (splitmix64's finalizer):
// the rendezvous score of the member for the slot; slot -1 scores the member
// alone.
func score(seed uint64, slot int) uint64 {
	return mix(seed ^ mix(uint64(slot+1)))
}

func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// SlotsOf returns the slots member owns, in order.
func (a Assignment) SlotsOf(member string) []int {
	var out []int
	for s, m := range a.Owners {
		if m == member {
			out = append(out, s)
		}
	}
	return out
}

// Moved returns the number of slots whose owner differs between a and b,
// which must have the same number of slots.
func (a Assignment) Moved(b Assignment) int {
	n := 0
	for s := range a.Owners {
		if a.Owners[s] != b.Owners[s] {
			n++
		}
	}
	return n
}

// Range is a half-open range [Start, End) of the hash space; End is 2⁶⁴
// when EndOfSpace is set (and End is then zero).
type Range struct {
	Start, End uint64
	EndOfSpace bool
}

// Ranges returns the hash ranges the given slots (of slots in all) cover,
// adjacent slots merged into one range, in order.
func Ranges(owned []int, slots int) []Range {
	sorted := slices.Clone(owned)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	shift := uint(64 - bits.TrailingZeros(uint(slots)))
	var out []Range
	for i := 0; i < len(sorted); {
		j := i
		for j+1 < len(sorted) && sorted[j+1] == sorted[j]+1 {
			j++
		}
		r := Range{Start: uint64(sorted[i]) << shift}
		if sorted[j] == slots-1 {
			r.EndOfSpace = true
		} else {
			r.End = uint64(sorted[j]+1) << shift
		}
		out = append(out, r)
		i = j + 1
	}
	return out
}

// Selector returns the server's shard selector for the given slots (of
// slots in all) on key: their ranges OR-ed, as ListOptions.ShardSelector
// takes it (Selector.String) and as the server matches objects
// (Selector.Matches). Every slot gives apimachinery's Everything, which
// matches all and is sent as no selector at all; no slot is ErrNoSlots, as
// the server has no selector that matches nothing.
func Selector(key Key, owned []int, slots int) (apisharding.Selector, error) {
	if err := checkSlots(slots); err != nil {
		return nil, err
	}
	if !key.Valid() {
		return nil, errUnknownKey(key)
	}
	ranges := Ranges(owned, slots)
	if len(ranges) == 0 {
		return nil, ErrNoSlots
	}
	if len(ranges) == 1 && ranges[0].Start == 0 && ranges[0].EndOfSpace {
		return apisharding.Everything(), nil
	}
	reqs := make([]apisharding.ShardRangeRequirement, len(ranges))
	for i, r := range ranges {
		reqs[i] = apisharding.ShardRangeRequirement{Key: string(key), Start: hex(r.Start, false), End: hex(r.End, r.EndOfSpace)}
	}
	return apisharding.NewSelector(reqs...), nil
}

// hex renders a range bound as the server writes and compares it: 0x and
// 16 lowercase hex digits, or 0x10000000000000000 for 2⁶⁴.
func hex(v uint64, endOfSpace bool) string {
	if endOfSpace {
		return "0x10000000000000000"
	}
	return fmt.Sprintf("0x%016x", v)
}

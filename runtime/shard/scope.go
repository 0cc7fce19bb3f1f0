package shard

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	apisharding "k8s.io/apimachinery/pkg/sharding"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// Scope returns the share of the ring's slots this member works on (its
// active slots) as informers take it (cache.ShardScope), on key: give it to
// a factory (informers.WithShardScope) or to an informer
// (SetShardScope). It follows the member's State: when the active slots
// change, informers list again.
func (r *Ring) Scope(key Key) cache.ShardScope {
	return &ringScope{ring: r, key: key}
}

type ringScope struct {
	ring *Ring
	key  Key

	mu         sync.Mutex
	generation int64
	selector   apisharding.Selector
}

func (s *ringScope) Changed() <-chan struct{} { return s.ring.Changed() }

func (s *ringScope) Selection() cache.ShardSelection {
	st := s.ring.State()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.selector == nil || s.generation != st.Generation {
		s.selector = selectorOrNone(s.key, st.Active, st.Slots)
		s.generation = st.Generation
	}
	return cache.ShardSelection{Selector: s.selector, Generation: s.generation}
}

// Static returns the share of the given slots (of slots in all) on key, for
// replicas whose slots are fixed (a StatefulSet's ordinal, say) rather than
// shared through a Ring. It never changes.
func Static(key Key, owned []int, slots int) (cache.ShardScope, error) {
	if err := checkSlots(slots); err != nil {
		return nil, err
	}
	if !key.Valid() {
		return nil, errUnknownKey(key)
	}
	return staticScope{cache.ShardSelection{Selector: selectorOrNone(key, owned, slots), Generation: 1}}, nil
}

type staticScope struct{ sel cache.ShardSelection }

func (s staticScope) Selection() cache.ShardSelection { return s.sel }
func (staticScope) Changed() <-chan struct{}          { return nil }

// selectorOrNone is Selector, or for no slot a selector that matches
// nothing: the server has none, so it is sent as the smallest range there
// is (the one hash 0) and matches nothing on the client.
func selectorOrNone(key Key, owned []int, slots int) apisharding.Selector {
	sel, err := Selector(key, owned, slots)
	if err == nil {
		return sel
	}
	return none{apisharding.NewSelector(apisharding.ShardRangeRequirement{Key: string(key), Start: hex(0, false), End: hex(1, false)})}
}

// none is the selector of no slot.
type none struct{ apisharding.Selector }

func (none) Matches(runtime.Object) (bool, error) { return false, nil }
func (n none) DeepCopySelector() apisharding.Selector {
	return none{n.Selector.DeepCopySelector()}
}

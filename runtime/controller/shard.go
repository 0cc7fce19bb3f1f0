package controller

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	rcache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

// shardGate lets a controller reconcile only the keys of its replica's
// active slots (Options.Shard), and lets the ring hand a slot over only once
// no reconcile of a key in it is running here.
//
// A worker counts itself in a key's slot before it asks whether the slot is
// active, under mu; a release (the ring calls release after the slot has
// left the active set) cancels the reconciles counted in the lost slots and
// waits, under mu's condition, until their count is zero. So a worker either
// sees the slot inactive and lets the key go, or is counted before the
// release waits and is waited for.
type shardGate struct {
	ring     ShardMember
	key      shard.Key
	indexer  cache.Indexer // the primary informer's, to find a key's object
	mu       sync.Mutex
	idle     *sync.Cond
	inflight map[int]map[*reconcileSlot]struct{}
	// uids remembers the uid of every primary object an event named, so
	// that a deleted object's slot is known by uid (ByUID only).
	uidsMu sync.Mutex
	uids   map[rcache.ObjectName]types.UID
}

// reconcileSlot is one running reconcile, in the slot of its key.
type reconcileSlot struct {
	slot   int
	cancel context.CancelFunc
}

func newShardGate(ring ShardMember, key shard.Key, indexer cache.Indexer) *shardGate {
	g := &shardGate{ring: ring, key: key, indexer: indexer, inflight: map[int]map[*reconcileSlot]struct{}{}, uids: map[rcache.ObjectName]types.UID{}}
	g.idle = sync.NewCond(&g.mu)
	ring.OnRelease(g.release)
	return g
}

// seen records obj's uid for its key: the primary source's handler calls it
// for every event.
func (g *shardGate) seen(obj metav1.Object) {
	if g.key != shard.ByUID {
		return
	}
	key := rcache.ObjectName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	g.uidsMu.Lock()
	g.uids[key] = obj.GetUID()
	g.uidsMu.Unlock()
}

// slotOf returns the slot of key: from its object in the primary informer's
// store, or, for an object no longer there, from its namespace (ByNamespace)
// or the uid the last event on it carried (ByUID). ok is false when the slot
// cannot be told (a key no event named).
func (g *shardGate) slotOf(key rcache.ObjectName) (slot int, ok bool) {
	slots := g.ring.State().Slots
	if obj, exists, err := g.indexer.GetByKey(key.String()); err == nil && exists {
		if o, isObject := obj.(runtime.Object); isObject {
			if value, err := shard.ValueOf(o, g.key); err == nil {
				return shard.SlotOf(shard.Hash(value), slots), true
			}
		}
	}
	switch g.key {
	case shard.ByNamespace:
		return shard.SlotOf(shard.Hash(key.Namespace), slots), true
	case shard.ByUID:
		g.uidsMu.Lock()
		uid, known := g.uids[key]
		g.uidsMu.Unlock()
		if known {
			return shard.SlotOf(shard.Hash(string(uid)), slots), true
		}
	}
	return 0, false
}

// enter counts a reconcile of key when key's slot is active, and returns it
// with a context that ends when the slot is released; nil when the key is
// not this replica's.
func (g *shardGate) enter(ctx context.Context, key rcache.ObjectName) (*reconcileSlot, context.Context) {
	slot, ok := g.slotOf(key)
	if !ok {
		return nil, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.ring.State().Owns(slot) {
		return nil, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &reconcileSlot{slot: slot, cancel: cancel}
	if g.inflight[slot] == nil {
		g.inflight[slot] = map[*reconcileSlot]struct{}{}
	}
	g.inflight[slot][r] = struct{}{}
	return r, ctx
}

// leave ends the reconcile r of key; done says that key is owed nothing
// more, so that the uid of a key whose object is gone can be forgotten.
func (g *shardGate) leave(r *reconcileSlot, key rcache.ObjectName, done bool) {
	r.cancel()
	g.mu.Lock()
	delete(g.inflight[r.slot], r)
	if len(g.inflight[r.slot]) == 0 {
		delete(g.inflight, r.slot)
		g.idle.Broadcast()
	}
	g.mu.Unlock()
	if done && g.key == shard.ByUID {
		if _, exists, err := g.indexer.GetByKey(key.String()); err == nil && !exists {
			g.uidsMu.Lock()
			delete(g.uids, key)
			g.uidsMu.Unlock()
		}
	}
}

// release cancels the reconciles running in the lost slots and returns once
// they have all returned.
func (g *shardGate) release(_ context.Context, lost []int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, slot := range lost {
		for r := range g.inflight[slot] {
			r.cancel()
		}
	}
	for g.running(lost) {
		g.idle.Wait()
	}
}

// running reports whether a reconcile runs in one of slots. g.mu is held.
func (g *shardGate) running(slots []int) bool {
	for _, slot := range slots {
		if len(g.inflight[slot]) > 0 {
			return true
		}
	}
	return false
}

package controller

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

// fakeMember is a ShardMember whose active slots the test sets.
type fakeMember struct {
	mu        sync.Mutex
	state     shard.State
	releasers []func(context.Context, []int)
}

func newFakeMember(active ...int) *fakeMember {
	slices.Sort(active)
	return &fakeMember{state: shard.State{Slots: shard.DefaultSlots, Active: active, Generation: 1}}
}

func (m *fakeMember) State() shard.State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

func (m *fakeMember) OnRelease(fn func(context.Context, []int)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.releasers = append(m.releasers, fn)
}

// release takes lost out of the active slots, then calls the releasers, as
// a ring does.
func (m *fakeMember) release(lost ...int) {
	m.mu.Lock()
	m.state.Active = slices.DeleteFunc(slices.Clone(m.state.Active), func(s int) bool { return slices.Contains(lost, s) })
	m.state.Generation++
	releasers := slices.Clone(m.releasers)
	m.mu.Unlock()
	for _, fn := range releasers {
		fn(context.Background(), lost)
	}
}

// slotOfNamespace is the slot of a namespace.
func slotOfNamespace(ns string) int { return shard.SlotOf(shard.Hash(ns), shard.DefaultSlots) }

// twoNamespaces returns two namespace names in different slots.
func twoNamespaces(t *testing.T) (mine, theirs string) {
	for i := range 100 {
		mine, theirs = fmt.Sprintf("mine-%d", i), fmt.Sprintf("theirs-%d-x", i)
		if slotOfNamespace(mine) != slotOfNamespace(theirs) {
			return mine, theirs
		}
	}
	t.Fatal("no two namespaces in different slots")
	return "", ""
}

// A sharded controller reconciles only the keys in its member's active
// slots; the others' keys are let go and counted.
func TestShardedControllerReconcilesOnlyItsShare(t *testing.T) {
	mine, theirs := twoNamespaces(t)
	env := newTestEnv(t, configMap(mine, "a", nil, nil), configMap(mine, "b", nil, nil), configMap(theirs, "c", nil, nil))
	rec := newRecorder(nil)
	c, err := New(env.primary(), rec, Options{Name: "sharded", SkipNameValidation: true, Shard: newFakeMember(slotOfNamespace(mine)), ShardKey: shard.ByNamespace})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	rec.waitFor(t, key(mine, "a"), 1)
	rec.waitFor(t, key(mine, "b"), 1)
	testwait.Until(t, 10*time.Second, "the other share's key to be let go", func() bool {
		return testutil.ToFloat64(c.metrics.skipped) == 1
	})
	if got := rec.keys(); slices.Contains(got, key(theirs, "c")) {
		t.Errorf("reconciled %v; %s is another replica's", got, theirs)
	}
}

// Releasing a slot cancels the reconciles running in it and returns only
// once they have returned; later events on its keys are let go.
func TestShardReleaseWaitsForReconcilesInTheLostSlots(t *testing.T) {
	mine, _ := twoNamespaces(t)
	env := newTestEnv(t, configMap(mine, "slow", nil, nil))
	started := make(chan struct{})
	var reconcileErr error
	rec := newRecorder(func(ctx context.Context, _ cache.ObjectName, attempt int) (Result, error) {
		if attempt == 1 {
			close(started)
			<-ctx.Done()
			reconcileErr = ctx.Err()
			time.Sleep(50 * time.Millisecond) // the release must wait for this
		}
		return Result{}, nil
	})
	member := newFakeMember(slotOfNamespace(mine))
	c, err := New(env.primary(), rec, Options{Name: "release", SkipNameValidation: true, Shard: member, ShardKey: shard.ByNamespace})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the reconcile did not start")
	}
	member.release(slotOfNamespace(mine))
	rec.waitFor(t, key(mine, "slow"), 1) // returned before release did
	if !errors.Is(reconcileErr, context.Canceled) {
		t.Errorf("the reconcile in the released slot ended with %v, want its context cancelled", reconcileErr)
	}
	cm := configMap(mine, "slow", map[string]string{"changed": "yes"}, nil)
	if _, err := env.client.CoreV1().ConfigMaps(mine).Update(t.Context(), cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, 10*time.Second, "the update's key to be let go", func() bool {
		return testutil.ToFloat64(c.metrics.skipped) >= 1
	})
	if n := len(rec.times(key(mine, "slow"))); n != 1 {
		t.Errorf("a key of a released slot was reconciled %d times", n)
	}
}

// Sharded by uid, a deleted object's key is placed by the uid its last event
// carried: it is reconciled when that uid's slot is active, and let go
// otherwise.
func TestShardByUIDPlacesDeletedObjectsByTheirLastUID(t *testing.T) {
	for _, ours := range []bool{true, false} {
		t.Run(fmt.Sprint("ours=", ours), func(t *testing.T) {
			cm := configMap("ns", "doomed", nil, nil)
			cm.UID = types.UID("0c9a51e2-6b1f-4f0e-9d4a-7f3c2b1a9e8d")
			slot := shard.SlotOf(shard.Hash(string(cm.UID)), shard.DefaultSlots)
			var active []int
			for s := range shard.DefaultSlots {
				if s != slot || ours {
					active = append(active, s)
				}
			}
			env := newTestEnv(t, cm)
			rec := newRecorder(nil)
			c, err := New(env.primary(), rec, Options{Name: "uid", SkipNameValidation: true, Shard: newFakeMember(active...)})
			if err != nil {
				t.Fatal(err)
			}
			env.run(c)
			if ours {
				rec.waitFor(t, key("ns", "doomed"), 1)
			} else {
				testwait.Until(t, 10*time.Second, "the add's key to be let go", func() bool {
					return testutil.ToFloat64(c.metrics.skipped) == 1
				})
			}
			if err := env.client.CoreV1().ConfigMaps("ns").Delete(t.Context(), "doomed", metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			if ours {
				rec.waitFor(t, key("ns", "doomed"), 2)
				return
			}
			testwait.Until(t, 10*time.Second, "the delete's key to be let go", func() bool {
				return testutil.ToFloat64(c.metrics.skipped) == 2
			})
			if n := len(rec.times(key("ns", "doomed"))); n != 0 {
				t.Errorf("another share's object was reconciled %d times", n)
			}
		})
	}
}

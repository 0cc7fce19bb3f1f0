package shard_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

const (
	// watchTimeout bounds the wait for the expected events.
	watchTimeout = 30 * time.Second
	// watchGrace is how long a watch that delivered every expected event
	// is watched further for events it must not deliver. Events come in
	// resourceVersion order, so an object outside the selection created
	// before the last selected one would already have come: the grace
	// period covers those created after it.
	watchGrace = 2 * time.Second
)

// shardWatch is a watch of the ConfigMaps of all namespaces with a
// member's selector, and what it delivered.
type shardWatch struct {
	name  string
	key   shard.Key
	owned []int

	mu      sync.Mutex
	added   map[string]types.UID // ADDED objects of the test's namespaces
	wrong   []string             // events the watch must not deliver
	stopped bool                 // the result channel closed
}

// TestWatchDeliversOnlyTheSelectedObjects opens, from a LIST's
// resourceVersion, a watch of the ConfigMaps of all namespaces with the
// selector of each of three members, by uid and by namespace, in JSON and
// in protobuf, then creates 100 ConfigMaps. Every watch must deliver an
// ADDED event for each new object in its member's slots, and no other
// event: none for an object outside them, no other type, no error.
func TestWatchDeliversOnlyTheSelectedObjects(t *testing.T) {
	namespaces := newNamespaces(t, cluster, 10)
	ours := namespaceSet(namespaces)
	a := assignment(t)

	var watches []*shardWatch
	var clients []*client
	for _, enc := range encodings {
		cs := newClient(t, cluster, enc.contentType)
		clients = append(clients, cs)
		for _, key := range keys {
			for _, m := range members {
				w := &shardWatch{name: fmt.Sprintf("%s/%s/%s", enc.name, key, m), key: key, owned: a.SlotsOf(m), added: map[string]types.UID{}}
				sel := selectorOf(t, key, w.owned)
				list, err := cs.CoreV1().ConfigMaps("").List(t.Context(), metav1.ListOptions{ShardSelector: sel})
				if err != nil {
					t.Fatalf("%s: LIST: %v", w.name, err)
				}
				checkShardInfo(t, w.name+": LIST", list.ListMeta, sel)
				wi, err := cs.CoreV1().ConfigMaps("").Watch(t.Context(), metav1.ListOptions{ShardSelector: sel, ResourceVersion: list.ResourceVersion})
				if err != nil {
					t.Fatalf("%s: WATCH from resourceVersion %s: %v", w.name, list.ResourceVersion, err)
				}
				t.Cleanup(wi.Stop)
				go w.consume(wi, ours)
				watches = append(watches, w)
			}
		}
	}

	created := createConfigMaps(t, clients[0], namespaces, 100, "watched")

	want := make([]map[string]types.UID, len(watches))
	for i, w := range watches {
		want[i] = selected(t, created, w.key, w.owned)
	}
	testwait.For(t, watchTimeout, "every watch to deliver the objects in its member's slots", func() string {
		var behind []string
		for i, w := range watches {
			w.mu.Lock()
			got, stopped := len(w.added), w.stopped
			w.mu.Unlock()
			if got < len(want[i]) {
				behind = append(behind, fmt.Sprintf("%s: %d of %d", w.name, got, len(want[i])))
			}
			if stopped {
				return w.name + ": the watch ended"
			}
		}
		return strings.Join(behind, "; ")
	})
	select {
	case <-time.After(watchGrace):
	case <-t.Context().Done():
	}

	for i, w := range watches {
		w.mu.Lock()
		if d := diff(w.added, want[i]); d != "" {
			t.Errorf("%s: ADDED events for %s", w.name, d)
		}
		if len(w.wrong) > 0 {
			t.Errorf("%s: %d events it must not deliver: %s", w.name, len(w.wrong), short(w.wrong))
		}
		if w.stopped {
			t.Errorf("%s: the watch ended", w.name)
		}
		w.mu.Unlock()
	}
	for _, cs := range clients {
		cs.checkAnswers(t)
	}
}

// consume records the events of wi until its result channel closes.
func (w *shardWatch) consume(wi watch.Interface, ours map[string]bool) {
	defer func() {
		w.mu.Lock()
		w.stopped = true
		w.mu.Unlock()
	}()
	for ev := range wi.ResultChan() {
		w.record(ev, ours)
	}
}

// record notes one event.
func (w *shardWatch) record(ev watch.Event, ours map[string]bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	cm, ok := ev.Object.(*corev1.ConfigMap)
	if !ok {
		w.wrong = append(w.wrong, fmt.Sprintf("%s event of a %T: %v", ev.Type, ev.Object, apierrors.FromObject(ev.Object)))
		return
	}
	k := objectKey(cm)
	v, err := shard.ValueOf(cm, w.key)
	if err != nil {
		w.wrong = append(w.wrong, err.Error())
		return
	}
	if s := shard.SlotOf(shard.Hash(v), slots); !slices.Contains(w.owned, s) {
		w.wrong = append(w.wrong, fmt.Sprintf("%s event of %s, in slot %d, which the member does not own", ev.Type, k, s))
	}
	if !ours[cm.Namespace] {
		return // another test's, or the system's
	}
	switch _, dup := w.added[k]; {
	case ev.Type != watch.Added:
		w.wrong = append(w.wrong, fmt.Sprintf("%s event of %s", ev.Type, k))
	case dup:
		w.wrong = append(w.wrong, fmt.Sprintf("second ADDED event of %s", k))
	default:
		w.added[k] = cm.UID
	}
}

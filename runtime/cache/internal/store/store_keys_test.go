package store

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// The key map's keys hold, for the name, the stored object's own string.
// After an update it must be the new object's, so that the map keeps nothing
// of the object it replaced; for the namespace, one string for all keys of
// the namespace, whatever strings the objects carry. Lookups by ObjectName
// and by client-go key find the object whatever strings the caller holds.
func TestStoreKeysAreTheStoredObjectsStrings(t *testing.T) {
	s := cachetest.Must(NewIndexer[*corev1.Pod](nil))
	pod := func(namespace, name, rv string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Namespace: strings.Clone(namespace), Name: strings.Clone(name), ResourceVersion: rv,
		}}
	}
	first, second, other := pod("team-a", "web-1", "1"), pod("team-a", "web-1", "2"), pod("team-a", "web-2", "3")
	// The same name in two more namespaces: these keys are in others.
	b1, b2 := pod("team-b", "web-1", "4"), pod("team-b", "web-1", "5")
	c := pod("team-c", "web-1", "6")
	for _, p := range []*corev1.Pod{first, other, b1, second, b2, c} {
		s.Update(p)
	}
	if s.keys.n != 4 || len(s.keys.byName) != 2 || len(s.keys.others) != 2 {
		t.Fatalf("%d keys (%d by name, %d others) for four objects", s.keys.n, len(s.keys.byName), len(s.keys.others))
	}
	namespaces := map[*byte]bool{}
	for name, k := range s.keys.byName {
		if unsafe.StringData(name) != unsafe.StringData(k.obj.Name) {
			t.Errorf("the key of %s does not hold the stored object's name", KeyOf(k.obj))
		}
	}
	for key, k := range s.keys.others {
		if unsafe.StringData(key.Name) != unsafe.StringData(k.obj.Name) {
			t.Errorf("the key of %s does not hold the stored object's name", key)
		}
		namespaces[unsafe.StringData(key.Namespace)] = true
		namespaces[unsafe.StringData(s.byID[k.ns].name)] = true
	}
	if len(namespaces) != 2 {
		t.Errorf("the keys of two namespaces hold %d copies of their names", len(namespaces))
	}
	for _, want := range []*corev1.Pod{second, other, b2, c} {
		key := ObjectName{Namespace: strings.Clone(want.Namespace), Name: strings.Clone(want.Name)}
		if got, ok := s.Get(key); !ok || got != want {
			t.Errorf("Get(%s) = %v, %v; want %v", key, got, ok, want)
		}
		if got, ok, err := s.GetByKey(strings.Clone(key.String())); err != nil || !ok || got != want {
			t.Errorf("GetByKey(%s) = %v, %v, %v; want %v", key, got, ok, err, want)
		}
	}
	for _, missing := range []ObjectName{{Namespace: "team-d", Name: "web-1"}, {Namespace: "team-b", Name: "web-2"}, {Name: "web-1"}} {
		if got, ok := s.Get(missing); ok {
			t.Errorf("Get(%s) = %v", missing, got)
		}
	}
	for _, bad := range []string{"/web-1", "team-a/web/1"} {
		if _, _, err := s.GetByKey(bad); err == nil {
			t.Errorf("GetByKey(%q): no error", bad)
		}
	}
	// Removing the object byName holds leaves a vacant entry, whose key is
	// a copy of the name, for the two others.
	if old, ok := s.Remove(KeyOf(second)); !ok || old != second || s.keys.n != 3 {
		t.Errorf("Remove = %v, %v with %d keys left", old, ok, s.keys.n)
	}
	for name, k := range s.keys.byName {
		if k.ns == vacantNS && (unsafe.StringData(name) == unsafe.StringData(second.Name) || unsafe.StringData(name) == unsafe.StringData(first.Name)) {
			t.Errorf("the vacant entry keeps the removed object's name string")
		}
	}
	if got, ok := s.Get(KeyOf(b2)); !ok || got != b2 {
		t.Errorf("after the removal, Get(%s) = %v, %v", KeyOf(b2), got, ok)
	}
	if err := checkStoreInvariants(s); err != nil {
		t.Fatal(err)
	}
}

// Names that many namespaces share (every namespace has a ConfigMap
// kube-root-ca.crt and a ServiceAccount default) go through every path of
// the key map: byName taken, others, vacant entries filled again, others
// emptied, and the maps rebuilt smaller. Random adds, updates and removals
// over 64 namespaces and 6 names are checked against a plain map, and the
// store's invariants after each step.
func TestStoreKeysSharedNames(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := cachetest.Must(NewIndexer[*corev1.Pod](Indexers[*corev1.Pod]{
		"node": func(p *corev1.Pod) []string { return []string{p.Spec.NodeName} },
	}))
	want := map[ObjectName]*corev1.Pod{}
	rv, shrunk := 0, 0
	for step := range 6000 {
		// Mostly adds for the first half, mostly removals after, so that
		// the store fills, empties to below an eighth and fills again.
		key := ObjectName{Namespace: "ns-" + strconv.Itoa(rng.IntN(64)), Name: "shared-" + strconv.Itoa(rng.IntN(6))}
		if step%3000 < 1500 && rng.IntN(4) != 0 || step%3000 >= 1500 && rng.IntN(20) == 0 {
			rv++
			p := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name, ResourceVersion: strconv.Itoa(rv)},
				Spec:       corev1.PodSpec{NodeName: "node-" + strconv.Itoa(rng.IntN(3))},
			}
			s.Update(p)
			want[key] = p
		} else {
			peak := s.keys.peak
			old, ok := s.Remove(key)
			if s.keys.peak < peak {
				shrunk++
			}
			if ok != (want[key] != nil) || old != want[key] {
				t.Fatalf("step %d: Remove(%s) = %v, %v; want %v", step, key, old, ok, want[key])
			}
			delete(want, key)
		}
		if err := checkStoreInvariants(s); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		for range 3 {
			probe := ObjectName{Namespace: "ns-" + strconv.Itoa(rng.IntN(65)), Name: "shared-" + strconv.Itoa(rng.IntN(7))}
			if got, ok := s.Get(probe); ok != (want[probe] != nil) || got != want[probe] {
				t.Fatalf("step %d: Get(%s) = %v, %v; want %v", step, probe, got, ok, want[probe])
			}
		}
	}
	if shrunk < 2 {
		t.Errorf("the key map was rebuilt smaller %d times, want one per emptying", shrunk)
	}
	if s.Len() != len(want) {
		t.Errorf("Len = %d, want %d", s.Len(), len(want))
	}
}

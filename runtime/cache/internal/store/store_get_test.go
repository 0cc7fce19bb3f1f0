package store

// Key lookups: the key table under churn, keys that client-go's string form
// cannot tell apart, and lookups that allocate nothing.

import (
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// Random adds, updates and deletes over a small key space, growing and
// shrinking namespaces many times: every lookup answers as a map of the same
// keys does, and the store's structures stay consistent.
func TestKeyChurn(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	model := map[ObjectName]*corev1.Pod{}
	rng := rand.New(rand.NewPCG(7, 11))
	check := func(step int) {
		t.Helper()
		for ns := range 6 {
			for n := range 300 {
				key := ObjectName{Namespace: fmt.Sprint("ns", ns), Name: fmt.Sprint("p", n)}
				got, ok := s.Get(key)
				if want := model[key]; ok != (want != nil) || got != want {
					t.Fatalf("step %d: Get(%s) = %p, %v; want %p", step, key, got, ok, want)
				}
			}
		}
		if err := checkStoreInvariants(s); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
	}
	for step := range 20_000 {
		// Phases of mostly adds and mostly deletes, so that the table grows
		// past several sizes and shrinks back.
		addBias := 3
		if (step/2_000)%2 == 1 {
			addBias = 1
		}
		key := ObjectName{Namespace: fmt.Sprint("ns", rng.IntN(6)), Name: fmt.Sprint("p", rng.IntN(300))}
		if rng.IntN(4) < addBias {
			p := pod(key.Namespace, key.Name, fmt.Sprint("n", rng.IntN(3)), nil)
			s.Add(p)
			model[key] = p
		} else {
			old, existed := s.Remove(key)
			if want := model[key]; existed != (want != nil) || old != want {
				t.Fatalf("step %d: Remove(%s) = %p, %v; want %p", step, key, old, existed, want)
			}
			delete(model, key)
		}
		if step%500 == 0 {
			check(step)
		}
	}
	check(-1)
	for key := range model {
		s.Delete(key)
	}
	clear(model)
	check(-2)
}

// Keys whose client-go string forms are alike stay distinct: a
// cluster-scoped object whose name holds a slash is not found by the string
// key of a namespaced one, and the other way round.
func TestKeysWithSlashesStayDistinct(t *testing.T) {
	s := cachetest.Must(NewIndexer[*corev1.Pod](nil))
	cluster, namespaced := pod("", "a/b", "", nil), pod("a", "b", "", nil)
	s.Add(cluster)
	s.Add(namespaced)
	if got, _ := s.Get(ObjectName{Name: "a/b"}); got != cluster {
		t.Errorf("Get(a/b cluster-scoped) = %v", got)
	}
	if got, _ := s.Get(ObjectName{Namespace: "a", Name: "b"}); got != namespaced {
		t.Errorf("Get(a, b) = %v", got)
	}
	if got, ok, err := s.GetByKey("a/b"); got != namespaced || !ok || err != nil {
		t.Errorf("GetByKey(a/b) = %v, %v, %v; want the namespaced object", got, ok, err)
	}
	s.Delete(ObjectName{Namespace: "a", Name: "b"})
	if got, ok, err := s.GetByKey("a/b"); ok || err != nil {
		t.Errorf("GetByKey(a/b) after deleting a/b = %v, %v, %v; want nothing", got, ok, err)
	}
	if got, _ := s.Get(ObjectName{Name: "a/b"}); got != cluster {
		t.Errorf("Get(a/b cluster-scoped) after deleting a/b = %v", got)
	}
}

// Point lookups allocate nothing, found or not: the store's Get and
// GetByKey, the client-go view's GetByKey and the listers' Get (which
// allocates only the NotFound error of a missing object). `make unit` runs
// the test without -race, under which allocation counts are meaningless.
func TestGetAllocatesNothing(t *testing.T) {
	if cachetest.RaceEnabled {
		t.Skip("allocation counts are meaningless under -race; make unit runs this without it")
	}
	s := cachetest.Must(NewIndexer(testIndexers()))
	for i := range 1000 {
		s.Add(pod(fmt.Sprint("ns", i%10), fmt.Sprint("p", i), "n", nil))
	}
	s.Add(pod("", "node-1", "", nil))
	view := s.AsIndexer()
	lister := NewLister[*corev1.Pod](view, schema.GroupResource{Resource: "pods"})
	sum := 0
	for name, lookup := range map[string]func(){
		"Get": func() { p, _ := s.Get(ObjectName{Namespace: "ns3", Name: "p13"}); sum += len(p.Name) },
		"Get missing": func() {
			if _, ok := s.Get(ObjectName{Namespace: "ns3", Name: "p14"}); ok {
				sum--
			}
		},
		"Get cluster": func() { p, _ := s.Get(ObjectName{Name: "node-1"}); sum += len(p.Name) },
		"GetByKey":    func() { p, _, _ := s.GetByKey("ns3/p13"); sum += len(p.Name) },
		"GetByKey missing": func() {
			if _, ok, _ := s.GetByKey("ns3/p14"); ok {
				sum--
			}
		},
		"GetByKey cluster": func() { p, _, _ := s.GetByKey("node-1"); sum += len(p.Name) },
		"view GetByKey":    func() { obj, _, _ := view.GetByKey("ns3/p13"); sum += len(obj.(*corev1.Pod).Name) },
		"Lister.Get":       func() { p, _ := lister.Get("node-1"); sum += len(p.Name) },
		"NamespaceLister.Get": func() {
			p, _ := lister.Namespace("ns3").Get("p13")
			sum += len(p.Name)
		},
	} {
		if allocs := testing.AllocsPerRun(100, lookup); allocs != 0 {
			t.Errorf("%s allocates %v times per lookup, want 0", name, allocs)
		}
	}
	if sum <= 0 {
		t.Fatal("lookups found no object, or found missing ones")
	}
}

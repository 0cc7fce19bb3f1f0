package store

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// An index function runs once per object stored: an update runs it on the
// new object only and a delete not at all, the values the replaced or
// removed object was indexed under being kept by the store. Moving an
// object between several values (some shared by the old and the new object)
// leaves it under exactly the new ones.
func TestIndexFunctionsRunOnStoredObjectsOnly(t *testing.T) {
	var seen []string
	s := cachetest.Must(NewIndexer(Indexers[*corev1.Pod]{"image": func(p *corev1.Pod) []string {
		seen = append(seen, p.ResourceVersion)
		return byImage(p)
	}}))
	v1 := pod("a", "p", "", []string{"x", "y"})
	v1.ResourceVersion = "1"
	v2 := pod("a", "p", "", []string{"y", "z", "z"})
	v2.ResourceVersion = "2"
	v3 := pod("a", "p", "", []string{"w"})
	v3.ResourceVersion = "3"
	s.Add(v1)
	s.Update(v2)
	for value, want := range map[string]int{"x": 0, "y": 1, "z": 1} {
		if got := cachetest.Must(s.ByIndex("image", value)); len(got) != want {
			t.Errorf("after the update, %d objects under image %q, want %d", len(got), value, want)
		}
	}
	s.Update(v3)
	s.Delete(KeyOf(v3))
	if want := []string{"1", "2", "3"}; !slices.Equal(seen, want) {
		t.Errorf("the index function ran on resourceVersions %q, want %q", seen, want)
	}
	if values := s.ListIndexFuncValues("image"); len(values) != 0 {
		t.Errorf("after the delete, the index has values %q", values)
	}
	if err := checkStoreInvariants(s); err != nil {
		t.Fatal(err)
	}
}

package store

import (
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// appendImages is byImage in append form.
func appendImages(p *corev1.Pod, dst []string) []string {
	for _, c := range p.Spec.Containers {
		dst = append(dst, c.Image)
	}
	return dst
}

func appendNode(p *corev1.Pod, dst []string) []string { return append(dst, p.Spec.NodeName) }

// An append-form index answers as the same index in IndexFunc form does,
// through adds, updates that change several values and deletes, although
// the store reuses one destination slice for every object.
func TestAppendIndexMatchesIndexFunc(t *testing.T) {
	plain := cachetest.Must(NewIndexer(Indexers[*corev1.Pod]{"image": byImage, "node": byNode}))
	appended := cachetest.Must(NewIndexer[*corev1.Pod](nil))
	if err := appended.AddAppendIndexers(AppendIndexers[*corev1.Pod]{"image": appendImages, "node": appendNode}); err != nil {
		t.Fatal(err)
	}
	images := []string{"a", "b", "c", "d"}
	for step := range 400 {
		i := step % 37
		p := pod(fmt.Sprint("ns", i%3), fmt.Sprint("p", i), fmt.Sprint("n", step%5), images[step%4:min(4, step%4+1+step%3)])
		if step%11 == 0 {
			plain.Delete(KeyOf(p))
			appended.Delete(KeyOf(p))
			continue
		}
		plain.Add(p)
		appended.Add(p)
	}
	for _, index := range []string{"image", "node"} {
		want := plain.ListIndexFuncValues(index)
		if got := appended.ListIndexFuncValues(index); !slices.Equal(got, want) {
			t.Fatalf("index %q: values %q, want %q", index, got, want)
		}
		for _, v := range want {
			if got, want := names(cachetest.Must(appended.ByIndex(index, v))), names(cachetest.Must(plain.ByIndex(index, v))); !slices.Equal(got, want) {
				t.Errorf("ByIndex(%q, %q) = %q, want %q", index, v, got, want)
			}
		}
	}
	if err := checkStoreInvariants(appended); err != nil {
		t.Fatal(err)
	}
}

// Append-form indexes share their names with every other index, refuse a
// nil function, and are added as client-go index functions to an indexer
// of client-go's.
func TestAddAppendIndexes(t *testing.T) {
	s := cachetest.Must(NewIndexer(testIndexers()))
	if err := s.AddAppendIndexers(AppendIndexers[*corev1.Pod]{"node": appendNode}); err == nil {
		t.Error("AddAppendIndexers with the name of an existing index: no error")
	}
	if err := s.AddAppendIndexers(AppendIndexers[*corev1.Pod]{"other": nil}); err == nil {
		t.Error("AddAppendIndexers with a nil function: no error")
	}
	if err := AddAppendIndexes(s.AsIndexer(), AppendIndexers[*corev1.Pod]{"team": appendNode}, map[string]string{"team": "team"}); err == nil {
		t.Error("AddAppendIndexes with a function and a label index of one name: no error")
	}
	if err := AddAppendIndexes(s.AsIndexer(), AppendIndexers[*corev1.Pod]{"node2": appendNode}, map[string]string{"app": "app"}); err != nil {
		t.Fatal(err)
	}
	if got := s.IndexNames(); !slices.Equal(got, []string{"app", "image", "node", "node2"}) {
		t.Errorf("index names %q", got)
	}

	theirs := clientcache.NewIndexer(clientcache.MetaNamespaceKeyFunc, clientcache.Indexers{})
	if err := AddAppendIndexes(theirs, AppendIndexers[*corev1.Pod]{"image": appendImages}, map[string]string{"app": "app"}); err != nil {
		t.Fatal(err)
	}
	if err := theirs.Add(pod("a", "p", "n1", []string{"x", "y"}, "app", "web")); err != nil {
		t.Fatal(err)
	}
	for index, value := range map[string]string{"image": "y", "app": "web"} {
		if got, err := theirs.ByIndex(index, value); err != nil || len(got) != 1 {
			t.Errorf("client-go ByIndex(%q, %q) = %d objects, %v; want 1", index, value, len(got), err)
		}
	}
}

// A panicking append-form function is reported and leaves the object
// without a value in that index, keeping the object and the other indexes.
func TestAppendIndexPanicGivesNoValue(t *testing.T) {
	s := cachetest.Must(NewIndexer(Indexers[*corev1.Pod]{"node": byNode}))
	err := s.AddAppendIndexers(AppendIndexers[*corev1.Pod]{"bad": func(p *corev1.Pod, dst []string) []string {
		dst = append(dst, "partial")
		if p.Name == "boom" {
			panic("boom")
		}
		return dst
	}})
	if err != nil {
		t.Fatal(err)
	}
	s.Add(pod("a", "ok", "n1", nil))
	s.Add(pod("a", "boom", "n1", nil))
	if got := cachetest.Must(s.ByIndex("bad", "partial")); len(got) != 1 || got[0].Name != "ok" {
		t.Errorf("ByIndex(bad, partial) = %q, want only a/ok", names(got))
	}
	if got := cachetest.Must(s.ByIndex("node", "n1")); len(got) != 2 {
		t.Errorf("ByIndex(node, n1) = %d objects, want 2", len(got))
	}
	if err := checkStoreInvariants(s); err != nil {
		t.Fatal(err)
	}
}

// An update that keeps an object's values allocates nothing when every index
// is a label index or an append-form function. `make unit` runs the test
// without -race, under which allocation counts are meaningless.
func TestAppendIndexUpdateAllocatesNothing(t *testing.T) {
	if cachetest.RaceEnabled {
		t.Skip("allocation counts are meaningless under -race; make unit runs this without it")
	}
	s := cachetest.Must(NewIndexer[*corev1.Pod](nil))
	if err := AddAppendIndexes(s.AsIndexer(), AppendIndexers[*corev1.Pod]{"image": appendImages, "node": appendNode}, map[string]string{"app": "app"}); err != nil {
		t.Fatal(err)
	}
	versions := [2]*corev1.Pod{}
	for i := range versions {
		versions[i] = pod("a", "p", "n1", []string{"x", "y"}, "app", "web")
		s.Add(pod("a", fmt.Sprint("q", i), "n1", []string{"x"}, "app", "web"))
	}
	s.Add(versions[0])
	i := 0
	if allocs := testing.AllocsPerRun(100, func() {
		i++
		s.Update(versions[i%2])
	}); allocs != 0 {
		t.Errorf("an update that keeps the values allocates %v times, want 0", allocs)
	}
	if err := checkStoreInvariants(s); err != nil {
		t.Fatal(err)
	}
}

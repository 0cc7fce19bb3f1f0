package store

import (
	"maps"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// appendForm returns index functions of the plain form as append-form ones
// (a nil function stays nil), so that tests written with the plain form
// register them through AddAppendIndexes.
func appendForm[T Object](funcs Indexers[T]) AppendIndexers[T] {
	if funcs == nil {
		return nil
	}
	out := make(AppendIndexers[T], len(funcs))
	for name, fn := range funcs {
		if fn == nil {
			out[name] = nil
			continue
		}
		out[name] = func(obj T, dst []string) []string { return append(dst, fn(obj)...) }
	}
	return out
}

// addPlainIndexes is AddAppendIndexes for index functions of the plain form.
func addPlainIndexes(indexer cache.Indexer, funcs Indexers[*corev1.Pod], labelIndexes map[string]string) error {
	return AddAppendIndexes(indexer, appendForm(funcs), labelIndexes)
}

// toIndexers is AppendToIndexers for index functions of the plain form.
func toIndexers(funcs Indexers[*corev1.Pod], labelIndexes map[string]string) cache.Indexers {
	return AppendToIndexers(appendForm(funcs), labelIndexes)
}

// AddIndexes registers typed and label indexes on our store (through any of
// its views) and, as ToIndexers, on client-go's indexer: both then index the
// same objects under the same values. Clashing names are refused on both.
func TestAddIndexesAndToIndexersAgree(t *testing.T) {
	funcs := Indexers[*corev1.Pod]{"node": byNode, "image": byImage}
	labelIndexes := map[string]string{"by-app": "app", "by-team": "team"}
	ours := cachetest.Must(NewIndexer[*corev1.Pod](nil))
	view := ours.AsIndexer()
	ref := cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{})
	pods := []*corev1.Pod{
		pod("a", "p1", "n1", []string{"nginx", "redis"}, "app", "web", "team", "red"),
		pod("a", "p2", "n2", []string{"nginx"}, "app", "db"),
		pod("b", "p1", "n1", nil, "team", "red"),
		pod("", "c1", "", []string{"redis"}, "app", ""),
	}
	// Half of the objects before the indexes, half after.
	for _, p := range pods[:2] {
		ours.Add(p)
		if err := ref.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := addPlainIndexes(view, funcs, labelIndexes); err != nil {
		t.Fatalf("AddIndexes on our view: %v", err)
	}
	if err := addPlainIndexes(ref, funcs, labelIndexes); err != nil {
		t.Fatalf("AddIndexes on client-go's indexer: %v", err)
	}
	for _, p := range pods[2:] {
		ours.Add(p)
		if err := ref.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := ours.IndexNames(), slices.Sorted(maps.Keys(ref.GetIndexers())); !slices.Equal(got, want) {
		t.Fatalf("our indexes %v, client-go's %v", got, want)
	}
	// A label index on our store is a real label index: Select can use it.
	if _, ok := ours.labelIndexes["app"]; !ok {
		t.Error("AddIndexes did not register by-app as a label index of our store")
	}
	for _, name := range ours.IndexNames() {
		values := ref.ListIndexFuncValues(name)
		slices.Sort(values)
		if got := ours.ListIndexFuncValues(name); !slices.Equal(got, values) {
			t.Errorf("ListIndexFuncValues(%s) = %v, client-go %v", name, got, values)
		}
		for _, v := range values {
			want, err := ref.ByIndex(name, v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ours.ByIndex(name, v)
			if err != nil || !slices.Equal(names(got), anyNames(want)) {
				t.Errorf("ByIndex(%s, %q) = %v, %v; client-go %v", name, v, names(got), err, anyNames(want))
			}
		}
	}

	// ToIndexers' functions compute the typed functions' values, and refuse
	// other types.
	fns := toIndexers(funcs, labelIndexes)
	for _, p := range pods {
		for name, want := range map[string][]string{"node": byNode(p), "image": byImage(p), "by-app": labelIndexFunc("app")(p), "by-team": labelIndexFunc("team")(p)} {
			if got, err := fns[name](p); err != nil || !slices.Equal(got, want) {
				t.Errorf("toIndexers()[%s](%s) = %v, %v; want %v", name, KeyOf(p), got, err, want)
			}
		}
	}
	if _, err := fns["node"](&corev1.ConfigMap{}); err == nil {
		t.Error("a ToIndexers function took a ConfigMap")
	}

	for _, tc := range []struct {
		name         string
		funcs        Indexers[*corev1.Pod]
		labelIndexes map[string]string
	}{
		{"an existing function index", Indexers[*corev1.Pod]{"node": byNode}, nil},
		{"an existing label index", nil, map[string]string{"by-app": "app"}},
		{"a label index named as an existing function index", nil, map[string]string{"image": "app"}},
		{"a function index named as an existing label index", Indexers[*corev1.Pod]{"by-team": byNode}, nil},
	} {
		before := ours.IndexNames()
		if err := addPlainIndexes(view, tc.funcs, tc.labelIndexes); err == nil {
			t.Errorf("AddIndexes with %s on our view succeeded", tc.name)
		}
		if err := addPlainIndexes(ref, tc.funcs, tc.labelIndexes); err == nil {
			t.Errorf("AddIndexes with %s on client-go's indexer succeeded", tc.name)
		}
		if after := ours.IndexNames(); !slices.Equal(after, before) {
			t.Errorf("a refused AddIndexes with %s changed our indexes to %v", tc.name, after)
		}
	}
	if err := addPlainIndexes(view, Indexers[*corev1.Pod]{"x": byNode}, map[string]string{"x": "app"}); err == nil {
		t.Error("AddIndexes with one name for a function and a label index succeeded")
	}
}

// A refused AddIndexes on our store adds nothing, whichever of its indexes
// is refused: a label index with an empty label key must not leave the
// function indexes registered with it behind.
func TestAddIndexesRefusedAddsNothing(t *testing.T) {
	for name, tc := range map[string]struct {
		funcs        Indexers[*corev1.Pod]
		labelIndexes map[string]string
	}{
		"a nil index function":              {Indexers[*corev1.Pod]{"node": byNode, "nil": nil}, map[string]string{"by-app": "app"}},
		"a label index without a label key": {Indexers[*corev1.Pod]{"node": byNode}, map[string]string{"by-app": "app", "empty": ""}},
		"a name used twice":                 {Indexers[*corev1.Pod]{"node": byNode, "dup": byImage}, map[string]string{"dup": "app"}},
	} {
		s := cachetest.Must(NewIndexer[*corev1.Pod](nil))
		s.Add(pod("a", "p1", "n1", nil, "app", "web"))
		if err := addPlainIndexes(s.AsIndexer(), tc.funcs, tc.labelIndexes); err == nil {
			t.Errorf("AddIndexes with %s succeeded", name)
		}
		if got := s.IndexNames(); len(got) != 0 {
			t.Errorf("AddIndexes with %s was refused but registered %v", name, got)
		}
	}
}

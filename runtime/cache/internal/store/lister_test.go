package store

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

var podsResource = schema.GroupResource{Resource: "pods"}

// testListerKinds builds the same lister three ways: over our store
// (NewStoreLister), over its client-go view (NewLister(AsIndexer()), which
// reads the store directly), and over client-go's own indexer with the same
// indexes (NewLister(cache.NewIndexer), which has client-go's semantics).
// Every lister test runs on each and must get the same answers.
var testListerKinds = []struct {
	name  string
	build func(t *testing.T, pods []*corev1.Pod) Lister[*corev1.Pod]
}{
	{"store", func(t *testing.T, pods []*corev1.Pod) Lister[*corev1.Pod] {
		return NewStoreLister(newTestListerStore(t, pods), podsResource)
	}},
	{"view", func(t *testing.T, pods []*corev1.Pod) Lister[*corev1.Pod] {
		return NewLister[*corev1.Pod](newTestListerStore(t, pods).AsIndexer(), podsResource)
	}},
	{"client-go", func(t *testing.T, pods []*corev1.Pod) Lister[*corev1.Pod] {
		indexer := cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
		if err := addPlainIndexes(indexer, testIndexers(), map[string]string{"app": "app"}); err != nil {
			t.Fatal(err)
		}
		for _, p := range pods {
			if err := indexer.Add(p); err != nil {
				t.Fatal(err)
			}
		}
		return NewLister[*corev1.Pod](indexer, podsResource)
	}},
}

func newTestListerStore(t *testing.T, pods []*corev1.Pod) *Indexer[*corev1.Pod] {
	t.Helper()
	s := cachetest.Must(NewIndexer[*corev1.Pod](nil))
	if err := addPlainIndexes(s.AsIndexer(), testIndexers(), map[string]string{"app": "app"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range pods {
		s.Add(p)
	}
	return s
}

// forEachLister runs test on a lister of pods of every kind.
func forEachLister(t *testing.T, pods []*corev1.Pod, test func(t *testing.T, l Lister[*corev1.Pod])) {
	for _, kind := range testListerKinds {
		t.Run(kind.name, func(t *testing.T) { test(t, kind.build(t, pods)) })
	}
}

// Get answers the apimachinery NotFound error for the lister's resource, as
// client-go's generated listers do.
func TestListerGetNotFound(t *testing.T) {
	forEachLister(t, []*corev1.Pod{pod("a", "p1", "", nil), pod("", "node-scoped", "", nil)}, testListerGetNotFound)
}

func testListerGetNotFound(t *testing.T, l Lister[*corev1.Pod]) {
	if _, err := l.Namespace("a").Get("p1"); err != nil {
		t.Fatalf("Get(a/p1): %v", err)
	}
	if got, err := l.Get("node-scoped"); err != nil || got.Name != "node-scoped" {
		t.Fatalf("Get(node-scoped) = %v, %v", got, err)
	}
	for name, get := range map[string]func() (*corev1.Pod, error){
		"cluster":   func() (*corev1.Pod, error) { return l.Get("p1") },
		"namespace": func() (*corev1.Pod, error) { return l.Namespace("b").Get("p1") },
	} {
		obj, err := get()
		if !errors.IsNotFound(err) || obj != nil {
			t.Fatalf("%s: Get = %v, %v; want NotFound", name, obj, err)
		}
		status := err.(errors.APIStatus).Status()
		if status.Details.Kind != "pods" || status.Details.Name != "p1" {
			t.Errorf("%s: NotFound details = %+v, want resource pods, name p1", name, status.Details)
		}
		if want := `pods "p1" not found`; err.Error() != want {
			t.Errorf("%s: error %q, want %q", name, err, want)
		}
	}
}

// A namespace lister sees only its namespace; the cluster lister sees all.
func TestNamespaceListerIsolation(t *testing.T) {
	forEachLister(t, []*corev1.Pod{
		pod("a", "p1", "n1", nil, "app", "web"),
		pod("a", "p2", "n2", nil, "app", "db"),
		pod("b", "p3", "n1", nil, "app", "web"),
	}, testNamespaceListerIsolation)
}

func testNamespaceListerIsolation(t *testing.T, l Lister[*corev1.Pod]) {
	web := labels.SelectorFromSet(labels.Set{"app": "web"})
	for _, tc := range []struct {
		name string
		list func() ([]*corev1.Pod, error)
		want []string
	}{
		{"cluster List(app=web)", func() ([]*corev1.Pod, error) { return l.List(web) }, []string{"a/p1", "b/p3"}},
		{"namespace List(app=web)", func() ([]*corev1.Pod, error) { return l.Namespace("a").List(web) }, []string{"a/p1"}},
		{"namespace List(everything)", func() ([]*corev1.Pod, error) { return l.Namespace("a").List(labels.Everything()) }, []string{"a/p1", "a/p2"}},
		{"cluster ByIndex(node=n1)", func() ([]*corev1.Pod, error) { return l.ByIndex("node", "n1") }, []string{"a/p1", "b/p3"}},
		{"namespace ByIndex(node=n1)", func() ([]*corev1.Pod, error) { return l.Namespace("b").ByIndex("node", "n1") }, []string{"b/p3"}},
		{"cluster ByIndex(app=web), a label index", func() ([]*corev1.Pod, error) { return l.ByIndex("app", "web") }, []string{"a/p1", "b/p3"}},
		{"namespace ByIndex(app=web), a label index", func() ([]*corev1.Pod, error) { return l.Namespace("a").ByIndex("app", "web") }, []string{"a/p1"}},
		{"namespace ByIndex(node=n2), none there", func() ([]*corev1.Pod, error) { return l.Namespace("b").ByIndex("node", "n2") }, nil},
		{"cluster List(app=db)", func() ([]*corev1.Pod, error) {
			return l.List(labels.SelectorFromSet(labels.Set{"app": "db"}))
		}, []string{"a/p2"}},
		{"empty namespace", func() ([]*corev1.Pod, error) { return l.Namespace("c").List(labels.Everything()) }, nil},
	} {
		got, err := tc.list()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if g := names(got); !slices.Equal(g, tc.want) && len(g)+len(tc.want) > 0 {
			t.Errorf("%s = %v, want %v", tc.name, g, tc.want)
		}
	}
	if _, err := l.ByIndex("no-such-index", "x"); err == nil {
		t.Error("ByIndex of an unknown index: no error")
	}
	if _, err := l.Namespace("a").ByIndex("no-such-index", "x"); err == nil {
		t.Error("Namespace(a).ByIndex of an unknown index: no error")
	}
}

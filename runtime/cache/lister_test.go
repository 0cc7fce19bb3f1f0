package cache

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var podsResource = schema.GroupResource{Resource: "pods"}

func newTestLister(t *testing.T, pods ...*corev1.Pod) Lister[*corev1.Pod] {
	t.Helper()
	s := NewThreadSafeStore(testIndexers())
	if err := s.AddLabelIndex("app", "app"); err != nil {
		t.Fatal(err)
	}
	for _, p := range pods {
		s.Add(p)
	}
	return NewLister[*corev1.Pod](s, podsResource)
}

// Get answers the apimachinery NotFound error for the lister's resource, as
// client-go's generated listers do.
func TestListerGetNotFound(t *testing.T) {
	l := newTestLister(t, pod("a", "p1", "", nil), pod("", "node-scoped", "", nil))
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
	}
}

// A namespace lister sees only its namespace; the cluster lister sees all.
func TestNamespaceListerIsolation(t *testing.T) {
	l := newTestLister(t,
		pod("a", "p1", "n1", nil, "app", "web"),
		pod("a", "p2", "n2", nil, "app", "db"),
		pod("b", "p3", "n1", nil, "app", "web"),
	)
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
}

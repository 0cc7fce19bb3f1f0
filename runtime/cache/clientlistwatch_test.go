package cache

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	clienttesting "k8s.io/client-go/testing"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/wire"
)

// podsServer answers every LIST of pods with an empty list and every WATCH
// with an empty stream that ends at once, in JSON, and records the path and
// query of every request.
type podsServer struct {
	mu      sync.Mutex
	queries []string
}

func (s *podsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.queries = append(s.queries, r.URL.Path+"?"+r.URL.RawQuery)
	s.mu.Unlock()
	w.Header().Set("Content-Type", runtime.ContentTypeJSON)
	if r.URL.Query().Get("watch") == "true" {
		return
	}
	_, _ = w.Write([]byte(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[]}`))
}

// requests returns the path and query of every request s received.
func (s *podsServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.queries...)
}

func TestClientListWatchAppliesTweakToListsAndWatches(t *testing.T) {
	s := &podsServer{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	cs := cachetest.Must(kubernetes.NewForConfig(&rest.Config{Host: srv.URL, QPS: -1}))
	tweak := func(o *metav1.ListOptions) { o.LabelSelector = "tweaked=yes" }
	lw := NewClientListWatch[*corev1.Pod](cs.CoreV1().Pods("ns"), "pods", tweak, cs)
	got, err := lw.lw.ListWithContextFunc(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got.(*wire.ItemList[*corev1.Pod]); !ok {
		t.Errorf("listed a %T, want the runtime's *wire.ItemList", got)
	}
	w, err := lw.lw.WatchFuncWithContext(context.Background(), metav1.ListOptions{ResourceVersion: "5"})
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	for range w.ResultChan() {
	}
	queries := s.requests()
	for _, q := range queries {
		if !strings.Contains(q, "labelSelector=tweaked%3Dyes") || !strings.HasPrefix(q, "/api/v1/namespaces/ns/pods?") {
			t.Errorf("request %s: want the tweaked selector, in namespace ns", q)
		}
	}
	if len(queries) != 2 || !strings.Contains(queries[1], "watch=true") {
		t.Errorf("requests %q, want a LIST and a WATCH", queries)
	}
}

func TestClientListWatchUsesFakeClientsetsAsTheyAre(t *testing.T) {
	cs := fake.NewClientset(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"}})
	var listed, watched []string // the label selectors of the fake's list and watch actions
	cs.PrependReactor("list", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		listed = append(listed, a.(clienttesting.ListAction).GetListRestrictions().Labels.String())
		return false, nil, nil
	})
	cs.PrependWatchReactor("pods", func(a clienttesting.Action) (bool, watch.Interface, error) {
		watched = append(watched, a.(clienttesting.WatchAction).GetWatchRestrictions().Labels.String())
		return false, nil, nil
	})
	tweak := func(o *metav1.ListOptions) { o.LabelSelector = "tweaked=yes" }
	lw := NewClientListWatch[*corev1.Pod](cs.CoreV1().Pods(""), "pods", tweak, cs)
	got, err := lw.lw.ListWithContextFunc(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := lw.lw.WatchFuncWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	if _, ok := got.(*corev1.PodList); !ok || len(listed) != 1 || len(watched) != 1 {
		t.Fatalf("listed a %T (%d list and %d watch reactor calls), want the fake's PodList through its reactors", got, len(listed), len(watched))
	}
	if listed[0] != "tweaked=yes" || watched[0] != "tweaked=yes" {
		t.Errorf("the fake was asked with the selectors %q and %q, want the tweaked one", listed[0], watched[0])
	}
}

// A fake clientset's object tracker hands a new watch the very objects it
// stores (here a watch from the start, which delivers every stored object
// again). An informer over a typed client without a REST client interns
// copies of them: the tracker's object keeps what it held, and the store
// holds the object the intern function changed.
func TestInformerInternsCopiesOfAFakeClientsetsObjects(t *testing.T) {
	cs := fake.NewClientset(podAt("p1", ""))
	podsGVR := corev1.SchemeGroupVersion.WithResource("pods")
	cs.PrependWatchReactor("pods", func(a clienttesting.Action) (bool, watch.Interface, error) {
		w, err := cs.Tracker().Watch(podsGVR, a.GetNamespace(), metav1.ListOptions{})
		return true, w, err
	})
	inf := cachetest.Must(NewSharedIndexInformer(NewClientListWatch[*corev1.Pod](cs.CoreV1().Pods(""), "pods", nil, cs), podInformerOptions{}))
	if err := inf.SetTypedIntern(func(obj, _ *corev1.Pod) { obj.Labels = map[string]string{"interned": "yes"} }); err != nil {
		t.Fatal(err)
	}
	h := newRecorder(nil)
	register(t, inf, h)
	runInformer(t, context.Background(), inf)
	// The list's p1, then the watch's p1 again.
	calls := h.waitFor(t, 2)
	if calls[1].kind != "update" {
		t.Fatalf("handler calls %q, want an add and an update of ns/p1", callStrings(calls))
	}
	stored, err := cs.Tracker().Get(podsGVR, "ns", "p1")
	if err != nil {
		t.Fatal(err)
	}
	if labels := stored.(*corev1.Pod).Labels; labels != nil {
		t.Errorf("the fake's stored pod has labels %v: the informer interned the tracker's own object", labels)
	}
	cached, ok := inf.TypedStore().Get(ObjectName{Namespace: "ns", Name: "p1"})
	if !ok || cached.Labels["interned"] != "yes" {
		t.Errorf("the informer caches %+v, want the pod its intern function labelled", cached)
	}
}

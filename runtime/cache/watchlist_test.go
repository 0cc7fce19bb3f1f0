package cache

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/consistencydetector"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/queue"
)

// The objects a stream's initial events leave, as the queue replaces with
// them, are those client-go's reflector leaves in its own store for the same
// events, once each, in the order of their keys' first arrival.
func TestWatchListCollectionMatchesClientGoStore(t *testing.T) {
	events := []watch.EventType{watch.Added, watch.Added, watch.Added, watch.Modified, watch.Deleted}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 3))
		var c collection[*corev1.Pod]
		ref := clientcache.NewStore(clientcache.DeletionHandlingMetaNamespaceKeyFunc)
		var order []string // first arrival of the keys still present, per the model
		var log []string
		for i := range 5 + rng.IntN(30) {
			name := "p" + strconv.Itoa(rng.IntN(6))
			typ := events[rng.IntN(len(events))]
			if seed%3 == 0 && typ != watch.Added { // some seeds only ever add
				typ = watch.Added
			}
			p := fifoPod(name, strconv.Itoa(i+1))
			log = append(log, fmt.Sprintf("%s %s", typ, name))
			c.apply(typ, p)
			var err error
			switch typ {
			case watch.Added:
				err = ref.Add(p)
			case watch.Modified:
				err = ref.Update(p)
			case watch.Deleted:
				err = ref.Delete(p)
			}
			if err != nil {
				t.Fatal(err)
			}
			present := slices.Contains(order, name)
			switch {
			case typ == watch.Deleted && present:
				order = slices.DeleteFunc(order, func(n string) bool { return n == name })
			case typ != watch.Deleted && !present:
				order = append(order, name)
			}
		}
		// What the queue makes of the collected objects: one Replaced delta
		// per key.
		f := queue.NewDeltaFIFO(queue.DeltaFIFOOptions[*corev1.Pod]{})
		if err := f.ReplaceCollected(fifoCtx(t), c.objects()); err != nil {
			t.Fatal(err)
		}
		got := map[string]*corev1.Pod{}
		var gotOrder []string
		for f.Len() > 0 {
			if err := f.Pop(fifoCtx(t), func(key ObjectName, deltas queue.Deltas[*corev1.Pod], _ bool) error {
				if len(deltas) != 1 || deltas[0].Type != queue.Replaced {
					return fmt.Errorf("seed %d: after %q popped %s with %d deltas, the first %s", seed, log, key, len(deltas), deltas[0].Type)
				}
				got[key.Name] = deltas[0].Object
				gotOrder = append(gotOrder, key.Name)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		want := map[string]*corev1.Pod{}
		for _, o := range ref.List() {
			want[o.(*corev1.Pod).Name] = o.(*corev1.Pod)
		}
		if !maps.Equal(got, want) {
			t.Fatalf("seed %d: after %q collected %v, client-go's store holds %v", seed, log, gotOrder, slices.Sorted(maps.Keys(want)))
		}
		if !slices.Equal(gotOrder, order) {
			t.Fatalf("seed %d: after %q collected in order %q, want first arrival %q", seed, log, gotOrder, order)
		}
	}
}

// wlEndpoint serves scripted watch-list streams: the n-th WATCH gets a watcher
// already holding streams[n]; a LIST returns list. It records the requests.
type wlEndpoint struct {
	mu       sync.Mutex
	streams  [][]watch.Event
	list     *corev1.PodList
	requests []string
	watchers []*watch.FakeWatcher
}

func (e *wlEndpoint) List(_ context.Context, opts metav1.ListOptions) (*corev1.PodList, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.requests = append(e.requests, "list")
	if e.list == nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("scripted: no list"))
	}
	return e.list.DeepCopy(), nil
}

func (e *wlEndpoint) Watch(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	kind := "watch"
	if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
		kind = "watch-list"
	}
	e.requests = append(e.requests, kind)
	w := watch.NewFakeWithChanSize(64, false)
	e.watchers = append(e.watchers, w)
	if len(e.streams) > 0 {
		for _, ev := range e.streams[0] {
			w.Action(ev.Type, ev.Object)
		}
		e.streams = e.streams[1:]
	}
	return w, nil
}

func (e *wlEndpoint) log() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.requests)
}

func wlBookmark(rv string, end bool) watch.Event {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: rv}}
	if end {
		p.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	}
	return watch.Event{Type: watch.Bookmark, Object: p}
}

func wlEvent(t watch.EventType, name, rv string) watch.Event {
	return watch.Event{Type: t, Object: fifoPod(name, rv)}
}

// wlCalls records handler calls, in order, as strings.
type wlCalls struct{ callLog[string] }

func (c *wlCalls) handler() clientcache.ResourceEventHandler {
	return clientcache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, initial bool) {
			p := obj.(*corev1.Pod)
			c.add(fmt.Sprintf("add %s@%s initial=%v", p.Name, p.ResourceVersion, initial))
		},
		UpdateFunc: func(old, obj any) {
			o, p := old.(*corev1.Pod), obj.(*corev1.Pod)
			c.add(fmt.Sprintf("update %s@%s->%s", p.Name, o.ResourceVersion, p.ResourceVersion))
		},
		DeleteFunc: func(obj any) {
			if d, ok := obj.(clientcache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			p := obj.(*corev1.Pod)
			c.add(fmt.Sprintf("delete %s@%s", p.Name, p.ResourceVersion))
		},
	}
}

// wlRun runs an informer over a copy of streams until the handler saw want
// calls, and returns the calls, the store's content and the requests made.
func wlRun(t *testing.T, ours bool, streams [][]watch.Event, list *corev1.PodList, want int) (calls, store, requests []string) {
	t.Helper()
	e := &wlEndpoint{streams: streams, list: list}
	var inf clientcache.SharedIndexInformer
	if ours {
		i, err := NewSharedIndexInformer(NewListWatch[*corev1.Pod](e.List, e.Watch, nil), SharedIndexInformerOptions[*corev1.Pod]{})
		if err != nil {
			t.Fatal(err)
		}
		inf = i
	} else {
		lw := &clientcache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (k8sruntime.Object, error) {
				return e.List(ctx, opts)
			},
			WatchFuncWithContext: e.Watch,
		}
		inf = clientcache.NewSharedIndexInformer(clientcache.ToListWatcherWithWatchListSemantics(lw, nil), &corev1.Pod{}, 0, nil)
	}
	rec := &wlCalls{}
	if _, err := inf.AddEventHandler(rec.handler()); err != nil {
		t.Fatal(err)
	}
	defer runInformer(t, context.Background(), inf).stop(t)
	testwait.For(t, 10*time.Second, fmt.Sprintf("%d handler calls", want), func() string {
		if got := rec.recorded(); len(got) < want || !inf.HasSynced() {
			return fmt.Sprintf("%d calls %q, synced %v", len(got), got, inf.HasSynced())
		}
		return ""
	})
	for _, o := range inf.GetStore().List() {
		p := o.(*corev1.Pod)
		store = append(store, p.Name+"@"+p.ResourceVersion)
	}
	slices.Sort(store)
	return rec.recorded(), store, e.log()
}

// A watch-list stream whose initial events add, change and delete objects,
// carry an object of another type, a plain bookmark, and fail once with 410
// Gone (the reflector streams again), then ends its initial events and goes
// on: ours delivers exactly what client-go's informer delivers, from the
// same requests, without a LIST.
func TestWatchListStreamSyncsAsClientGo(t *testing.T) {
	streams := func() [][]watch.Event {
		return [][]watch.Event{
			{
				wlEvent(watch.Added, "a", "1"), wlEvent(watch.Added, "b", "2"),
				{Type: watch.Added, Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "not-a-pod", ResourceVersion: "3"}}},
				wlBookmark("3", false),
				wlEvent(watch.Modified, "a", "4"), wlEvent(watch.Deleted, "b", "5"),
				{Type: watch.Error, Object: &apierrors.NewResourceExpired("scripted: too old").ErrStatus},
			},
			{
				wlEvent(watch.Added, "a", "6"), wlEvent(watch.Added, "c", "7"), wlEvent(watch.Added, "e", "8"),
				wlEvent(watch.Modified, "c", "9"), wlEvent(watch.Deleted, "e", "10"), wlEvent(watch.Added, "f", "11"),
				wlBookmark("11", true),
				wlEvent(watch.Modified, "a", "12"), wlEvent(watch.Added, "d", "13"), wlEvent(watch.Deleted, "c", "14"),
			},
		}
	}
	// add a, c, f; update a; add d; delete c.
	const calls = 6
	refCalls, refStore, refRequests := wlRun(t, false, streams(), nil, calls)
	ourCalls, ourStore, ourRequests := wlRun(t, true, streams(), nil, calls)
	if want := []string{"a@12", "d@13", "f@11"}; !slices.Equal(refStore, want) {
		t.Fatalf("client-go's store holds %q, the test expects %q: the script is wrong", refStore, want)
	}
	if !slices.Equal(ourStore, refStore) {
		t.Errorf("store holds %q, client-go's %q", ourStore, refStore)
	}
	// Adds of the initial list come in list order on ours and in map order on
	// client-go's (its store's List): compare per key.
	perKey := func(calls []string) map[string][]string {
		out := map[string][]string{}
		for _, c := range calls {
			var verb, rest string
			fmt.Sscan(c, &verb, &rest)
			out[rest[:1]] = append(out[rest[:1]], c)
		}
		return out
	}
	if got, want := perKey(ourCalls), perKey(refCalls); !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("handler calls\n ours      %q\n client-go %q", ourCalls, refCalls)
	}
	if !slices.Equal(ourRequests, refRequests) || slices.Contains(ourRequests, "list") {
		t.Errorf("requests %q, client-go's %q (want two watch-lists and no list)", ourRequests, refRequests)
	}
}

// A stream that ends before its initial events did is streamed again (not
// listed: the reflector saw the stream's first event); what the first one
// collected is forgotten.
func TestWatchListStreamCutShortIsStreamedAgain(t *testing.T) {
	streams := [][]watch.Event{
		{wlEvent(watch.Added, "a", "1"), wlEvent(watch.Added, "b", "2")},
		{wlEvent(watch.Added, "b", "3"), wlBookmark("3", true)},
	}
	e := &wlEndpoint{streams: streams}
	inf, err := NewSharedIndexInformer(NewListWatch[*corev1.Pod](e.List, e.Watch, nil), SharedIndexInformerOptions[*corev1.Pod]{})
	if err != nil {
		t.Fatal(err)
	}
	running := runInformer(t, context.Background(), inf)
	testwait.Until(t, 10*time.Second, "the first watch", func() bool { return len(e.log()) > 0 })
	e.mu.Lock()
	e.watchers[0].Stop() // the server ends the first stream early
	e.mu.Unlock()
	testwait.Until(t, 10*time.Second, "sync", inf.HasSynced)
	var got []string
	for _, p := range inf.TypedStore().List() {
		got = append(got, p.Name+"@"+p.ResourceVersion)
	}
	if !slices.Equal(got, []string{"b@3"}) {
		t.Errorf("store holds %q after the second stream, want only b@3", got)
	}
	if log := e.log(); !slices.Equal(log, []string{"watch-list", "watch-list"}) {
		t.Errorf("requests %q, want two watch-lists", log)
	}

	running.stop(t)
}

// An informer stopped while a stream's initial events are being collected
// stops the collecting goroutine with the watch (TestMain checks that no
// goroutine is left), and has not synced.
func TestWatchListStopWhileCollecting(t *testing.T) {
	e := &wlEndpoint{streams: [][]watch.Event{{wlEvent(watch.Added, "a", "1"), wlEvent(watch.Added, "b", "2")}}}
	inf, err := NewSharedIndexInformer(NewListWatch[*corev1.Pod](e.List, e.Watch, nil), SharedIndexInformerOptions[*corev1.Pod]{})
	if err != nil {
		t.Fatal(err)
	}
	running := runInformer(t, context.Background(), inf)
	testwait.Until(t, 10*time.Second, "the stream's events to be read", func() bool {
		e.mu.Lock()
		defer e.mu.Unlock()
		return len(e.watchers) == 1 && len(e.watchers[0].ResultChan()) == 0
	})
	running.stop(t)
	if inf.HasSynced() {
		t.Error("HasSynced() = true without the bookmark that ends the initial events")
	}
}

// With client-go's watch-list consistency detector on, the reflector keeps
// the stream's objects itself (the detector compares them with a LIST), and
// the informer still syncs them.
func TestWatchListWithConsistencyDetector(t *testing.T) {
	t.Cleanup(consistencydetector.SetDataConsistencyDetectionForWatchListEnabledForTest(true))
	// The detector sorts both sides by UID, which real objects always have.
	pod := func(name, rv string) *corev1.Pod {
		p := fifoPod(name, rv)
		p.UID = types.UID("uid-" + name)
		return p
	}
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "2"}, Items: []corev1.Pod{*pod("a", "1"), *pod("b", "2")}}
	streams := [][]watch.Event{{
		{Type: watch.Added, Object: pod("a", "1")}, {Type: watch.Added, Object: pod("b", "2")}, wlBookmark("2", true),
	}}
	_, store, requests := wlRun(t, true, streams, list, 2)
	if !slices.Equal(store, []string{"a@1", "b@2"}) {
		t.Errorf("store holds %q, want a@1 and b@2", store)
	}
	if !slices.Equal(requests, []string{"watch-list", "list"}) {
		t.Errorf("requests %q, want the watch-list and the detector's list", requests)
	}
}

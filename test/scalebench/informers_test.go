package scalebench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	clientcache "k8s.io/client-go/tools/cache"

	corev1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/eventcount"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/runner"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

type pod = *corev1.Pod

// Index names: the indexes of runtime/cache's benchmarks.
const (
	nsIndex   = "namespace"
	nodeIndex = "node"
	appIndex  = "app"
)

// path is one way an informer syncs: by LIST then WATCH, or by a watch-list
// stream. client is what both ListerWatchers are built over
// (cache.NewListWatch's client argument, client-go's
// ToListWatcherWithWatchListSemantics); it decides, with client-go's
// WatchListClient feature, whether the reflector streams.
type path struct {
	name   string
	client func(kubernetes.Interface) any
	want   requests // the requests of one sync
}

// noWatchList is a clientset that says it does not support watch-list
// semantics, so that client-go's reflector lists even with the WatchListClient
// feature on.
type noWatchList struct{ kubernetes.Interface }

func (noWatchList) IsWatchListSemanticsUnSupported() bool { return true }

var paths = []path{
	{
		name:   "sync-list",
		client: func(cs kubernetes.Interface) any { return noWatchList{cs} },
		want:   requests{lists: 1, watches: 1},
	},
	{
		name:   "sync-watchlist",
		client: func(cs kubernetes.Interface) any { return cs },
		want:   requests{watchLists: 1},
	},
}

// informer is one informer, built and not started.
type informer struct {
	run    func(context.Context) // Run; returns once every goroutine it started has
	synced func() bool           // the informer's and the handler registration's HasSynced
	keys   func() []string       // the keys of the cached objects
}

// side builds an informer over the pods of cs, with client deciding
// watch-list support, the three indexes and c as its one handler.
type side struct {
	name  string
	build func(cs kubernetes.Interface, client any, c *eventcount.Counter) (informer, error)
}

var sides = []side{{"ours", buildOurs}, {"ours-interned", buildOursInterned}, {"clientgo", buildClientGo}}

// informerOf is the informer inf, both sides' informers implementing
// client-go's interface, with reg its handler's registration.
func informerOf(inf clientcache.SharedIndexInformer, reg clientcache.ResourceEventHandlerRegistration) informer {
	return informer{
		run:    inf.RunWithContext,
		synced: func() bool { return inf.HasSynced() && reg.HasSynced() },
		keys:   inf.GetStore().ListKeys,
	}
}

// buildOurs builds this project's informer as the generated informers do:
// over cache.NewClientListWatch of the typed client.
func buildOurs(cs kubernetes.Interface, client any, c *eventcount.Counter) (informer, error) {
	return buildOursWith(cs, client, c, nil)
}

// buildOursWith is buildOurs with intern, when not nil, set on the informer.
func buildOursWith(cs kubernetes.Interface, client any, c *eventcount.Counter, intern cache.InternFunc[pod]) (informer, error) {
	pods := cs.CoreV1().Pods(metav1.NamespaceAll)
	lw := cache.NewClientListWatch[pod](pods, "pods", nil, client)
	inf, err := cache.NewSharedIndexInformer(lw, cache.SharedIndexInformerOptions[pod]{
		Indexers: cache.Indexers[pod]{
			nsIndex:   func(p pod) []string { return []string{p.Namespace} },
			nodeIndex: func(p pod) []string { return []string{p.Spec.NodeName} },
		},
	})
	if err != nil {
		return informer{}, err
	}
	if err := inf.SetTypedIntern(intern); err != nil {
		return informer{}, err
	}
	if err := inf.TypedStore().AddLabelIndex(appIndex, "app"); err != nil {
		return informer{}, err
	}
	reg, err := inf.AddTypedEventHandler(eventcount.TypedHandler[pod](c))
	if err != nil {
		return informer{}, err
	}
	return informerOf(inf, reg), nil
}

// buildOursInterned is buildOurs with the generated interning of pods set,
// as a factory generated with --with-interning sets it on its informers.
func buildOursInterned(cs kubernetes.Interface, client any, c *eventcount.Counter) (informer, error) {
	return buildOursWith(cs, client, c, corev1listers.InternPodUpdate)
}

// buildClientGo builds client-go's informer as its generated informers do:
// over a ListWatch of the typed client's List and Watch, wrapped by
// ToListWatcherWithWatchListSemantics.
func buildClientGo(cs kubernetes.Interface, client any, c *eventcount.Counter) (informer, error) {
	pods := cs.CoreV1().Pods(metav1.NamespaceAll)
	lw := clientcache.ToListWatcherWithWatchListSemantics(&clientcache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (k8sruntime.Object, error) {
			return pods.List(ctx, opts)
		},
		WatchFuncWithContext: pods.Watch,
	}, client)
	inf := clientcache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, clientcache.Indexers{
		nsIndex: clientcache.MetaNamespaceIndexFunc,
		nodeIndex: func(obj any) ([]string, error) {
			return []string{obj.(pod).Spec.NodeName}, nil
		},
		appIndex: func(obj any) ([]string, error) {
			if v, ok := obj.(pod).Labels["app"]; ok {
				return []string{v}, nil
			}
			return nil, nil
		},
	})
	reg, err := inf.AddEventHandler(eventcount.Handler[pod](c))
	if err != nil {
		return informer{}, err
	}
	return informerOf(inf, reg), nil
}

// runSynced builds sd's informer for p over srv (whose clientset is cs),
// runs it until tb ends, and returns it once it has synced and holds what the
// server listed, with the counter of its handler.
func runSynced(tb testing.TB, srv *server, cs kubernetes.Interface, bd *bodies, p path, sd side) (informer, *eventcount.Counter) {
	tb.Helper()
	c := eventcount.New(bd.n)
	inf, err := sd.build(cs, p.client(cs), c)
	if err != nil {
		tb.Fatal(err)
	}
	r := start(inf)
	tb.Cleanup(r.Stop)
	if err := waitSynced(inf, c); err != nil {
		tb.Fatal(err)
	}
	if err := checkSynced(srv, p, inf, bd); err != nil {
		tb.Fatal(err)
	}
	return inf, c
}

// start runs inf until the returned Running is stopped.
func start(inf informer) *runner.Running { return runner.Start(inf.run) }

// timeout bounds every wait, so that a broken path fails instead of hanging.
const timeout = 10 * time.Minute

// waitSynced waits until the handler has received every add of the initial
// sync and both HasSynced report true.
func waitSynced(inf informer, c *eventcount.Counter) error {
	select {
	case <-c.AddsDone():
	case <-time.After(timeout):
		return fmt.Errorf("%d of %d adds after %v", c.Adds(), c.AddTarget(), timeout)
	}
	deadline := time.Now().Add(timeout)
	for !inf.synced() {
		if time.Now().After(deadline) {
			return errors.New("all adds delivered, HasSynced still false")
		}
		time.Sleep(10 * time.Microsecond)
	}
	return nil
}

// waitUpdates waits for the updsDone signal.
func waitUpdates(c *eventcount.Counter) error {
	select {
	case <-c.UpdatesDone():
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("%d updates, want %d, after %v", c.Updates(), c.UpdateTarget(), timeout)
	}
}

// checkSynced reports an error unless the server got exactly the requests
// of one sync by p and inf holds exactly the pods of b.
// The WATCH after a LIST may reach the server after the sync, so the counts
// are awaited (for at most a few seconds) before they are compared.
func checkSynced(s *server, p path, inf informer, b *bodies) error {
	deadline := time.Now().Add(5 * time.Second)
	for s.requests() != p.want && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := s.requests(); got != p.want {
		return fmt.Errorf("%s: server got %v, want %v", p.name, got, p.want)
	}
	keys := inf.keys()
	if len(keys) != b.n {
		return fmt.Errorf("%s: informer holds %d pods, want %d", p.name, len(keys), b.n)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, b.keys) {
		return fmt.Errorf("%s: informer's keys differ from the served pods'", p.name)
	}
	return nil
}

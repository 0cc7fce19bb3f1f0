package informers

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
)

const internTestTimeout = 10 * time.Second

// internableInformer is a minimal informer with SetIntern: it records the
// functions the factory sets. Only SetIntern is called on it (the embedded
// interface is nil).
type internableInformer struct {
	clientcache.SharedIndexInformer
	set []func(obj, old any)
}

func (i *internableInformer) SetIntern(fn func(obj, old any)) error {
	i.set = append(i.set, fn)
	return nil
}

// internProbe is an intern function that records the objects it is called
// with, and notifies every call.
type internProbe struct {
	name    string
	mu      sync.Mutex
	objs    []any
	olds    []any
	changed chan struct{} // gets a value (without blocking) on each call
}

func newInternProbe(name string) *internProbe {
	return &internProbe{name: name, changed: make(chan struct{}, 1)}
}

func (p *internProbe) intern(obj, old any) {
	p.mu.Lock()
	p.objs = append(p.objs, obj)
	p.olds = append(p.olds, old)
	p.mu.Unlock()
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

func (p *internProbe) calls() (objs, olds []any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]any(nil), p.objs...), append([]any(nil), p.olds...)
}

// waitCalls waits until p has been called n times, and returns the calls.
func (p *internProbe) waitCalls(t *testing.T, n int) (objs, olds []any) {
	t.Helper()
	timeout := time.After(internTestTimeout)
	for {
		objs, olds := p.calls()
		if len(objs) >= n {
			return objs, olds
		}
		select {
		case <-p.changed:
		case <-timeout:
			t.Fatalf("timed out waiting for %d calls of intern function %s; got %d", n, p.name, len(objs))
		}
	}
}

// WithIntern makes InformerFor call SetIntern on an informer that has it,
// with a function that calls the one given; the last WithIntern wins, and
// without one (or after WithIntern(nil)) SetIntern is not given a function.
func TestWithInternSetsInterningOnInformersThatHaveIt(t *testing.T) {
	f1, f2 := newInternProbe("f1"), newInternProbe("f2")
	for _, tc := range []struct {
		name    string
		options []Option
		want    *internProbe // nil: interning off
	}{
		{"no option", nil, nil},
		{"WithIntern(f1)", []Option{WithIntern(f1.intern)}, f1},
		{"WithIntern(f1), WithIntern(nil)", []Option{WithIntern(f1.intern), WithIntern(nil)}, nil},
		{"WithIntern(nil), WithIntern(f1)", []Option{WithIntern(nil), WithIntern(f1.intern)}, f1},
		{"WithIntern(f1), WithIntern(f2)", []Option{WithIntern(f1.intern), WithIntern(f2.intern)}, f2},
		{"WithIntern(nil)", []Option{WithIntern(nil)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inf := &internableInformer{}
			f := NewFactory(0, tc.options...)
			if got := f.InformerFor(&corev1.Pod{}, func(time.Duration) clientcache.SharedIndexInformer { return inf }); got != inf {
				t.Fatalf("InformerFor returned %T, not the informer built", got)
			}
			// A second InformerFor returns the same informer and sets
			// nothing again.
			f.InformerFor(&corev1.Pod{}, func(time.Duration) clientcache.SharedIndexInformer {
				t.Error("InformerFor built a second informer")
				return &internableInformer{}
			})
			var set []func(obj, old any)
			for _, fn := range inf.set {
				if fn != nil {
					set = append(set, fn)
				}
			}
			if tc.want == nil {
				if len(set) != 0 {
					t.Fatalf("SetIntern was given %d functions, want none", len(set))
				}
				return
			}
			if len(set) != 1 {
				t.Fatalf("SetIntern was given %d functions, want 1", len(set))
			}
			b1, _ := f1.calls()
			b2, _ := f2.calls()
			obj, old := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "new"}}, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "old"}}
			set[0](obj, old)
			objs, olds := tc.want.calls()
			if len(objs) == 0 || objs[len(objs)-1] != any(obj) || olds[len(olds)-1] != any(old) {
				t.Errorf("the function set did not call %s with (obj, old)", tc.want.name)
			}
			for p, before := range map[*internProbe]int{f1: len(b1), f2: len(b2)} {
				if objs, _ := p.calls(); p != tc.want && len(objs) != before {
					t.Errorf("the function set called %s, which a later option replaced", p.name)
				}
			}
		})
	}
}

// watchSignal wraps a typed client's Watch: the returned channel gets a
// value each time a watch is in place. The fake clientset delivers the
// changes made after that.
func watchSignal(watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error)) (func(context.Context, metav1.ListOptions) (watch.Interface, error), <-chan struct{}) {
	watching := make(chan struct{}, 100)
	return func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
		w, err := watchFn(ctx, o)
		select {
		case watching <- struct{}{}:
		default:
		}
		return w, err
	}, watching
}

// internFactory is a factory with opts over client, holding a pod informer
// built by NewInformer and a client-go ConfigMap informer (which cannot
// intern), started and synced. The second value is a channel told each time
// the pod informer's watch is in place.
func internFactory(t *testing.T, client kubernetes.Interface, opts ...Option) (f *Factory, pods, configMaps clientcache.SharedIndexInformer, podsWatching <-chan struct{}) {
	t.Helper()
	f = NewFactory(0, opts...)
	pods = f.InformerFor(&corev1.Pod{}, func(resync time.Duration) clientcache.SharedIndexInformer {
		api := client.CoreV1().Pods("")
		var watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error)
		watchFn, podsWatching = watchSignal(api.Watch)
		return NewInformer[*corev1.Pod](api.List, watchFn, client, podsGVR, InformerOptions{ResyncPeriod: resync})
	})
	configMaps = f.InformerFor(&corev1.ConfigMap{}, func(resync time.Duration) clientcache.SharedIndexInformer {
		cms := client.CoreV1().ConfigMaps("")
		lw := clientcache.ToListWatcherWithWatchListSemantics(&clientcache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
				return cms.List(ctx, o)
			},
			WatchFuncWithContext: cms.Watch,
		}, client)
		return clientcache.NewSharedIndexInformer(lw, &corev1.ConfigMap{}, resync, clientcache.Indexers{})
	})
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(func() { cancel(); f.Shutdown() })
	f.StartWithContext(ctx)
	if err := f.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		t.Fatal(err)
	}
	return f, pods, configMaps, podsWatching
}

// With WithIntern, an informer built by NewInformer calls the function on
// every object it caches, after the factory's transform: first with the
// listed pod and a nil *Pod, then, for an update, with the new version and
// the cached one. A client-go informer in the same factory is left alone,
// and still caches its objects.
func TestWithInternReachesRuntimeInformersOnly(t *testing.T) {
	client := fake.NewClientset(
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p", Labels: map[string]string{"v": "1"}}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "c"}},
	)
	probe := newInternProbe("f")
	transformed := func(obj any) (any, error) {
		if p, ok := obj.(*corev1.Pod); ok {
			p = p.DeepCopy()
			p.Annotations = map[string]string{"transformed": "true"}
			return p, nil
		}
		return obj, nil
	}
	_, pods, configMaps, watching := internFactory(t, client, WithTransform(transformed), WithIntern(probe.intern))

	objs, olds := probe.waitCalls(t, 1)
	cachedObj, ok, err := pods.GetIndexer().GetByKey("a/p")
	if err != nil || !ok {
		t.Fatalf("the pod informer does not hold a/p: %v, %v", ok, err)
	}
	cached := cachedObj.(*corev1.Pod)
	if p, isPod := objs[0].(*corev1.Pod); !isPod || p != cached {
		t.Errorf("the intern function got %T %v, not the object cached", objs[0], objs[0])
	} else if p.Annotations["transformed"] != "true" {
		t.Error("the intern function got the object before the factory's transform")
	}
	if old, isPod := olds[0].(*corev1.Pod); !isPod || old != nil {
		t.Errorf("the intern function got old %#v for a listed object, want a nil *Pod", olds[0])
	}

	select {
	case <-watching:
	case <-time.After(internTestTimeout):
		t.Fatal("timed out waiting for the pod informer to watch")
	}
	updated := cached.DeepCopy()
	updated.Labels = map[string]string{"v": "2"}
	updated.Annotations = nil
	if _, err := client.CoreV1().Pods("a").Update(t.Context(), updated, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	objs, olds = probe.waitCalls(t, 2)
	if p, isPod := objs[1].(*corev1.Pod); !isPod || p.Labels["v"] != "2" {
		t.Errorf("the intern function got %#v for the update, want the pod with v=2", objs[1])
	}
	if olds[1] != any(cached) {
		t.Errorf("the intern function got old %p for the update, not the cached version %p", olds[1], cached)
	}
	testwait.Until(t, internTestTimeout, "the update to reach the cache", func() bool {
		obj, ok, _ := pods.GetIndexer().GetByKey("a/p")
		return ok && obj == objs[1]
	})

	for _, obj := range objs {
		if _, isPod := obj.(*corev1.Pod); !isPod {
			t.Errorf("the intern function got a %T: the client-go informer interned", obj)
		}
	}
	if keys := configMaps.GetStore().ListKeys(); !reflect.DeepEqual(keys, []string{"a/c"}) {
		t.Errorf("the client-go informer holds %v, want [a/c]", keys)
	}
	if _, ok := configMaps.(internable); ok {
		t.Errorf("%T has SetIntern: the test does not cover informers without it", configMaps)
	}
}

// WithIntern(nil) after WithIntern(f) turns interning off: f is never
// called, while the informers cache and update their objects.
func TestWithInternNilTurnsInterningOff(t *testing.T) {
	client := fake.NewClientset(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "p"}})
	probe := newInternProbe("f")
	_, pods, _, watching := internFactory(t, client, WithIntern(probe.intern), WithIntern(nil))
	select {
	case <-watching:
	case <-time.After(internTestTimeout):
		t.Fatal("timed out waiting for the pod informer to watch")
	}
	if _, err := client.CoreV1().Pods("a").Create(t.Context(), &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "q"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, internTestTimeout, "the new pod to reach the cache", func() bool {
		_, ok, _ := pods.GetIndexer().GetByKey("a/q")
		return ok
	})
	if objs, _ := probe.calls(); len(objs) != 0 {
		var got []string
		for _, obj := range objs {
			got = append(got, fmt.Sprintf("%T", obj))
			if p, ok := obj.(*corev1.Pod); ok {
				got[len(got)-1] += " " + p.Namespace + "/" + p.Name
			}
		}
		t.Errorf("the intern function was called after WithIntern(nil), with %q", got)
	}
}

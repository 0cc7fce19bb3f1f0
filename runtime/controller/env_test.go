package controller

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/fakewatch"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// testEnv is a fake clientset with running informers of ConfigMaps (the
// primary kind of the tests) and Secrets (a secondary kind).
type testEnv struct {
	t          *testing.T
	client     *fake.Clientset
	configMaps *cache.SharedIndexInformer[*corev1.ConfigMap]
	secrets    *cache.SharedIndexInformer[*corev1.Secret]
	watching   []<-chan struct{} // closed once the informers watch
}

// configMapKind identifies ConfigMaps in owner references.
var configMapKind = schema.GroupKind{Kind: "ConfigMap"}

// secretIndex indexes ConfigMaps by the Secret their "secret" key names.
const secretIndex = "bySecret"

func newTestEnv(t *testing.T, objects ...*corev1.ConfigMap) *testEnv {
	t.Helper()
	client := fake.NewClientset()
	for _, cm := range objects {
		if _, err := client.CoreV1().ConfigMaps(cm.Namespace).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	cms := client.CoreV1().ConfigMaps("")
	secrets := client.CoreV1().Secrets("")
	return &testEnv{
		t:        t,
		client:   client,
		watching: []<-chan struct{}{fakewatch.Started(client, "configmaps"), fakewatch.Started(client, "secrets")},
		configMaps: must(cache.NewSharedIndexInformer(cache.NewListWatch[*corev1.ConfigMap](cms.List, cms.Watch, client),
			cache.SharedIndexInformerOptions[*corev1.ConfigMap]{Indexers: cache.Indexers[*corev1.ConfigMap]{
				secretIndex: func(cm *corev1.ConfigMap) []string {
					if s, ok := cm.Data["secret"]; ok {
						return []string{s}
					}
					return nil
				},
			}})),
		secrets: must(cache.NewSharedIndexInformer(cache.NewListWatch[*corev1.Secret](secrets.List, secrets.Watch, client),
			cache.SharedIndexInformerOptions[*corev1.Secret]{})),
	}
}

// primary is the primary kind of the tests.
func (e *testEnv) primary(predicates ...Predicate[*corev1.ConfigMap]) Primary[*corev1.ConfigMap] {
	return Primary[*corev1.ConfigMap]{Informer: e.configMaps, GroupKind: configMapKind, Namespaced: true, Predicates: predicates}
}

// run starts the informers and c, waits until the informers watch (so that
// every later write reaches them), and returns a function that stops them
// and returns Run's error.
func (e *testEnv) run(c *Controller[*corev1.ConfigMap]) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	var informers sync.WaitGroup
	informers.Go(func() { e.configMaps.RunWithContext(ctx) })
	informers.Go(func() { e.secrets.RunWithContext(ctx) })
	runErr := make(chan error, 1)
	go func() { runErr <- c.Run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			err = <-runErr
			informers.Wait()
		})
		return err
	}
	e.t.Cleanup(func() { _ = stop() })
	for _, w := range e.watching {
		select {
		case <-w:
		case <-time.After(10 * time.Second):
			e.t.Fatal("the informers did not start watching")
		}
	}
	return stop
}

func (e *testEnv) create(cm *corev1.ConfigMap) {
	e.t.Helper()
	if _, err := e.client.CoreV1().ConfigMaps(cm.Namespace).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *testEnv) update(cm *corev1.ConfigMap) {
	e.t.Helper()
	if _, err := e.client.CoreV1().ConfigMaps(cm.Namespace).Update(context.Background(), cm, metav1.UpdateOptions{}); err != nil {
		e.t.Fatal(err)
	}
}

func configMap(namespace, name string, labels map[string]string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: labels}, Data: data}
}

// fastRetries backs off from 5 ms to 50 ms, so retry tests run quickly.
func fastRetries() workqueue.TypedRateLimiter[cache.ObjectName] {
	return workqueue.NewTypedItemExponentialFailureRateLimiter[cache.ObjectName](5*time.Millisecond, 50*time.Millisecond)
}

// recorder is a Reconciler that records every call and answers with fn.
type recorder struct {
	mu    sync.Mutex
	calls []call
	fn    func(ctx context.Context, key cache.ObjectName, attempt int) (Result, error)
	seen  chan cache.ObjectName // receives every reconciled key, when not nil
}

// call is one Reconcile call.
type call struct {
	key cache.ObjectName
	at  time.Time
}

func newRecorder(fn func(ctx context.Context, key cache.ObjectName, attempt int) (Result, error)) *recorder {
	return &recorder{fn: fn, seen: make(chan cache.ObjectName, 1000)}
}

func (r *recorder) Reconcile(ctx context.Context, key cache.ObjectName) (Result, error) {
	r.mu.Lock()
	r.calls = append(r.calls, call{key: key, at: time.Now()})
	attempt := len(r.callsOf(key))
	r.mu.Unlock()
	defer func() { r.seen <- key }()
	if r.fn == nil {
		return Result{}, nil
	}
	return r.fn(ctx, key, attempt)
}

// callsOf returns the calls for key; r.mu must be held.
func (r *recorder) callsOf(key cache.ObjectName) []call {
	var out []call
	for _, c := range r.calls {
		if c.key == key {
			out = append(out, c)
		}
	}
	return out
}

// times returns when key was reconciled.
func (r *recorder) times(key cache.ObjectName) []time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []time.Time
	for _, c := range r.callsOf(key) {
		out = append(out, c.at)
	}
	return out
}

// keys returns the distinct reconciled keys, sorted.
func (r *recorder) keys() []cache.ObjectName {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []cache.ObjectName
	for _, c := range r.calls {
		if !slices.Contains(out, c.key) {
			out = append(out, c.key)
		}
	}
	slices.SortFunc(out, func(a, b cache.ObjectName) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// waitFor waits until key has been reconciled n times in all, failing the
// test after 10 seconds.
func (r *recorder) waitFor(t *testing.T, key cache.ObjectName, n int) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for len(r.times(key)) < n {
		select {
		case <-r.seen:
		case <-deadline:
			t.Fatalf("%v reconciled %d times, want %d", key, len(r.times(key)), n)
		}
	}
}

// isStarted reports whether Run has been called.
func (c *Controller[T]) isStarted() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state != configured
}

// eventually waits until cond holds, failing the test after 10 seconds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Until(t, 10*time.Second, what, cond)
}

// countingInformer counts the event handlers registered on an informer and
// not removed yet.
type countingInformer[T cache.Object] struct {
	clientcache.TypedSharedIndexInformer[T]
	mu   sync.Mutex
	regs map[clientcache.ResourceEventHandlerRegistration]bool
}

func counting[T cache.Object](informer clientcache.TypedSharedIndexInformer[T]) *countingInformer[T] {
	return &countingInformer[T]{TypedSharedIndexInformer: informer, regs: map[clientcache.ResourceEventHandlerRegistration]bool{}}
}

func (i *countingInformer[T]) AddTypedEventHandler(h clientcache.TypedResourceEventHandler[T], options ...clientcache.HandlerOptions) (clientcache.ResourceEventHandlerRegistration, error) {
	reg, err := i.TypedSharedIndexInformer.AddTypedEventHandler(h, options...)
	if err == nil {
		i.mu.Lock()
		i.regs[reg] = true
		i.mu.Unlock()
	}
	return reg, err
}

func (i *countingInformer[T]) RemoveEventHandler(reg clientcache.ResourceEventHandlerRegistration) error {
	err := i.TypedSharedIndexInformer.RemoveEventHandler(reg)
	if err == nil {
		i.mu.Lock()
		delete(i.regs, reg)
		i.mu.Unlock()
	}
	return err
}

// handlers returns the number of handlers registered and not removed.
func (i *countingInformer[T]) handlers() int {
	i.mu.Lock()
	defer i.mu.Unlock()
	return len(i.regs)
}

// nameSeq makes uniqueName's names unique in the test process, also when
// the tests run several times in it (go test -count).
var nameSeq atomic.Int64

// uniqueName returns base with a suffix no other call returned: a name no
// other controller of the process has.
func uniqueName(base string) string {
	return fmt.Sprintf("%s-%d", base, nameSeq.Add(1))
}

package cache

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/wire"
)

// ListWatch lists and watches the objects of one resource, for a Reflector. T
// is the object type the list holds; the reflector rejects objects of any other
// type (docs/clientgo-semantics.md#type-checks).
type ListWatch[T Object] struct {
	lw     *cache.ListWatch
	client any
	// shared says that the objects lw returns may be held by others too:
	// those of a typed client without a REST client, such as a fake
	// clientset's, whose object tracker hands a new watch the very objects
	// it stores. An informer that interns, which writes objects in place,
	// copies such objects as they enter its queue.
	shared bool
}

// NewListWatch returns a ListWatch over a typed client's List and Watch
// methods, for example those of clientset.CoreV1().Pods(namespace). client is
// the clientset (or nil): client-go asks it whether it supports watch-list
// streaming (cache.ToListWatcherWithWatchListSemantics); fake clientsets say
// they do not. The objects list and watch return become the informer's: its
// transform and its interning change them in place, as client-go's
// transform does, so they must be held by no one else (client-go's REST
// clients decode new objects for every call; for a fake clientset, use
// NewClientListWatch).
func NewListWatch[T Object, L runtime.Object](
	list func(context.Context, metav1.ListOptions) (L, error),
	watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error),
	client any,
) *ListWatch[T] {
	return &ListWatch[T]{
		lw: &cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				return list(ctx, opts)
			},
			WatchFuncWithContext: watchFn,
		},
		client: client,
	}
}

// listerWatcher is what client-go's reflector consumes.
func (lw *ListWatch[T]) listerWatcher() cache.ListerWatcher {
	return cache.ToListWatcherWithWatchListSemantics(lw.lw, lw.client)
}

// TypedClient is the part of a typed client (such as
// clientset.CoreV1().Pods(namespace)) a ListWatch uses.
type TypedClient[L runtime.Object] interface {
	List(context.Context, metav1.ListOptions) (L, error)
	Watch(context.Context, metav1.ListOptions) (watch.Interface, error)
}

// restClient is what client-go's generated typed clients (gentype.Client)
// tell of themselves: their REST client and namespace.
type restClient interface {
	GetClient() rest.Interface
	GetNamespace() string
}

// NewClientListWatch returns a ListWatch over api, a typed client of the
// resource named resource (such as clientset.CoreV1().Pods(namespace) and
// "pods"), with tweak (when not nil) applied to the options of every
// request. client is as for NewListWatch.
//
// When api is one of client-go's generated typed clients (it has a REST
// client: GetClient), the ListWatch sends the requests api sends, through
// api's server and transport, and decodes the responses itself, on several
// goroutines while they are read, into the objects api would return: a
// LIST into an *wire.ItemList[T], a watch into the events of client-go's
// stream watcher. What it decodes, and what it leaves to client-go's
// decoder, is package wire's contract. Otherwise (fake clientsets have no
// REST client) lists and watches go to api.List and api.Watch, and an
// informer that interns copies the objects they return before it interns
// them: a fake clientset's watch can hand out the objects its object
// tracker stores, which the tracker reads on every Get.
func NewClientListWatch[T Object, L runtime.Object](api TypedClient[L], resource string, tweak func(*metav1.ListOptions), client any) *ListWatch[T] {
	list := func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) { return api.List(ctx, opts) }
	watchFn := api.Watch
	rc, ok := api.(restClient)
	if ok {
		if fast := wire.NewList[T](rc.GetClient(), rc.GetNamespace(), resource, api.List); fast != nil {
			list = fast
		}
		if fast := wire.NewWatch[T](rc.GetClient(), rc.GetNamespace(), resource); fast != nil {
			watchFn = fast
		}
	}
	if tweak != nil {
		list0, watch0 := list, watchFn
		list = func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			tweak(&opts)
			return list0(ctx, opts)
		}
		watchFn = func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			tweak(&opts)
			return watch0(ctx, opts)
		}
	}
	return &ListWatch[T]{
		lw:     &cache.ListWatch{ListWithContextFunc: list, WatchFuncWithContext: watchFn},
		client: client,
		shared: !ok,
	}
}

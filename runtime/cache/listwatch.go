package cache

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

// ListWatch lists and watches the objects of one resource, for a Reflector. T
// is the object type the list holds; the reflector rejects objects of any other
// type (docs/clientgo-semantics.md#type-checks).
type ListWatch[T Object] struct {
	lw     *cache.ListWatch
	client any
}

// NewListWatch returns a ListWatch over a typed client's List and Watch
// methods, for example those of clientset.CoreV1().Pods(namespace). client is
// the clientset (or nil): client-go asks it whether it supports watch-list
// streaming (cache.ToListWatcherWithWatchListSemantics); fake clientsets say
// they do not.
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
// client: GetClient), the ListWatch decodes responses itself, on several
// goroutines, into the objects api would return:
//
//   - lists: it sends the LIST request api.List sends, through api's REST
//     client, and decodes the items while the body is still being read, on
//     up to GOMAXPROCS goroutines, into an *ItemList[T]: from protobuf with
//     T's generated protobuf code (when T has Unmarshal), from JSON as
//     apimachinery's JSON serializer would. Answers in another encoding,
//     of another kind, or that it does not decode exactly as the typed
//     client would (a JSON list with a member in another case, or
//     repeated), and requests that fail before an answer are listed again
//     through api.List (after an answer in another encoding, every list
//     goes there);
//   - watches, of any API type: it watches through a REST client of its
//     own with api's server, path and HTTP client, asking for protobuf
//     (when T has generated protobuf code) or JSON (custom resources), with
//     client-go's Request.Watch and stream watcher; only the decoding of
//     the events is its own, on up to four goroutines, in the order of the
//     stream, with T's generated protobuf code or apimachinery's JSON
//     serializer. After a server answered in neither, every watch goes
//     through api.Watch.
//
// Otherwise (fake clientsets have no REST client) lists and watches go to
// api.List and api.Watch.
func NewClientListWatch[T Object, L runtime.Object](api TypedClient[L], resource string, tweak func(*metav1.ListOptions), client any) *ListWatch[T] {
	list := func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) { return api.List(ctx, opts) }
	watchFn := api.Watch
	if rc, ok := api.(restClient); ok {
		if fast := newRESTList[T](rc.GetClient(), rc.GetNamespace(), resource, api.List); fast != nil {
			list = fast
		}
		if fast := newRESTWatch[T](rc.GetClient(), rc.GetNamespace(), resource, api.Watch); fast != nil {
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
	}
}

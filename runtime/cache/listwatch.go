package cache

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
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

package informers

import (
	"context"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// InformerOptions are the options of a generated NewKindInformerWithOptions
// constructor, as informer-gen's.
type InformerOptions struct {
	// ResyncPeriod is the informer's default resync period; zero: none.
	ResyncPeriod time.Duration
	// Indexers are added to the informer's store, beside the kind's generated
	// indexes.
	Indexers clientcache.Indexers
	// InformerName, when set, names the informer in client-go's informer
	// metrics (see cache.NewInformerName).
	InformerName *clientcache.InformerName
	// TweakListOptions, when set, changes the options of every list and
	// watch.
	TweakListOptions TweakListOptionsFunc
}

// NewInformer returns a new, not started informer of the resource gvr over a
// typed client's List and Watch methods (such as those of
// clientset.CoreV1().Pods(namespace)), configured by options. client is the
// clientset, asked whether it supports watch-list streaming.
//
// An index of options.Indexers whose name is already taken, or that has no
// function, is reported through utilruntime.HandleError and not added: the
// constructors generated from this one return no error, as informer-gen's.
func NewInformer[T cache.Object, L runtime.Object](
	list func(context.Context, metav1.ListOptions) (L, error),
	watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error),
	client any,
	gvr schema.GroupVersionResource,
	options InformerOptions,
) *cache.SharedIndexInformer[T] {
	return newInformer(cache.NewClientListWatch[T](clientFuncs[L]{list, watchFn}, gvr.Resource, options.TweakListOptions, client), gvr, options)
}

// clientFuncs is a typed client made of its List and Watch functions. It
// tells no REST client, so a ListWatch over it calls them as they are.
type clientFuncs[L runtime.Object] struct {
	list    func(context.Context, metav1.ListOptions) (L, error)
	watchFn func(context.Context, metav1.ListOptions) (watch.Interface, error)
}

func (c clientFuncs[L]) List(ctx context.Context, opts metav1.ListOptions) (L, error) {
	return c.list(ctx, opts)
}

func (c clientFuncs[L]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return c.watchFn(ctx, opts)
}

// NewClientInformer returns a new, not started informer of the resource gvr
// over api, a typed client (such as clientset.CoreV1().Pods(namespace)),
// configured by options, as NewInformer does over api's List and Watch. The
// difference is in decoding: over one of client-go's generated typed
// clients, the informer decodes LIST responses and watch streams itself, in
// protobuf (API types with generated protobuf code) or in JSON (custom
// resources), on several goroutines (cache.NewClientListWatch).
func NewClientInformer[T cache.Object, L runtime.Object](
	api cache.TypedClient[L],
	client any,
	gvr schema.GroupVersionResource,
	options InformerOptions,
) *cache.SharedIndexInformer[T] {
	return newInformer(cache.NewClientListWatch[T](api, gvr.Resource, options.TweakListOptions, client), gvr, options)
}

// newInformer returns a new, not started informer of gvr over lw.
func newInformer[T cache.Object](lw *cache.ListWatch[T], gvr schema.GroupVersionResource, options InformerOptions) *cache.SharedIndexInformer[T] {
	informer, err := cache.NewSharedIndexInformer(lw, cache.SharedIndexInformerOptions[T]{
		Name:         strings.TrimSuffix(gvr.Resource+"."+gvr.Version+"."+gvr.Group, "."),
		ResyncPeriod: options.ResyncPeriod,
		Identifier:   options.InformerName.WithResource(gvr),
	})
	if err != nil {
		// Only a nil ListWatch, an index without a function or a negative
		// queue size fail, and none of them is passed here.
		panic(fmt.Sprintf("informer of %s: %v", gvr.GroupResource(), err))
	}
	if len(options.Indexers) > 0 {
		if err := informer.AddIndexers(options.Indexers); err != nil {
			utilruntime.HandleError(fmt.Errorf("informer of %s: %w", gvr.GroupResource(), err))
		}
	}
	return informer
}

package gvrfactory

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
)

// Kind is what the informers of one object type T are built with. Every
// field is required.
type Kind[T cache.Object, N any] struct {
	// NewInformer returns a new, not started informer of gvr in namespace
	// (metav1.NamespaceAll: every namespace) configured by options. It
	// must not touch the client: standalone informers are built with a nil
	// one (see InformerFunc).
	NewInformer NewInformerFunc[T]
	// Compile turns index specs into index functions of T.
	Compile CompileFunc[T]
	// GenericLister returns client-go's generic lister over a lister of T
	// (the NewRuntimeObjectShim of client-go's lister package for T).
	GenericLister func(Lister[T, N]) clientcache.GenericLister
}

// NewInformerFunc returns a new, not started informer of gvr in namespace
// configured by options.
type NewInformerFunc[T cache.Object] func(gvr schema.GroupVersionResource, namespace string, options informers.InformerOptions) *cache.SharedIndexInformer[T]

// ResourceClient lists and watches one resource in one namespace, in lists
// of type L: what Resource(gvr).Namespace(namespace) of client-go's dynamic
// and metadata clients returns.
type ResourceClient[L runtime.Object] interface {
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// InformerFunc returns the NewInformerFunc of the informers of T over
// client, whose resource function returns the ResourceClient of a resource
// in a namespace. The informers call resource on every request, as
// client-go's informers ask their client, so that building one never
// touches client. client is asked whether it supports watch-list streaming
// (see informers.NewInformer).
func InformerFunc[T cache.Object, L runtime.Object](client any, resource func(gvr schema.GroupVersionResource, namespace string) ResourceClient[L]) NewInformerFunc[T] {
	return func(gvr schema.GroupVersionResource, namespace string, options informers.InformerOptions) *cache.SharedIndexInformer[T] {
		list := func(ctx context.Context, opts metav1.ListOptions) (L, error) {
			return resource(gvr, namespace).List(ctx, opts)
		}
		watchFn := func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return resource(gvr, namespace).Watch(ctx, opts)
		}
		return informers.NewInformer[T](list, watchFn, client, gvr, options)
	}
}

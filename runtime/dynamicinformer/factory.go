package dynamicinformer

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	clientgodynamicinformer "k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/dynamic/dynamiclister"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// DynamicSharedInformerFactory is client-go's factory interface, which
// Factory implements: code that declares variables and parameters of this
// type keeps compiling after switching packages.
type DynamicSharedInformerFactory = clientgodynamicinformer.DynamicSharedInformerFactory

// TweakListOptionsFunc changes the options of every list and watch of a
// factory's informers, for example to select by label. It is client-go's
// type, so functions of either package's type are accepted.
type TweakListOptionsFunc = clientgodynamicinformer.TweakListOptionsFunc

// Factory holds one shared informer of unstructured objects per
// GroupVersionResource, as client-go's dynamic factory does, and implements
// DynamicSharedInformerFactory. Its methods are safe for concurrent use:
//
//   - ForResource and Resource return the shared *ResourceInformer of a
//     resource, created on first use;
//   - Start and StartWithContext start the informers requested so far that
//     are not running (with WithDiscovery, those whose resource the server
//     serves; see the package documentation);
//   - WaitForCacheSync and WaitForCacheSyncWithContext wait for the started
//     informers to sync, never for one whose resource is not served;
//     WaitForCacheSyncStatus and SyncStatus say, per resource, where its
//     informer is (discovery.Status), and StartError which resources Start
//     could not start;
//   - Shutdown waits until every informer it started has stopped.
//
// The contracts are those of runtime/internal/factory/gvrfactory.Factory, shared
// with runtime/metadatainformer.
type Factory = gvrfactory.Factory[*unstructured.Unstructured, dynamiclister.NamespaceLister]

var _ DynamicSharedInformerFactory = (*Factory)(nil)

// NewDynamicSharedInformerFactory returns a factory of informers of every
// namespace whose handlers resync every defaultResync (zero: never).
func NewDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration) *Factory {
	return NewFilteredDynamicSharedInformerFactory(client, defaultResync, metav1.NamespaceAll, nil)
}

// NewFilteredDynamicSharedInformerFactory returns a factory of informers of
// namespace (metav1.NamespaceAll: every namespace) whose lists and watches
// tweakListOptions changes (when not nil).
func NewFilteredDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration, namespace string, tweakListOptions TweakListOptionsFunc) *Factory {
	return NewDynamicSharedInformerFactoryWithOptions(client, defaultResync, WithNamespace(namespace), WithTweakListOptions(tweakListOptions))
}

// NewDynamicSharedInformerFactoryWithOptions returns a factory of informers
// whose handlers resync every defaultResync (zero: never), configured by
// options, applied in order: the constructor for the options client-go's
// fixed parameter lists have no room for, such as WithTransform and
// WithDiscovery.
func NewDynamicSharedInformerFactoryWithOptions(client dynamic.Interface, defaultResync time.Duration, options ...SharedInformerOption) *Factory {
	return gvrfactory.New(kind(client), defaultResync, options...)
}

// Package consumer is everyday code written against informer-gen's and
// lister-gen's output: each use* function is one way operators and
// controllers use the generated informers, listers and factory. The
// compile-compatibility test builds this same file against informer-gen +
// lister-gen output and against informer-gen-plus output, and names every
// use* function that does not compile against one of them.
package consumer

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	compatv1 "example.dev/compat/apis/compat/v1"
	"example.dev/compat/generated/clientset/versioned"
	"example.dev/compat/generated/informers/externalversions"
	compatgroup "example.dev/compat/generated/informers/externalversions/compat"
	compatinformers "example.dev/compat/generated/informers/externalversions/compat/v1"
	"example.dev/compat/generated/informers/externalversions/internalinterfaces"
	compatlisters "example.dev/compat/generated/listers/compat/v1"
)

// Events records what event handlers saw, as sortable strings.
type Events struct {
	ch chan string
}

// NewEvents returns an empty recorder.
func NewEvents() *Events { return &Events{ch: make(chan string, 1000)} }

func (e *Events) add(format string, args ...any) { e.ch <- fmt.Sprintf(format, args...) }

// Drain returns the events recorded so far, sorted.
func (e *Events) Drain() []string {
	var out []string
	for {
		select {
		case s := <-e.ch:
			out = append(out, s)
		default:
			sort.Strings(out)
			return out
		}
	}
}

// Next waits up to timeout for the next event.
func (e *Events) Next(timeout time.Duration) (string, bool) {
	select {
	case s := <-e.ch:
		return s, true
	case <-time.After(timeout):
		return "", false
	}
}

// ---- factories ----

func useNewSharedInformerFactory(client versioned.Interface) externalversions.SharedInformerFactory {
	return externalversions.NewSharedInformerFactory(client, 10*time.Minute)
}

func useNewFilteredSharedInformerFactory(client versioned.Interface, namespace string) externalversions.SharedInformerFactory {
	return externalversions.NewFilteredSharedInformerFactory(client, time.Minute, namespace,
		func(opts *metav1.ListOptions) { opts.LabelSelector = "app=web" })
}

func useTweakListOptionsFunc(selector string) internalinterfaces.TweakListOptionsFunc {
	var tweak internalinterfaces.TweakListOptionsFunc = func(opts *metav1.ListOptions) {
		opts.LabelSelector = selector
	}
	return tweak
}

func useSharedInformerFactoryWithOptions(client versioned.Interface, namespace string, transform cache.TransformFunc) externalversions.SharedInformerFactory {
	opts := []externalversions.SharedInformerOption{
		externalversions.WithNamespace(namespace),
		externalversions.WithTweakListOptions(useTweakListOptionsFunc("")),
		externalversions.WithCustomResyncConfig(map[metav1.Object]time.Duration{&compatv1.Foo{}: time.Hour}),
	}
	if transform != nil {
		opts = append(opts, externalversions.WithTransform(transform))
	}
	return externalversions.NewSharedInformerFactoryWithOptions(client, 0, opts...)
}

func useWithInformerName(client versioned.Interface, name string) (externalversions.SharedInformerFactory, *cache.InformerName, error) {
	informerName, err := cache.NewInformerName(name)
	if err != nil {
		return nil, nil, err
	}
	f := externalversions.NewSharedInformerFactoryWithOptions(client, 0, externalversions.WithInformerName(informerName))
	return f, f.InformerName(), nil
}

func useFactoryAsInternalInterface(f externalversions.SharedInformerFactory) internalinterfaces.SharedInformerFactory {
	var internal internalinterfaces.SharedInformerFactory = f
	return internal
}

func useGroupVersionInterfaces(f externalversions.SharedInformerFactory) compatinformers.Interface {
	var group compatgroup.Interface = f.Compat()
	var version compatinformers.Interface = group.V1()
	return version
}

func useInformerFor(f externalversions.SharedInformerFactory, namespace string) cache.SharedIndexInformer {
	var newFunc internalinterfaces.NewInformerFunc = func(client versioned.Interface, resync time.Duration) cache.SharedIndexInformer {
		return compatinformers.NewFilteredFooInformer(client, namespace, resync,
			cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, nil)
	}
	return f.InformerFor(&compatv1.Foo{}, newFunc)
}

func useForResource(f externalversions.SharedInformerFactory, resource string) (externalversions.GenericInformer, error) {
	return f.ForResource(compatv1.SchemeGroupVersion.WithResource(resource))
}

func useGenericLister(gi externalversions.GenericInformer, namespace, name string) (int, error) {
	var lister cache.GenericLister = gi.Lister()
	all, err := lister.List(labels.Everything())
	if err != nil {
		return 0, err
	}
	if name != "" {
		if _, err := lister.ByNamespace(namespace).Get(name); err != nil {
			return 0, err
		}
	}
	var informer cache.SharedIndexInformer = gi.Informer()
	_ = informer
	return len(all), nil
}

func useStartAndWaitForCacheSync(f externalversions.SharedInformerFactory, stopCh <-chan struct{}) []string {
	f.Start(stopCh)
	var synced map[reflect.Type]bool = f.WaitForCacheSync(stopCh)
	var out []string
	for typ, ok := range synced {
		out = append(out, fmt.Sprintf("%v=%v", typ, ok))
	}
	sort.Strings(out)
	return out
}

func useStartWithContext(ctx context.Context, f externalversions.SharedInformerFactory) (cache.SyncResult, error) {
	f.StartWithContext(ctx)
	res := f.WaitForCacheSyncWithContext(ctx)
	return res, res.Err
}

func useShutdown(f externalversions.SharedInformerFactory, cancel context.CancelFunc) {
	cancel()
	f.Shutdown()
}

// ---- informers from the factory ----

func useFooInformerInterface(f externalversions.SharedInformerFactory) compatinformers.FooInformer {
	// As sample-controller's NewController takes it.
	var fi compatinformers.FooInformer = f.Compat().V1().Foos()
	return fi
}

func useTypedFooInformerInterface(f externalversions.SharedInformerFactory) compatinformers.TypedFooInformer {
	var fi compatinformers.TypedFooInformer = f.Compat().V1().Foos()
	return fi
}

func useInformerSynced(fi compatinformers.FooInformer) cache.InformerSynced {
	var synced cache.InformerSynced = fi.Informer().HasSynced
	return synced
}

func useAddEventHandlerFuncs(fi compatinformers.FooInformer, ev *Events) (cache.ResourceEventHandlerRegistration, error) {
	return fi.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			foo := obj.(*compatv1.Foo)
			ev.add("add %s/%s", foo.Namespace, foo.Name)
		},
		UpdateFunc: func(oldObj, newObj interface{}) {
			oldFoo, newFoo := oldObj.(*compatv1.Foo), newObj.(*compatv1.Foo)
			ev.add("update %s/%s %s->%s", newFoo.Namespace, newFoo.Name, oldFoo.Spec.DeploymentName, newFoo.Spec.DeploymentName)
		},
		DeleteFunc: func(obj interface{}) {
			ev.add("delete %s", useTombstone(obj))
		},
	})
}

// useTombstone is the delete-handler idiom of sample-controller: the object,
// or a cache.DeletedFinalStateUnknown that holds it.
func useTombstone(obj interface{}) string {
	switch t := obj.(type) {
	case *compatv1.Foo:
		return fmt.Sprintf("%s/%s", t.Namespace, t.Name)
	case cache.DeletedFinalStateUnknown:
		foo, ok := t.Obj.(*compatv1.Foo)
		if !ok {
			return fmt.Sprintf("tombstone %s holding %T", t.Key, t.Obj)
		}
		return fmt.Sprintf("tombstone %s (%s/%s)", t.Key, foo.Namespace, foo.Name)
	default:
		return fmt.Sprintf("unexpected %T", obj)
	}
}

func useTombstoneMetaObject(obj interface{}) (metav1.Object, bool) {
	object, ok := obj.(metav1.Object)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			return nil, false
		}
		object, ok = tombstone.Obj.(metav1.Object)
		if !ok {
			return nil, false
		}
	}
	return object, true
}

func useDeletionHandlingKey(obj interface{}) (string, error) {
	return cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
}

func useAddEventHandlerDetailedFuncs(fi compatinformers.FooInformer, ev *Events) (cache.ResourceEventHandlerRegistration, error) {
	return fi.Informer().AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj interface{}, isInInitialList bool) {
			ev.add("detailed add %s initial=%v", obj.(*compatv1.Foo).Name, isInInitialList)
		},
	})
}

func useFilteringResourceEventHandler(fi compatinformers.FooInformer, namespace string, ev *Events) (cache.ResourceEventHandlerRegistration, error) {
	return fi.Informer().AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj interface{}) bool {
			foo, ok := obj.(*compatv1.Foo)
			return ok && foo.Namespace == namespace
		},
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj interface{}) { ev.add("filtered add %s", obj.(*compatv1.Foo).Name) },
		},
	})
}

func useAddEventHandlerWithResyncPeriod(fi compatinformers.FooInformer) (cache.ResourceEventHandlerRegistration, error) {
	return fi.Informer().AddEventHandlerWithResyncPeriod(cache.ResourceEventHandlerFuncs{}, time.Minute)
}

func useAddEventHandlerWithOptions(fi compatinformers.FooInformer) (cache.ResourceEventHandlerRegistration, error) {
	logger := klog.Background().WithName("foos")
	resync := 30 * time.Second
	return fi.Informer().AddEventHandlerWithOptions(cache.ResourceEventHandlerFuncs{},
		cache.HandlerOptions{Logger: &logger, ResyncPeriod: &resync})
}

func useRemoveEventHandler(fi compatinformers.FooInformer, reg cache.ResourceEventHandlerRegistration) error {
	return fi.Informer().RemoveEventHandler(reg)
}

func useRegistrationHasSynced(reg cache.ResourceEventHandlerRegistration) (bool, cache.DoneChecker) {
	return reg.HasSynced(), reg.HasSyncedChecker()
}

func useHasSyncedChecker(ctx context.Context, fi compatinformers.FooInformer) bool {
	var checker cache.DoneChecker = fi.Informer().HasSyncedChecker()
	return cache.WaitFor(ctx, "foos", checker)
}

func useWaitForCacheSync(stopCh <-chan struct{}, fi compatinformers.FooInformer, bi compatinformers.BarInformer) bool {
	return cache.WaitForCacheSync(stopCh, fi.Informer().HasSynced, bi.Informer().HasSynced)
}

func useWaitForNamedCacheSync(ctx context.Context, fi compatinformers.FooInformer) bool {
	return cache.WaitForNamedCacheSyncWithContext(ctx, fi.Informer().HasSynced)
}

func useTypedEventHandler(f externalversions.SharedInformerFactory, ev *Events) (cache.ResourceEventHandlerRegistration, error) {
	var ti compatinformers.FooIndexInformer = f.Compat().V1().Foos().TypedInformer()
	return ti.AddTypedEventHandler(compatinformers.FooHandlerFuncs{
		AddFunc: func(foo *compatv1.Foo) { ev.add("typed add %s/%s", foo.Namespace, foo.Name) },
		UpdateFunc: func(oldFoo, newFoo *compatv1.Foo) {
			ev.add("typed update %s/%s", newFoo.Namespace, newFoo.Name)
		},
		DeleteFunc: func(deleted compatinformers.DeletedFoo) {
			ev.add("typed delete %s", useDeletedFoo(deleted))
		},
	})
}

func useDeletedFoo(deleted compatinformers.DeletedFoo) string {
	var key string = deleted.GetKey()
	var name cache.ObjectName = deleted.GetObjectName()
	unknown := deleted.FinalStateUnknown != nil
	have := deleted.OptionalObj != nil
	return fmt.Sprintf("%s %s unknown=%v object=%v", key, name, unknown, have)
}

func useTypedDetailedHandler(fi compatinformers.TypedFooInformer, ev *Events) (cache.ResourceEventHandlerRegistration, error) {
	return fi.TypedInformer().AddTypedEventHandler(compatinformers.FooDetailedHandlerFuncs{
		AddFunc: func(foo *compatv1.Foo, isInInitialList bool) {
			ev.add("typed detailed add %s initial=%v", foo.Name, isInInitialList)
		},
	}, cache.HandlerOptions{})
}

func useTypedFilteringHandler(fi compatinformers.TypedFooInformer, ev *Events) (cache.ResourceEventHandlerRegistration, error) {
	return fi.TypedInformer().AddTypedEventHandler(compatinformers.FooFilteringHandler{
		FilterFunc: func(foo *compatv1.Foo) bool { return foo.Spec.DeploymentName != "" },
		Handler: compatinformers.FooHandlerFuncs{
			AddFunc: func(foo *compatv1.Foo) { ev.add("typed filtered add %s", foo.Name) },
		},
	})
}

func useTypedIndexers(fi compatinformers.TypedFooInformer) ([]*compatv1.Foo, error) {
	ti := fi.TypedInformer()
	if err := ti.AddTypedIndexers(compatinformers.FooIndexers{
		"compat-byReplicas": func(foo *compatv1.Foo) ([]string, error) {
			if foo.Spec.Replicas == nil {
				return nil, nil
			}
			return []string{fmt.Sprint(*foo.Spec.Replicas)}, nil
		},
	}); err != nil {
		return nil, err
	}
	var indexer cache.TypedIndexer[*compatv1.Foo] = ti.GetTypedIndexer()
	return indexer.ByTypedIndex("compat-byReplicas", "3")
}

func useAddIndexers(fi compatinformers.FooInformer) error {
	return fi.Informer().AddIndexers(cache.Indexers{
		"compat-byDeploymentName": func(obj interface{}) ([]string, error) {
			foo, ok := obj.(*compatv1.Foo)
			if !ok {
				return nil, fmt.Errorf("unexpected %T", obj)
			}
			return []string{foo.Spec.DeploymentName}, nil
		},
	})
}

func useGetIndexerByIndex(fi compatinformers.FooInformer, deployment string) ([]string, error) {
	var indexer cache.Indexer = fi.Informer().GetIndexer()
	objs, err := indexer.ByIndex("compat-byDeploymentName", deployment)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, obj := range objs {
		names = append(names, obj.(*compatv1.Foo).Name)
	}
	sort.Strings(names)
	return names, nil
}

func useNamespaceIndex(fi compatinformers.FooInformer, namespace string) ([]string, error) {
	keys, err := fi.Informer().GetIndexer().IndexKeys(cache.NamespaceIndex, namespace)
	sort.Strings(keys)
	return keys, err
}

func useGetStore(fi compatinformers.FooInformer, key string) (bool, []string, error) {
	var store cache.Store = fi.Informer().GetStore()
	_, exists, err := store.GetByKey(key)
	keys := store.ListKeys()
	sort.Strings(keys)
	return exists, keys, err
}

// useIndexerAdd is how sample-controller's tests fill a factory informer's
// cache without starting it.
func useIndexerAdd(fi compatinformers.FooInformer, foos ...*compatv1.Foo) error {
	for _, foo := range foos {
		if err := fi.Informer().GetIndexer().Add(foo); err != nil {
			return err
		}
	}
	return nil
}

func useRun(fi compatinformers.FooInformer, stopCh <-chan struct{}) {
	go fi.Informer().Run(stopCh)
}

func useRunWithContext(ctx context.Context, informer cache.SharedIndexInformer) {
	go informer.RunWithContext(ctx)
}

func useSetWatchErrorHandler(informer cache.SharedIndexInformer, errs chan<- error) error {
	return informer.SetWatchErrorHandler(func(r *cache.Reflector, err error) {
		select {
		case errs <- err:
		default:
		}
	})
}

func useSetWatchErrorHandlerWithContext(informer cache.SharedIndexInformer) error {
	return informer.SetWatchErrorHandlerWithContext(func(ctx context.Context, r *cache.Reflector, err error) {
		cache.DefaultWatchErrorHandler(ctx, r, err)
	})
}

func useSetTransform(informer cache.SharedIndexInformer) error {
	return informer.SetTransform(func(obj interface{}) (interface{}, error) {
		if foo, ok := obj.(*compatv1.Foo); ok {
			foo.ManagedFields = nil
			foo.Annotations = nil
		}
		return obj, nil
	})
}

func useInformerState(informer cache.SharedIndexInformer) (string, bool, bool) {
	var controller cache.Controller = informer.GetController()
	_ = controller
	return informer.LastSyncResourceVersion(), informer.IsStopped(), informer.HasSynced()
}

// ---- informer constructors ----

func useNewFooInformer(client versioned.Interface, namespace string) cache.SharedIndexInformer {
	return compatinformers.NewFooInformer(client, namespace, 0,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
}

func useNewFilteredFooInformer(client versioned.Interface, namespace string) cache.SharedIndexInformer {
	return compatinformers.NewFilteredFooInformer(client, namespace, time.Minute, cache.Indexers{},
		func(opts *metav1.ListOptions) { opts.FieldSelector = "metadata.name!=skip" })
}

func useNewFooInformerWithOptions(client versioned.Interface, namespace string, name *cache.InformerName) cache.SharedIndexInformer {
	return compatinformers.NewFooInformerWithOptions(client, namespace, internalinterfaces.InformerOptions{
		ResyncPeriod:     time.Minute,
		Indexers:         cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
		InformerName:     name,
		TweakListOptions: useTweakListOptionsFunc(""),
	})
}

func useNewTypedFooInformer(client versioned.Interface, namespace string) compatinformers.FooIndexInformer {
	return compatinformers.NewTypedFooInformer(client, namespace, 0, compatinformers.FooIndexers{
		"compat-byDeploymentName": func(foo *compatv1.Foo) ([]string, error) {
			return []string{foo.Spec.DeploymentName}, nil
		},
	})
}

func useNewTypedFilteredFooInformer(client versioned.Interface, namespace string) compatinformers.FooIndexInformer {
	return compatinformers.NewTypedFilteredFooInformer(client, namespace, 0, compatinformers.FooIndexers{}, nil)
}

func useNewTypedFooInformerWithOptions(client versioned.Interface, namespace string) compatinformers.FooIndexInformer {
	return compatinformers.NewTypedFooInformerWithOptions(client, namespace, internalinterfaces.InformerOptions{})
}

func useNewBarInformer(client versioned.Interface) cache.SharedIndexInformer {
	// Bar is cluster-scoped: no namespace parameter.
	return compatinformers.NewBarInformer(client, 0, cache.Indexers{})
}

func useNewFilteredBarInformer(client versioned.Interface) compatinformers.BarIndexInformer {
	return compatinformers.NewTypedFilteredBarInformer(client, 0, compatinformers.BarIndexers{}, useTweakListOptionsFunc(""))
}

func useToTypedFooInformer(fi compatinformers.FooInformer) compatinformers.TypedFooInformer {
	return compatinformers.ToTypedFooInformer(fi)
}

func useToFooIndexInformer(informer cache.SharedIndexInformer) compatinformers.FooIndexInformer {
	return compatinformers.ToFooIndexInformer(informer)
}

func useListerOfIndexInformer(ti compatinformers.FooIndexInformer) compatlisters.FooLister {
	return compatlisters.NewFooLister(ti.GetIndexer())
}

// ---- listers ----

func useNewIndexer() cache.Indexer {
	return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
}

func useNewFooListerOverIndexer(foos ...*compatv1.Foo) (compatlisters.FooLister, error) {
	indexer := useNewIndexer()
	for _, foo := range foos {
		if err := indexer.Add(foo); err != nil {
			return nil, err
		}
	}
	return compatlisters.NewFooLister(indexer), nil
}

func useNewBarListerOverIndexer(bars ...*compatv1.Bar) (compatlisters.BarLister, error) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, bar := range bars {
		if err := indexer.Add(bar); err != nil {
			return nil, err
		}
	}
	return compatlisters.NewBarLister(indexer), nil
}

func useListerFromFactory(f externalversions.SharedInformerFactory) (compatlisters.FooLister, compatlisters.BarLister) {
	return f.Compat().V1().Foos().Lister(), f.Compat().V1().Bars().Lister()
}

func useListerList(lister compatlisters.FooLister, selector labels.Selector) ([]string, error) {
	foos, err := lister.List(selector)
	if err != nil {
		return nil, err
	}
	return fooNames(foos), nil
}

func useNamespaceListerList(lister compatlisters.FooLister, namespace string) ([]string, error) {
	var nsLister compatlisters.FooNamespaceLister = lister.Foos(namespace)
	foos, err := nsLister.List(labels.SelectorFromSet(labels.Set{"app": "web"}))
	if err != nil {
		return nil, err
	}
	return fooNames(foos), nil
}

func useNamespaceListerGet(lister compatlisters.FooLister, namespace, name string) (*compatv1.Foo, error) {
	return lister.Foos(namespace).Get(name)
}

// useNotFound is sample-controller's syncHandler idiom.
func useNotFound(lister compatlisters.FooLister, namespace, name string) (string, bool) {
	_, err := lister.Foos(namespace).Get(name)
	if err == nil {
		return "", false
	}
	var status apierrors.APIStatus
	isStatus := errors.As(err, &status)
	return err.Error(), apierrors.IsNotFound(err) && isStatus
}

func useClusterListerGet(lister compatlisters.BarLister, name string) (string, error) {
	bar, err := lister.Get(name)
	if err != nil {
		return "", err
	}
	return bar.Spec.Zone, nil
}

func useClusterListerList(lister compatlisters.BarLister) (int, error) {
	bars, err := lister.List(labels.Everything())
	return len(bars), err
}

func useListerExpansion(lister compatlisters.FooLister, deployment string) ([]string, error) {
	foos, err := lister.ListForDeployment(deployment)
	return fooNames(foos), err
}

func useNamespaceListerExpansion(lister compatlisters.FooLister, namespace, name string) (bool, error) {
	_, scaled, err := lister.Foos(namespace).GetScaled(name)
	return scaled, err
}

func useListerExpansionInterfaces() {
	var _ compatlisters.FooListerExpansion = compatlisters.FooLister(nil)
	var _ compatlisters.FooNamespaceListerExpansion = compatlisters.FooNamespaceLister(nil)
	var _ compatlisters.BarListerExpansion = compatlisters.BarLister(nil)
}

func fooNames(foos []*compatv1.Foo) []string {
	names := make([]string, 0, len(foos))
	for _, foo := range foos {
		names = append(names, foo.Namespace+"/"+foo.Name)
	}
	sort.Strings(names)
	return names
}

// FooInformerOf adapts a hand-built informer to compatinformers.FooInformer,
// as code that wraps informers does.
type FooInformerOf struct{ cache.SharedIndexInformer }

// Informer returns the informer.
func (f FooInformerOf) Informer() cache.SharedIndexInformer { return f.SharedIndexInformer }

// Lister returns a lister over the informer's indexer.
func (f FooInformerOf) Lister() compatlisters.FooLister {
	return compatlisters.NewFooLister(f.SharedIndexInformer.GetIndexer())
}

func useNewBarListerOfInformer(informer cache.SharedIndexInformer) compatlisters.BarLister {
	return compatlisters.NewBarLister(informer.GetIndexer())
}

package gvrtest

import (
	"errors"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

// ClientGoFactory is the interface of client-go's dynamic and metadata
// factories (dynamicinformer.DynamicSharedInformerFactory,
// metadatainformer.SharedInformerFactory).
type ClientGoFactory interface {
	Start(stopCh <-chan struct{})
	ForResource(gvr schema.GroupVersionResource) informers.GenericInformer
	WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool
	Shutdown()
}

// Observed is what UseLikeClientGo saw.
type Observed struct {
	// Synced is the factory's WaitForCacheSync.
	Synced map[schema.GroupVersionResource]bool
	// Listed and InNamespace count the lister's objects, in every namespace
	// and in namespace a.
	Listed, InNamespace int
	// Got is the name of the object the lister's Get returned, and Stripped
	// whether it has no managed fields.
	Got      string
	Stripped bool
	// ByIndex counts the objects labelled app=web, by an index; Generic the
	// objects of namespace a, by the generic lister.
	ByIndex, Generic int
	// HandlerOK is set when a handler received an object of type T.
	HandlerOK bool
}

// UseLikeClientGo uses the informer of gvr of factory as programs written
// for client-go's dynamic and metadata informers do, through client-go's
// interfaces only, with newLister (client-go's dynamiclister.New or
// metadatalister.New): it adds a handler and an index of the label app,
// starts the factory, waits for it, and observes the objects through the
// lister (Get of the object a/get), the index and the generic lister. It
// shuts the factory down before it returns.
func UseLikeClientGo[T metav1.Object, N NamespaceLister[T], L Lister[T, N]](factory ClientGoFactory, gvr schema.GroupVersionResource, newLister func(cache.Indexer, schema.GroupVersionResource) L, get string) (Observed, error) {
	var o Observed
	stopCh := make(chan struct{})
	var generic informers.GenericInformer = factory.ForResource(gvr)
	var informer cache.SharedIndexInformer = generic.Informer()
	added := make(chan struct{}, 100)
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if _, ok := obj.(T); ok {
				added <- struct{}{}
			}
		},
	}); err != nil {
		return o, err
	}
	if err := informer.AddIndexers(cache.Indexers{"byApp": func(obj interface{}) ([]string, error) {
		return []string{obj.(metav1.Object).GetLabels()["app"]}, nil
	}}); err != nil {
		return o, err
	}
	lister := newLister(informer.GetIndexer(), gvr)
	var synced cache.InformerSynced = informer.HasSynced
	factory.Start(stopCh)
	defer func() {
		close(stopCh)
		factory.Shutdown()
	}()
	o.Synced = factory.WaitForCacheSync(stopCh)
	if !cache.WaitForCacheSync(stopCh, synced) {
		return o, errors.New("not synced")
	}
	select {
	case <-added:
		o.HandlerOK = true
	case <-time.After(Timeout):
	}
	all, err := lister.List(labels.Everything())
	if err != nil {
		return o, err
	}
	o.Listed = len(all)
	inNS, err := lister.Namespace("a").List(labels.Everything())
	if err != nil {
		return o, err
	}
	o.InNamespace = len(inNS)
	obj, err := lister.Namespace("a").Get(get)
	if err != nil {
		return o, err
	}
	o.Got, o.Stripped = obj.GetName(), obj.GetManagedFields() == nil
	web, err := informer.GetIndexer().ByIndex("byApp", "web")
	if err != nil {
		return o, err
	}
	o.ByIndex = len(web)
	objs, err := generic.Lister().ByNamespace("a").List(labels.Everything())
	if err != nil {
		return o, err
	}
	o.Generic = len(objs)
	return o, nil
}

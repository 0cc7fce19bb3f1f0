package dynamicinformer_test

// Code written for k8s.io/client-go/dynamic/dynamicinformer (and
// dynamiclister), with only the import path of dynamicinformer changed:
// useLikeClientGo is how programs use client-go's package, and must compile
// and work unchanged against this one.

import (
	"errors"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	clientgodynamicinformer "k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/dynamic/dynamiclister"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
)

// The factory is client-go's interface, the constructors return it, and
// client-go's own TweakListOptionsFunc is accepted.
var (
	_ clientgodynamicinformer.DynamicSharedInformerFactory = dynamicinformer.NewDynamicSharedInformerFactory(nil, 0)
	_ clientgodynamicinformer.DynamicSharedInformerFactory = dynamicinformer.NewFilteredDynamicSharedInformerFactory(nil, 0, "", clientgodynamicinformer.TweakListOptionsFunc(nil))
	_ informers.GenericInformer                            = dynamicinformer.NewFilteredDynamicInformer(nil, schema.GroupVersionResource{}, "", 0, nil, nil)
)

// controllerLike is a struct as programs declare them, with client-go's
// interface types.
type controllerLike struct {
	factory dynamicinformer.DynamicSharedInformerFactory
	lister  dynamiclister.Lister
	synced  cache.InformerSynced
}

// observed is what useLikeClientGo saw.
type observed struct {
	synced    map[schema.GroupVersionResource]bool
	listed    int
	inNS      int
	got       string
	byIndex   int
	generic   int
	handlerOK bool
}

func useLikeClientGo(client dynamic.Interface, gvr schema.GroupVersionResource) (observed, error) {
	var o observed
	stopCh := make(chan struct{})
	var tweak dynamicinformer.TweakListOptionsFunc = func(options *metav1.ListOptions) { options.LabelSelector = "" }
	c := controllerLike{factory: dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, time.Minute, metav1.NamespaceAll, tweak)}
	var generic informers.GenericInformer = c.factory.ForResource(gvr)
	var informer cache.SharedIndexInformer = generic.Informer()
	added := make(chan struct{}, 100)
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if _, ok := obj.(*unstructured.Unstructured); ok {
				added <- struct{}{}
			}
		},
	}); err != nil {
		return o, err
	}
	if err := informer.AddIndexers(cache.Indexers{"byApp": func(obj interface{}) ([]string, error) {
		return []string{obj.(*unstructured.Unstructured).GetLabels()["app"]}, nil
	}}); err != nil {
		return o, err
	}
	c.lister = dynamiclister.New(informer.GetIndexer(), gvr)
	c.synced = informer.HasSynced
	c.factory.Start(stopCh)
	defer func() {
		close(stopCh)
		c.factory.Shutdown()
	}()
	o.synced = c.factory.WaitForCacheSync(stopCh)
	if !cache.WaitForCacheSync(stopCh, c.synced) {
		return o, errors.New("not synced")
	}
	select {
	case <-added:
		o.handlerOK = true
	case <-time.After(10 * time.Second):
	}
	all, err := c.lister.List(labels.Everything())
	if err != nil {
		return o, err
	}
	o.listed = len(all)
	inNS, err := c.lister.Namespace("a").List(labels.Everything())
	if err != nil {
		return o, err
	}
	o.inNS = len(inNS)
	obj, err := c.lister.Namespace("a").Get("d1")
	if err != nil {
		return o, err
	}
	o.got = obj.GetName()
	web, err := informer.GetIndexer().ByIndex("byApp", "web")
	if err != nil {
		return o, err
	}
	o.byIndex = len(web)
	objs, err := generic.Lister().ByNamespace("a").List(labels.Everything())
	if err != nil {
		return o, err
	}
	o.generic = len(objs)

	standalone := dynamicinformer.NewFilteredDynamicInformer(client, gvr, "a", 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, nil)
	_ = standalone.Lister()
	return o, nil
}

// useLikeClientGo compiles against this package and observes what it would
// with client-go's.
func TestClientGoCodeWorksUnchanged(t *testing.T) {
	client, _ := newClient(
		deployment("a", "d1", map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}}),
		deployment("a", "d2", nil),
		deployment("b", "d3", nil),
	)
	o, err := useLikeClientGo(client, deploymentsGVR)
	if err != nil {
		t.Fatal(err)
	}
	want := observed{synced: map[schema.GroupVersionResource]bool{deploymentsGVR: true}, listed: 3, inNS: 2, got: "d1", byIndex: 1, generic: 2, handlerOK: true}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("observed %+v, want %+v", o, want)
	}
}

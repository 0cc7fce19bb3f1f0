package metadatainformer_test

// Code written for k8s.io/client-go/metadata/metadatainformer (and
// metadatalister), with only the import path of metadatainformer changed:
// useLikeClientGo is how programs use client-go's package, and must compile
// and work unchanged against this one.

import (
	"errors"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/metadata"
	clientgometadatainformer "k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/metadata/metadatalister"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/metadatainformer"
)

var (
	_ clientgometadatainformer.SharedInformerFactory = metadatainformer.NewSharedInformerFactory(nil, 0)
	_ clientgometadatainformer.SharedInformerFactory = metadatainformer.NewFilteredSharedInformerFactory(nil, 0, "", clientgometadatainformer.TweakListOptionsFunc(nil))
	_ clientgometadatainformer.SharedInformerFactory = metadatainformer.NewSharedInformerFactoryWithOptions(nil, 0)
	_ informers.GenericInformer                      = metadatainformer.NewFilteredMetadataInformer(nil, schema.GroupVersionResource{}, "", 0, nil, nil)
)

type controllerLike struct {
	factory metadatainformer.SharedInformerFactory
	lister  metadatalister.Lister
	synced  cache.InformerSynced
}

type observed struct {
	synced    map[schema.GroupVersionResource]bool
	listed    int
	got       string
	byIndex   int
	generic   int
	stripped  bool
	handlerOK bool
}

func useLikeClientGo(client metadata.Interface, gvr schema.GroupVersionResource) (observed, error) {
	var o observed
	stopCh := make(chan struct{})
	var options []metadatainformer.SharedInformerOption
	options = append(options, metadatainformer.WithTransform(func(obj interface{}) (interface{}, error) {
		if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
			m.ManagedFields = nil
		}
		return obj, nil
	}))
	c := controllerLike{factory: metadatainformer.NewSharedInformerFactoryWithOptions(client, 10*time.Minute, options...)}
	c.factory = metadatainformer.NewFilteredSharedInformerFactory(client, 0, "a", func(*metav1.ListOptions) {})
	c.factory = metadatainformer.NewSharedInformerFactoryWithOptions(client, 10*time.Minute, options...)
	var generic informers.GenericInformer = c.factory.ForResource(gvr)
	informer := generic.Informer()
	added := make(chan struct{}, 100)
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { added <- struct{}{} },
	}); err != nil {
		return o, err
	}
	if err := informer.AddIndexers(cache.Indexers{"byApp": func(obj interface{}) ([]string, error) {
		return []string{obj.(*metav1.PartialObjectMetadata).Labels["app"]}, nil
	}}); err != nil {
		return o, err
	}
	c.lister = metadatalister.New(informer.GetIndexer(), gvr)
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
	obj, err := c.lister.Namespace("a").Get("c1")
	if err != nil {
		return o, err
	}
	o.got, o.stripped = obj.Name, obj.ManagedFields == nil
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
	_ = metadatainformer.NewFilteredMetadataInformer(client, gvr, "a", 0, cache.Indexers{}, nil).Lister()
	return o, nil
}

func TestClientGoCodeWorksUnchanged(t *testing.T) {
	withFields := configMap("a", "c1", map[string]string{"app": "web"}, nil)
	withFields.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "m"}}
	client, _ := newClient(withFields, configMap("a", "c2", nil, nil), configMap("b", "c3", nil, nil))
	o, err := useLikeClientGo(client, configMapsGVR)
	if err != nil {
		t.Fatal(err)
	}
	want := observed{synced: map[schema.GroupVersionResource]bool{configMapsGVR: true}, listed: 3, got: "c1", byIndex: 1, generic: 2, stripped: true, handlerOK: true}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("observed %+v, want %+v", o, want)
	}
}

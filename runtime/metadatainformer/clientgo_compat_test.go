package metadatainformer_test

// Code written for k8s.io/client-go/metadata/metadatainformer (and
// metadatalister), with only the import path of metadatainformer changed:
// useLikeClientGo is how programs use client-go's package, and must compile
// and work unchanged against this one. What it does through client-go's
// interfaces alone is gvrtest.UseLikeClientGo.

import (
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/metadata"
	clientgometadatainformer "k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/metadata/metadatalister"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory/gvrtest"
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

func useLikeClientGo(client metadata.Interface, gvr schema.GroupVersionResource) (gvrtest.Observed, error) {
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
	informer := metadatainformer.NewFilteredMetadataInformer(client, gvr, "a", 0, cache.Indexers{}, nil)
	c.lister = metadatalister.New(informer.Informer().GetIndexer(), gvr)
	c.synced = informer.Informer().HasSynced
	_ = informer.Lister()
	return gvrtest.UseLikeClientGo(c.factory, gvr, metadatalister.New, "c1")
}

func TestClientGoCodeWorksUnchanged(t *testing.T) {
	withFields := configMap("a", "c1", map[string]string{"app": "web"}, nil)
	withFields.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "m"}}
	client, _ := newClient(withFields, configMap("a", "c2", nil, nil), configMap("b", "c3", nil, nil))
	o, err := useLikeClientGo(client, configMapsGVR)
	if err != nil {
		t.Fatal(err)
	}
	want := gvrtest.Observed{Synced: map[schema.GroupVersionResource]bool{configMapsGVR: true}, Listed: 3, InNamespace: 2, Got: "c1", Stripped: true, ByIndex: 1, Generic: 2, HandlerOK: true}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("observed %+v, want %+v", o, want)
	}
}

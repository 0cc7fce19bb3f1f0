package dynamicinformer_test

// Code written for k8s.io/client-go/dynamic/dynamicinformer (and
// dynamiclister), with only the import path of dynamicinformer changed:
// useLikeClientGo is how programs use client-go's package, and must compile
// and work unchanged against this one. What it does through client-go's
// interfaces alone is gvrtest.UseLikeClientGo.

import (
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	clientgodynamicinformer "k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/dynamic/dynamiclister"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory/gvrtest"
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

func useLikeClientGo(client dynamic.Interface, gvr schema.GroupVersionResource) (gvrtest.Observed, error) {
	var tweak dynamicinformer.TweakListOptionsFunc = func(options *metav1.ListOptions) { options.LabelSelector = "" }
	c := controllerLike{factory: dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, time.Minute, metav1.NamespaceAll, tweak)}
	informer := dynamicinformer.NewFilteredDynamicInformer(client, gvr, "a", 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, nil)
	c.lister = dynamiclister.New(informer.Informer().GetIndexer(), gvr)
	c.synced = informer.Informer().HasSynced
	_ = informer.Lister()
	return gvrtest.UseLikeClientGo(c.factory, gvr, dynamiclister.New, "d1")
}

// useLikeClientGo compiles against this package and observes what it would
// with client-go's.
func TestClientGoCodeWorksUnchanged(t *testing.T) {
	client, _ := newClient(
		deployment("a", "d1", withLabels(map[string]any{"app": "web"})),
		deployment("a", "d2", nil),
		deployment("b", "d3", nil),
	)
	o, err := useLikeClientGo(client, deploymentsGVR)
	if err != nil {
		t.Fatal(err)
	}
	want := gvrtest.Observed{Synced: map[schema.GroupVersionResource]bool{deploymentsGVR: true}, Listed: 3, InNamespace: 2, Got: "d1", Stripped: true, ByIndex: 1, Generic: 2, HandlerOK: true}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("observed %+v, want %+v", o, want)
	}
}

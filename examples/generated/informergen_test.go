package generated_test

import (
	"context"
	"slices"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned/fake"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions/internalinterfaces"
	shopinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions/shop/v1"
	fleetlisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/fleet/v1"
	shoplisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/fakewatch"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/indexcheck"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/lookupcheck"
)

// These tests use the generated code as code written for informer-gen's and
// lister-gen's output does: the same constructors, options, interfaces and
// client-go types, with the index lookups on top.

// informer-gen's and lister-gen's API, checked at compile time.
var (
	_ internalinterfaces.SharedInformerFactory = externalversions.NewSharedInformerFactory(nil, 0)
	_ internalinterfaces.NewInformerFunc       = func(c versioned.Interface, resync time.Duration) cache.SharedIndexInformer {
		return shopinformers.NewWidgetInformer(c, "", resync, cache.Indexers{})
	}
)

var (
	_ shopinformers.WidgetInformer = shopinformers.TypedWidgetInformer(nil)
	_ shopinformers.WidgetInformer = shopinformers.ToTypedWidgetInformer(nil)
	_ cache.SharedIndexInformer    = shopinformers.WidgetIndexInformer(nil)
)

var (
	_ cache.TypedResourceEventHandler[*shopv1.Widget] = shopinformers.WidgetHandlerFuncs{}
	_ cache.TypedResourceEventHandler[*shopv1.Widget] = shopinformers.WidgetDetailedHandlerFuncs{}
	_ cache.TypedResourceEventHandler[*shopv1.Widget] = shopinformers.WidgetFilteringHandler{}
	_ func(shopinformers.DeletedWidget) string        = shopinformers.DeletedWidget.GetKey
)

// Shop is cluster-scoped: its constructors have no namespace.
var (
	_ func(versioned.Interface, time.Duration, cache.Indexers) cache.SharedIndexInformer = shopinformers.NewShopInformer
	_ func(versioned.Interface, time.Duration, shopinformers.ShopIndexers,
		internalinterfaces.TweakListOptionsFunc) shopinformers.ShopIndexInformer = shopinformers.NewTypedFilteredShopInformer
)

// lister-gen writes a lister for every kind that can list and get, such as
// Trip, whose client cannot watch (and so has no informer).
var (
	_ func(cache.Indexer) fleetlisters.TripLister = fleetlisters.NewTripLister
	_ fleetlisters.TripNamespaceListerExpansion   = fleetlisters.TripNamespaceLister(nil)
)

// A factory built with informer-gen's options, its typed informer with
// client-go's typed handler, the lister's NotFound error and the generic
// informer of ForResource.
func TestInformerGenFactoryOptionsAndTypedInformer(t *testing.T) {
	red := widget("a", "red-1", "red", 1)
	blue := widget("a", "blue-1", "blue", 1)
	other := widget("b", "red-2", "red", 1)
	client := fake.NewSimpleClientset(red, blue, other)
	started := fakewatch.Started(client, "widgets")

	// A variable of internalinterfaces.TweakListOptionsFunc, as informer-gen
	// users write them.
	var tweak internalinterfaces.TweakListOptionsFunc = func(o *metav1.ListOptions) { o.LabelSelector = "team=t-red" }
	transformed := make(chan string, 10)
	factory := externalversions.NewSharedInformerFactoryWithOptions(client, time.Hour,
		externalversions.WithNamespace("a"),
		externalversions.WithTweakListOptions(tweak),
		externalversions.WithTransform(func(obj any) (any, error) {
			if w, ok := obj.(*shopv1.Widget); ok {
				transformed <- w.Name
			}
			return obj, nil
		}),
		externalversions.WithCustomResyncConfig(map[metav1.Object]time.Duration{&shopv1.Widget{}: 0}))
	widgets := factory.Shop().V1().Widgets()
	var typed shopinformers.WidgetIndexInformer = widgets.TypedInformer()
	if typed != widgets.TypedInformer() || widgets.Informer() != widgets.Informer() {
		t.Error("the factory does not share its informer")
	}
	added := make(chan string, 10)
	if _, err := typed.AddTypedEventHandler(shopinformers.WidgetHandlerFuncs{
		AddFunc: func(w *shopv1.Widget) { added <- w.Namespace + "/" + w.Name },
	}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); factory.Shutdown() }()
	factory.StartWithContext(ctx)
	if err := factory.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		t.Fatal(err)
	}
	<-started
	if got := <-added; got != "a/red-1" {
		t.Errorf("handler added %s, want a/red-1 (namespace a, team t-red)", got)
	}
	if got := <-transformed; got != "red-1" {
		t.Errorf("transform saw %s", got)
	}

	lister := widgets.Lister()
	if all, _ := lister.List(labels.Everything()); !slices.Equal(indexcheck.Keys(all), []string{"a/red-1"}) {
		t.Errorf("List = %v, want the tweaked namespace's only", indexcheck.Keys(all))
	}
	if got, _ := lister.ByColor("red"); !slices.Equal(indexcheck.Keys(got), []string{"a/red-1"}) {
		t.Errorf("ByColor(red) = %v", indexcheck.Keys(got))
	}
	// lister-gen's NotFound: the resource is the kind in lower case.
	_, err := lister.Widgets("a").Get("blue-1")
	if !apierrors.IsNotFound(err) || err.Error() != `widget.shop.example.dev "blue-1" not found` {
		t.Errorf("Get of an object the informer does not hold = %v", err)
	}
	if _, err := factory.Shop().V1().Shops().Lister().Get("nowhere"); err == nil || err.Error() != `shop.shop.example.dev "nowhere" not found` {
		t.Errorf("Get of a missing Shop = %v", err)
	}

	generic, err := factory.ForResource(shopv1.SchemeGroupVersion.WithResource("widgets"))
	if err != nil {
		t.Fatal(err)
	}
	if generic.Informer() != widgets.Informer() {
		t.Error("ForResource(widgets) is not the factory's informer")
	}
	obj, err := generic.Lister().ByNamespace("a").Get("red-1")
	if err != nil || obj.(*shopv1.Widget).Spec.Color != "red" {
		t.Errorf("generic Get(a/red-1) = %v, %v", obj, err)
	}
	// The informer's untyped indexer answers client-go's namespace index,
	// which informer-gen's factory adds to every informer.
	if objs, err := widgets.Informer().GetIndexer().ByIndex(cache.NamespaceIndex, "a"); err != nil || len(objs) != 1 {
		t.Errorf("ByIndex(namespace, a) = %v, %v", objs, err)
	}
}

// A standalone informer from informer-gen's constructor carries the
// indexers it is given and every generated index.
func TestInformerGenStandaloneInformer(t *testing.T) {
	client := fake.NewSimpleClientset(widget("a", "w1", "red", 3, "nginx"), widget("b", "w2", "red", 5))
	started := fakewatch.Started(client, "widgets")
	inf := shopinformers.NewFilteredWidgetInformer(client, "", 0, cache.Indexers{
		"bySizeDigit": func(obj any) ([]string, error) {
			w := obj.(*shopv1.Widget)
			return []string{string(rune('0' + w.Spec.Size))}, nil
		},
	}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go inf.RunWithContext(ctx)
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		t.Fatal("no sync")
	}
	<-started
	if objs, err := inf.GetIndexer().ByIndex("bySizeDigit", "5"); err != nil || len(objs) != 1 {
		t.Errorf("ByIndex(bySizeDigit, 5) = %v, %v", objs, err)
	}
	lister := shoplisters.NewWidgetLister(inf.GetIndexer())
	if got, err := lister.ByImage("nginx"); err != nil || !slices.Equal(indexcheck.Keys(got), []string{"a/w1"}) {
		t.Errorf("ByImage(nginx) = %v, %v", indexcheck.Keys(got), err)
	}
	typed := shopinformers.ToWidgetIndexInformer(inf)
	if got, err := typed.GetTypedIndexer().ByTypedIndex(shoplisters.WidgetByColorIndex, "red"); err != nil || len(got) != 2 {
		t.Errorf("ByTypedIndex(byColor, red) = %v, %v", got, err)
	}
}

// The listers also work over client-go's own indexer, with the generated
// indexes as client-go index functions (WidgetIndexers) or added to it
// (AddWidgetIndexes): what unit tests of listers build.
func TestListersOverClientGoIndexer(t *testing.T) {
	w1 := widget("a", "w1", "red", 3, "nginx")
	w2 := widget("b", "w2", "red", 5)
	w3 := widget("a", "w3", "blue", 3)
	built := cache.NewIndexer(cache.MetaNamespaceKeyFunc, shoplisters.WidgetIndexers())
	added := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	if err := shoplisters.AddWidgetIndexes(added); err != nil {
		t.Fatal(err)
	}
	for name, indexer := range map[string]cache.Indexer{"WidgetIndexers": built, "AddWidgetIndexes": added} {
		for _, w := range []*shopv1.Widget{w1, w2, w3} {
			if err := indexer.Add(w); err != nil {
				t.Fatal(err)
			}
		}
		lister := shoplisters.NewWidgetLister(indexer)
		if msg := lookupcheck.Disagreements(lister, lookupcheck.Widgets("a"), []*shopv1.Widget{w1, w2, w3}); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
		if got, err := lister.Widgets("a").Get("w3"); err != nil || got != w3 {
			t.Errorf("%s: Get(a/w3) = %v, %v", name, got, err)
		}
		if _, err := lister.Widgets("b").Get("w3"); !apierrors.IsNotFound(err) {
			t.Errorf("%s: Get(b/w3) = %v, want NotFound", name, err)
		}
		sel := labels.SelectorFromSet(labels.Set{"team": "t-red"})
		if got, _ := lister.Widgets("a").List(sel); !slices.Equal(indexcheck.Keys(got), []string{"a/w1"}) {
			t.Errorf("%s: a: List(team=t-red) = %v", name, indexcheck.Keys(got))
		}
	}
}

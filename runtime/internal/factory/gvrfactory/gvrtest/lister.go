package gvrtest

import (
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// NamespaceLister is client-go's dynamic and metadata namespace listers'
// interface over objects of type T.
type NamespaceLister[T any] interface {
	List(selector labels.Selector) ([]T, error)
	Get(name string) (T, error)
}

// Lister is client-go's dynamic and metadata listers' interface over objects
// of type T.
type Lister[T any, N NamespaceLister[T]] interface {
	NamespaceLister[T]
	Namespace(namespace string) N
}

// CheckListers checks that the listers over r's informer answer as
// client-go's do, over four objects that object builds (a/web and b/web
// labelled app=web, a/db labelled app=db, and the cluster-scoped
// cluster-wide): r's typed lister, newLister (the package's NewLister) over
// r's indexer and over a client-go indexer holding the objects too, and
// clientGo (client-go's lister package's New) over the latter. It also
// checks r's generic lister, client-go's shim over its typed lister.
func CheckListers[T cache.Object, N NamespaceLister[T], L Lister[T, N]](t *testing.T, r *gvrfactory.ResourceInformer[T, N], object func(namespace, name, app string) T, newLister func(clientcache.Indexer, schema.GroupVersionResource) gvrfactory.Lister[T, N], clientGo func(clientcache.Indexer, schema.GroupVersionResource) L) {
	t.Helper()
	theirs := clientcache.NewIndexer(clientcache.MetaNamespaceKeyFunc, clientcache.Indexers{clientcache.NamespaceIndex: clientcache.MetaNamespaceIndexFunc})
	for _, o := range []T{object("a", "web", "web"), object("a", "db", "db"), object("b", "web", "web"), object("", "cluster-wide", "")} {
		if err := r.Informer().GetStore().Add(o); err != nil {
			t.Fatal(err)
		}
		if err := theirs.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	listers := map[string]Lister[T, N]{
		"typed":                  r.TypedLister(),
		"NewLister(ours)":        newLister(r.Informer().GetIndexer(), r.GVR()),
		"NewLister(client-go's)": newLister(theirs, r.GVR()),
		"client-go":              clientGo(theirs, r.GVR()),
	}
	web := labels.SelectorFromSet(labels.Set{"app": "web"})
	for name, l := range listers {
		if all, err := l.List(labels.Everything()); err != nil || len(all) != 4 {
			t.Errorf("%s: List(everything) = %v, %v", name, keysOf(all), err)
		}
		webs, err := l.List(web)
		if keys := keysOf(webs); err != nil || len(keys) != 2 || keys[0] != "a/web" || keys[1] != "b/web" {
			t.Errorf("%s: List(app=web) = %v, %v", name, keys, err)
		}
		if inA, err := l.Namespace("a").List(web); err != nil || len(inA) != 1 || inA[0].GetNamespace() != "a" {
			t.Errorf("%s: Namespace(a).List(app=web) = %v, %v", name, keysOf(inA), err)
		}
		if got, err := l.Namespace("a").Get("db"); err != nil || got.GetName() != "db" {
			t.Errorf("%s: Namespace(a).Get(db) = %v, %v", name, got, err)
		}
		if got, err := l.Get("cluster-wide"); err != nil || got.GetName() != "cluster-wide" {
			t.Errorf("%s: Get(cluster-wide) = %v, %v", name, got, err)
		}
		_, err = l.Namespace("b").Get("db")
		if status, ok := err.(apierrors.APIStatus); !apierrors.IsNotFound(err) || !ok || status.Status().Details.Group != r.GVR().Group {
			t.Errorf("%s: Namespace(b).Get(db) error %v, want NotFound for %s", name, err, r.GVR().GroupResource())
		}
	}

	generic := r.Lister()
	if got, err := generic.ByNamespace("a").Get("web"); err != nil || got.(T).GetName() != "web" {
		t.Errorf("generic ByNamespace(a).Get(web) = %v, %v", got, err)
	}
	if got, err := generic.List(web); err != nil || len(got) != 2 {
		t.Errorf("generic List(app=web) = %v, %v", got, err)
	}
	if got, err := generic.Get("cluster-wide"); err != nil || got == nil {
		t.Errorf("generic Get(cluster-wide) = %v, %v", got, err)
	}
	if _, err := generic.Get("missing"); !apierrors.IsNotFound(err) {
		t.Errorf("generic Get(missing) error %v", err)
	}
}

// keysOf returns the namespace/name of objs, sorted.
func keysOf[T cache.Object](objs []T) []string {
	keys := make([]string, len(objs))
	for i, o := range objs {
		keys[i] = o.GetNamespace() + "/" + o.GetName()
	}
	slices.Sort(keys)
	return keys
}

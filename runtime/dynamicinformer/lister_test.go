package dynamicinformer_test

import (
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic/dynamiclister"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/internal/indexcheck"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
)

// The typed lister answers as client-go's dynamiclister does, over the
// informer's typed store and over a client-go indexer alike, and the
// generic lister is client-go's shim over it.
func TestListerAnswersAsClientGos(t *testing.T) {
	objs := []*unstructured.Unstructured{
		deployment("a", "web", map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}}),
		deployment("a", "db", map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "db"}}}),
		deployment("b", "web", map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}}),
		deployment("", "cluster-wide", nil),
	}
	client, _ := newClient()
	f := dynamicinformer.NewDynamicSharedInformerFactory(client, 0)
	r := f.Resource(deploymentsGVR)
	for _, o := range objs {
		if err := r.Informer().GetStore().Add(o); err != nil {
			t.Fatal(err)
		}
	}
	theirs := clientcache.NewIndexer(clientcache.MetaNamespaceKeyFunc, clientcache.Indexers{clientcache.NamespaceIndex: clientcache.MetaNamespaceIndexFunc})
	for _, o := range objs {
		if err := theirs.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	listers := map[string]dynamiclister.Lister{
		"typed":                  r.TypedLister(),
		"NewLister(ours)":        dynamicinformer.NewLister(r.Informer().GetIndexer(), deploymentsGVR),
		"NewLister(client-go's)": dynamicinformer.NewLister(theirs, deploymentsGVR),
		"client-go":              dynamiclister.New(theirs, deploymentsGVR),
	}
	web := labels.SelectorFromSet(labels.Set{"app": "web"})
	for name, l := range listers {
		all, err := l.List(labels.Everything())
		if err != nil || len(all) != 4 {
			t.Errorf("%s: List(everything) = %v, %v", name, indexcheck.Keys(all), err)
		}
		webs, err := l.List(web)
		if keys := indexcheck.Keys(webs); err != nil || len(keys) != 2 || keys[0] != "a/web" || keys[1] != "b/web" {
			t.Errorf("%s: List(app=web) = %v, %v", name, keys, err)
		}
		inA, err := l.Namespace("a").List(web)
		if err != nil || len(inA) != 1 || inA[0].GetNamespace() != "a" {
			t.Errorf("%s: Namespace(a).List(app=web) = %v, %v", name, indexcheck.Keys(inA), err)
		}
		if got, err := l.Namespace("a").Get("db"); err != nil || got.GetName() != "db" {
			t.Errorf("%s: Namespace(a).Get(db) = %v, %v", name, got, err)
		}
		if got, err := l.Get("cluster-wide"); err != nil || got.GetName() != "cluster-wide" {
			t.Errorf("%s: Get(cluster-wide) = %v, %v", name, got, err)
		}
		_, err = l.Namespace("b").Get("db")
		if !apierrors.IsNotFound(err) || err.(apierrors.APIStatus).Status().Details.Group != "apps" {
			t.Errorf("%s: Namespace(b).Get(db) error %v, want NotFound for deployments.apps", name, err)
		}
	}

	generic := r.Lister()
	if got, err := generic.ByNamespace("a").Get("web"); err != nil || got.(*unstructured.Unstructured).GetName() != "web" {
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

package metadatainformer_test

import (
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/metadata/metadatalister"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/internal/indexcheck"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/metadatainformer"
)

// The typed lister answers as client-go's metadatalister does, over the
// informer's typed store and over a client-go indexer alike, and the
// generic lister is client-go's shim over it.
func TestListerAnswersAsClientGos(t *testing.T) {
	objs := []*metav1.PartialObjectMetadata{
		configMap("a", "web", map[string]string{"app": "web"}, nil),
		configMap("a", "db", map[string]string{"app": "db"}, nil),
		configMap("b", "web", map[string]string{"app": "web"}, nil),
		configMap("", "cluster-wide", nil, nil),
	}
	client, _ := newClient()
	r := metadatainformer.NewSharedInformerFactory(client, 0).Resource(configMapsGVR)
	theirs := clientcache.NewIndexer(clientcache.MetaNamespaceKeyFunc, clientcache.Indexers{clientcache.NamespaceIndex: clientcache.MetaNamespaceIndexFunc})
	for _, o := range objs {
		if err := r.Informer().GetStore().Add(o); err != nil {
			t.Fatal(err)
		}
		if err := theirs.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	listers := map[string]metadatalister.Lister{
		"typed":                  r.TypedLister(),
		"NewLister(ours)":        metadatainformer.NewLister(r.Informer().GetIndexer(), configMapsGVR),
		"NewLister(client-go's)": metadatainformer.NewLister(theirs, configMapsGVR),
		"client-go":              metadatalister.New(theirs, configMapsGVR),
	}
	web := labels.SelectorFromSet(labels.Set{"app": "web"})
	for name, l := range listers {
		if all, err := l.List(labels.Everything()); err != nil || len(all) != 4 {
			t.Errorf("%s: List(everything) = %v, %v", name, indexcheck.Keys(all), err)
		}
		webs, err := l.List(web)
		if keys := indexcheck.Keys(webs); err != nil || len(keys) != 2 || keys[0] != "a/web" || keys[1] != "b/web" {
			t.Errorf("%s: List(app=web) = %v, %v", name, keys, err)
		}
		if inA, err := l.Namespace("a").List(web); err != nil || len(inA) != 1 || inA[0].Namespace != "a" {
			t.Errorf("%s: Namespace(a).List(app=web) = %v, %v", name, indexcheck.Keys(inA), err)
		}
		if got, err := l.Namespace("a").Get("db"); err != nil || got.Name != "db" {
			t.Errorf("%s: Namespace(a).Get(db) = %v, %v", name, got, err)
		}
		if got, err := l.Get("cluster-wide"); err != nil || got.Name != "cluster-wide" {
			t.Errorf("%s: Get(cluster-wide) = %v, %v", name, got, err)
		}
		if _, err := l.Namespace("b").Get("db"); !apierrors.IsNotFound(err) {
			t.Errorf("%s: Namespace(b).Get(db) error %v, want NotFound", name, err)
		}
	}
	generic := r.Lister()
	if got, err := generic.ByNamespace("a").Get("web"); err != nil || got.(*metav1.PartialObjectMetadata).Name != "web" {
		t.Errorf("generic ByNamespace(a).Get(web) = %v, %v", got, err)
	}
	if got, err := generic.List(web); err != nil || len(got) != 2 {
		t.Errorf("generic List(app=web) = %v, %v", got, err)
	}
}

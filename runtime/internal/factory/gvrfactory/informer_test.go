package gvrfactory

import (
	"context"
	"fmt"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

var configMapsGVR = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// compileAnnotation compiles annotation specs only, for ConfigMaps.
func compileAnnotation(spec fieldpath.IndexSpec) (cache.IndexFunc[*corev1.ConfigMap], error) {
	if spec.Source() != fieldpath.IndexByAnnotation {
		return nil, fmt.Errorf("only annotations")
	}
	return func(cm *corev1.ConfigMap) []string {
		if v, ok := cm.Annotations[spec.Annotation]; ok {
			return []string{v}
		}
		return nil
	}, nil
}

// configMaps are the ConfigMap informers of client, with compileAnnotation.
func configMaps(client *fake.Clientset) Kind[*corev1.ConfigMap, cache.NamespaceLister[*corev1.ConfigMap]] {
	return Kind[*corev1.ConfigMap, cache.NamespaceLister[*corev1.ConfigMap]]{
		NewInformer: InformerFunc[*corev1.ConfigMap](client, func(_ schema.GroupVersionResource, namespace string) ResourceClient[*corev1.ConfigMapList] {
			return client.CoreV1().ConfigMaps(namespace)
		}),
		Compile: compileAnnotation,
		GenericLister: func(Lister[*corev1.ConfigMap, cache.NamespaceLister[*corev1.ConfigMap]]) clientcache.GenericLister {
			return nil
		},
	}
}

func newFactory(client *fake.Clientset, options ...Option[*corev1.ConfigMap, cache.NamespaceLister[*corev1.ConfigMap]]) *Factory[*corev1.ConfigMap, cache.NamespaceLister[*corev1.ConfigMap]] {
	return New(configMaps(client), 0, options...)
}

// Indexes declared while the informer runs and lookups made meanwhile do
// not race, and every lookup of a declared index succeeds.
func TestConcurrentDeclarationsAndLookups(t *testing.T) {
	client := fake.NewClientset()
	for i := range 50 {
		_, err := client.CoreV1().ConfigMaps("a").Create(context.Background(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprint("c", i), Annotations: map[string]string{"k0": fmt.Sprint(i % 5), "k1": "x"},
		}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
	}
	f := newFactory(client)
	inf := f.Resource(configMapsGVR)
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); f.Shutdown() }()
	f.StartWithContext(ctx)
	if _, err := f.WaitForCacheSyncWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 20 {
				name := fmt.Sprint("byK", g, "-", i)
				if err := inf.AddIndex(name, fmt.Sprint("annotation: k", i%2)); err != nil {
					t.Error(err)
					return
				}
				got, err := inf.ByIndexInNamespace(name, "a", "x")
				if err != nil {
					t.Error(err)
					return
				}
				if want := map[int]int{0: 0, 1: 50}[i%2]; len(got) != want {
					t.Errorf("%s found %d objects, want %d", name, len(got), want)
				}
				if _, err := inf.ByIndex("byK0-0", "1"); err != nil && g == 0 {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if err := inf.AddIndex("byLabel", "label: app"); err != nil {
		t.Fatal(err)
	}
	if err := inf.AddIndex("x", "owner: apps/Deployment"); err == nil {
		t.Fatal("an index the compiler refuses was added")
	}
	if _, ok := inf.TypedInformer().GetIndexer().GetIndexers()[clientcache.NamespaceIndex]; !ok {
		t.Fatal("no namespace index")
	}
}

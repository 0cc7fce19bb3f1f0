package metadatainformer_test

// BenchmarkInformerMemory measures the heap a synced informer keeps per
// object, for the same 20,000 ConfigMaps seen through six informers:
//
//   - metadata-ours, metadata-clientgo: this package's metadata informer
//     and client-go's (metadata/metadatainformer), which receive and keep
//     only the objects' metadata (*metav1.PartialObjectMetadata);
//   - typed-ours, typed-clientgo: full typed informers of *corev1.ConfigMap,
//     the runtime's (runtime/cache.SharedIndexInformer, as generated
//     informers build it) and client-go's (tools/cache);
//   - dynamic-ours, dynamic-clientgo: runtime/dynamicinformer's and
//     client-go's dynamic informers (*unstructured.Unstructured).
//
// Every LIST builds its objects afresh, every string included, as decoding
// a response does, so the heap growth counts everything a cached object
// holds. One iteration: full collection, read HeapAlloc, run the informer
// until synced, full collection, read HeapAlloc again. heapB/obj is the
// growth divided by the number of objects: the objects and the informer's
// store, indexes and queue. Each informer carries client-go's namespace
// index, as the factories add it. ns/op is mostly the LIST and the
// collections and means nothing.
//
// See docs/benchmarks.md for the command and the results.

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	clientgodynamicinformer "k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/metadata"
	clientgometadatainformer "k8s.io/client-go/metadata/metadatainformer"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/metadatainformer"
)

// memoryObjects is the number of ConfigMaps each informer holds.
const memoryObjects = 20000

// newBenchConfigMap returns ConfigMap i, every string freshly allocated: 20
// namespaces, four labels, two annotations, a controlling Deployment, one
// managed-fields entry and four data keys of 256 bytes.
func newBenchConfigMap(i int) *corev1.ConfigMap {
	yes := true
	team := fmt.Sprintf("team-%d", i%7)
	app := fmt.Sprintf("app-%d", i%300)
	return &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace:         fmt.Sprintf("namespace-%02d", i%20),
			Name:              fmt.Sprintf("%s-config-%05d", app, i),
			UID:               types.UID(fmt.Sprintf("4c2b7e1a-0000-4000-8000-%012d", i)),
			ResourceVersion:   fmt.Sprint(1000 + i),
			CreationTimestamp: metav1.NewTime(time.Unix(1_700_000_000+int64(i), 0)),
			Labels: map[string]string{
				"app": app, "team": team, "version": fmt.Sprintf("v%d", i%3),
				"app.kubernetes.io/managed-by": strings.Clone("helm"),
			},
			Annotations: map[string]string{
				"checksum/config":  fmt.Sprintf("%064x", i),
				"example.dev/team": team,
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: strings.Clone("apps/v1"), Kind: strings.Clone("Deployment"), Name: app,
				UID: types.UID(fmt.Sprintf("9d0c5f3e-0000-4000-8000-%012d", i%300)), Controller: &yes, BlockOwnerDeletion: &yes,
			}},
			ManagedFields: []metav1.ManagedFieldsEntry{{
				Manager: strings.Clone("helm"), Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: strings.Clone("v1"),
				Time: &metav1.Time{Time: time.Unix(1_700_000_000+int64(i), 0)}, FieldsType: strings.Clone("FieldsV1"),
				FieldsV1: metav1.NewFieldsV1(`{"f:data":{".":{},"f:config.yaml":{},"f:feature-flags":{},"f:limits":{},"f:routes":{}},` +
					`"f:metadata":{"f:labels":{".":{},"f:app":{},"f:team":{},"f:version":{}}}}`),
			}},
		},
		Data: map[string]string{
			"config.yaml":   strings.Repeat(fmt.Sprint(i%10), 256),
			"feature-flags": strings.Repeat("f", 256),
			"limits":        strings.Repeat("l", 256),
			"routes":        strings.Repeat("r", 256),
		},
	}
}

func configMapList() *corev1.ConfigMapList {
	list := &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: "100000"}, Items: make([]corev1.ConfigMap, memoryObjects)}
	for i := range list.Items {
		list.Items[i] = *newBenchConfigMap(i)
	}
	return list
}

func metadataList() *metav1.PartialObjectMetadataList {
	list := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "100000"}, Items: make([]metav1.PartialObjectMetadata, memoryObjects)}
	for i := range list.Items {
		list.Items[i] = metav1.PartialObjectMetadata{
			TypeMeta:   metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"},
			ObjectMeta: newBenchConfigMap(i).ObjectMeta,
		}
	}
	return list
}

func unstructuredList() *unstructured.UnstructuredList {
	list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMapList"}, Items: make([]unstructured.Unstructured, memoryObjects)}
	list.SetResourceVersion("100000")
	for i := range list.Items {
		obj, err := kruntime.DefaultUnstructuredConverter.ToUnstructured(newBenchConfigMap(i))
		if err != nil {
			panic(err)
		}
		list.Items[i].Object = obj
	}
	return list
}

// idleWatch returns a watch that sends nothing until stopped.
func idleWatch(context.Context, metav1.ListOptions) (watch.Interface, error) {
	return watch.NewFake(), nil
}

// noWatchList is a client that tells client-go's reflector not to stream
// the initial list.
type noWatchList struct{}

func (noWatchList) IsWatchListSemanticsUnSupported() bool { return true }

// metadataClient serves metadataList to any List.
type metadataClient struct{ noWatchList }

func (metadataClient) Resource(schema.GroupVersionResource) metadata.Getter {
	return metadataResource{}
}

type metadataResource struct{ metadata.ResourceInterface }

func (metadataResource) Namespace(string) metadata.ResourceInterface { return metadataResource{} }
func (metadataResource) List(context.Context, metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	return metadataList(), nil
}
func (metadataResource) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return idleWatch(ctx, opts)
}

// dynamicClient serves unstructuredList to any List.
type dynamicClient struct{ noWatchList }

func (dynamicClient) Resource(schema.GroupVersionResource) dynamic.NamespaceableResourceInterface {
	return dynamicResource{}
}

type dynamicResource struct{ dynamic.ResourceInterface }

func (dynamicResource) Namespace(string) dynamic.ResourceInterface { return dynamicResource{} }
func (dynamicResource) List(context.Context, metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	return unstructuredList(), nil
}
func (dynamicResource) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return idleWatch(ctx, opts)
}

var namespaceIndex = clientcache.Indexers{clientcache.NamespaceIndex: clientcache.MetaNamespaceIndexFunc}

// memoryInformers build the informers BenchmarkInformerMemory compares.
var memoryInformers = []struct {
	name  string
	build func() clientcache.SharedIndexInformer
}{
	{"metadata-ours", func() clientcache.SharedIndexInformer {
		return metadatainformer.NewFilteredMetadataInformer(metadataClient{}, configMapsGVR, "", 0, namespaceIndex, nil).Informer()
	}},
	{"metadata-clientgo", func() clientcache.SharedIndexInformer {
		return clientgometadatainformer.NewFilteredMetadataInformer(metadataClient{}, configMapsGVR, "", 0, namespaceIndex, nil).Informer()
	}},
	{"typed-ours", func() clientcache.SharedIndexInformer {
		list := func(context.Context, metav1.ListOptions) (*corev1.ConfigMapList, error) { return configMapList(), nil }
		return informers.NewInformer[*corev1.ConfigMap](list, idleWatch, noWatchList{}, configMapsGVR, informers.InformerOptions{Indexers: namespaceIndex})
	}},
	{"typed-clientgo", func() clientcache.SharedIndexInformer {
		lw := clientcache.ToListWatcherWithWatchListSemantics(&clientcache.ListWatch{
			ListWithContextFunc:  func(context.Context, metav1.ListOptions) (kruntime.Object, error) { return configMapList(), nil },
			WatchFuncWithContext: idleWatch,
		}, noWatchList{})
		return clientcache.NewSharedIndexInformer(lw, &corev1.ConfigMap{}, 0, namespaceIndex)
	}},
	{"dynamic-ours", func() clientcache.SharedIndexInformer {
		return dynamicinformer.NewFilteredDynamicInformer(dynamicClient{}, configMapsGVR, "", 0, namespaceIndex, nil).Informer()
	}},
	{"dynamic-clientgo", func() clientcache.SharedIndexInformer {
		return clientgodynamicinformer.NewFilteredDynamicInformer(dynamicClient{}, configMapsGVR, "", 0, namespaceIndex, nil).Informer()
	}},
}

func BenchmarkInformerMemory(b *testing.B) {
	for _, m := range memoryInformers {
		b.Run(m.name, func(b *testing.B) {
			var grown uint64
			for b.Loop() {
				inf := m.build()
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() { defer close(done); inf.RunWithContext(ctx) }()
				if !clientcache.WaitForCacheSync(ctx.Done(), inf.HasSynced) || len(inf.GetStore().ListKeys()) != memoryObjects {
					b.Fatal("not synced")
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				grown += after.HeapAlloc - before.HeapAlloc
				cancel()
				<-done
				runtime.KeepAlive(inf)
			}
			b.ReportMetric(float64(grown)/float64(b.N*memoryObjects), "heapB/obj")
		})
	}
}

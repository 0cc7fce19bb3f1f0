package metadatainformer_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata/fake"

	"github.com/informer-gen-plus/informer-gen-plus/internal/fakewatch"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/metadatainformer"
)

var (
	configMapsGVR = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	secretsGVR    = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// newClient returns a fake metadata client holding objs, and a channel
// closed once a watch of configmaps is registered (writes made after it
// reach the watch).
func newClient(objs ...runtime.Object) (*fake.FakeMetadataClient, <-chan struct{}) {
	scheme := fake.NewTestScheme()
	if err := metav1.AddMetaToScheme(scheme); err != nil {
		panic(err)
	}
	client := fake.NewSimpleMetadataClient(scheme, objs...)
	return client, fakewatch.Started(client, "configmaps")
}

// configMap returns the metadata of a ConfigMap.
func configMap(namespace, name string, labels, annotations map[string]string, owners ...metav1.OwnerReference) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: namespace, Name: name, Labels: labels, Annotations: annotations, OwnerReferences: owners,
		},
	}
}

func controller(apiVersion, kind, name string) metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: "u-" + "name", Controller: &yes}
}

// start starts the factory's informers, waits for them to sync, and stops
// them and shuts the factory down when the test ends.
func start(t *testing.T, f *metadatainformer.Factory) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); f.Shutdown() })
	f.StartWithContext(ctx)
	waitCtx, done := context.WithTimeout(ctx, 10*time.Second)
	defer done()
	if _, err := f.WaitForCacheSyncWithContext(waitCtx); err != nil {
		t.Fatal(err)
	}
}

// eventually polls check until it returns "" or 10 s pass.
func eventually(t *testing.T, what string, check func() string) {
	t.Helper()
	testwait.For(t, 10*time.Second, what, check)
}

// waitFor waits for ch to close, for at most 10 s.
func waitFor(t *testing.T, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

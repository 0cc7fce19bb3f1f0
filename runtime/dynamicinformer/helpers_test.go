package dynamicinformer_test

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/fake"

	"github.com/informer-gen-plus/informer-gen-plus/internal/fakewatch"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
)

var (
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	configMapsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
)

// newClient returns a fake dynamic client holding objs, which knows the list
// kinds of deployments and configmaps without a scheme, and a channel closed
// once a watch of deployments is registered (writes made after it reach the
// watch).
func newClient(objs ...runtime.Object) (*fake.FakeDynamicClient, <-chan struct{}) {
	client := fake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		deploymentsGVR: "DeploymentList",
		configMapsGVR:  "ConfigMapList",
	}, objs...)
	return client, fakewatch.Started(client, "deployments")
}

// deployment returns a Deployment in its JSON form with the given fields
// (merged into the object).
func deployment(namespace, name string, fields map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"namespace": namespace, "name": name},
	}}
	for k, v := range fields {
		if k == "metadata" {
			for mk, mv := range v.(map[string]any) {
				u.Object["metadata"].(map[string]any)[mk] = mv
			}
			continue
		}
		u.Object[k] = v
	}
	return u
}

// containers returns a spec.template.spec.containers value with one
// container per image.
func containers(images ...string) map[string]any {
	list := make([]any, len(images))
	for i, image := range images {
		list[i] = map[string]any{"name": "c", "image": image}
	}
	return map[string]any{"template": map[string]any{"spec": map[string]any{"containers": list}}}
}

// start starts the factory's informers, waits for them to sync, and stops
// them and shuts the factory down when the test ends.
func start(t *testing.T, f *dynamicinformer.Factory) {
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

package dynamicinformer_test

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/fake"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/fakewatch"
)

var (
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	configMapsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	secretsGVR     = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
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

// withLabels returns the fields of an object with labels, for deployment.
func withLabels(labels map[string]any) map[string]any {
	return map[string]any{"metadata": map[string]any{"labels": labels}}
}

// configMap returns a ConfigMap in its JSON form.
func configMap(namespace, name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"namespace": namespace, "name": name},
	}}
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

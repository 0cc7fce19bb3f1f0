package explore_test

import (
	"bytes"
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	fakediscovery "k8s.io/client-go/discovery/fake"
	fakedynamic "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/informer-gen-plus/informer-gen-plus/examples/explore"
)

var listWatch = metav1.Verbs{"get", "list", "watch"}

// served is what the fake discovery lists: the core group (with a
// subresource and a resource without list and watch), apps, and a CRD group
// serving two versions (v1 preferred) and a resource also named
// deployments.
var served = []*metav1.APIResourceList{
	{GroupVersion: "v1", APIResources: []metav1.APIResource{
		{Name: "pods", Kind: "Pod", Namespaced: true, Verbs: listWatch},
		{Name: "pods/status", Kind: "Pod", Namespaced: true, Verbs: metav1.Verbs{"get", "patch"}},
		{Name: "configmaps", Kind: "ConfigMap", Namespaced: true, Verbs: metav1.Verbs{"create", "get", "list", "watch"}},
		{Name: "bindings", Kind: "Binding", Namespaced: true, Verbs: metav1.Verbs{"create"}},
		{Name: "namespaces", Kind: "Namespace", Verbs: listWatch},
	}},
	{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{
		{Name: "deployments", Kind: "Deployment", Namespaced: true, Verbs: listWatch},
	}},
	{GroupVersion: "shop.example.dev/v1", APIResources: []metav1.APIResource{
		{Name: "widgets", Kind: "Widget", Namespaced: true, Verbs: listWatch},
		{Name: "deployments", Kind: "Deployment", Namespaced: true, Verbs: listWatch},
		{Name: "shops", Kind: "Shop", Verbs: listWatch},
	}},
	{GroupVersion: "shop.example.dev/v2beta1", APIResources: []metav1.APIResource{
		{Name: "widgets", Kind: "Widget", Namespaced: true, Verbs: listWatch},
	}},
}

// listKinds are the list kinds the fake dynamic client serves.
var listKinds = map[schema.GroupVersionResource]string{
	{Group: "apps", Version: "v1", Resource: "deployments"}:              "DeploymentList",
	{Version: "v1", Resource: "configmaps"}:                              "ConfigMapList",
	{Version: "v1", Resource: "pods"}:                                    "PodList",
	{Version: "v1", Resource: "namespaces"}:                              "NamespaceList",
	{Group: "shop.example.dev", Version: "v1", Resource: "widgets"}:      "WidgetList",
	{Group: "shop.example.dev", Version: "v1", Resource: "shops"}:        "ShopList",
	{Group: "shop.example.dev", Version: "v1", Resource: "deployments"}:  "DeploymentList",
	{Group: "shop.example.dev", Version: "v2beta1", Resource: "widgets"}: "WidgetList",
}

// fakeClients returns client-go's fake discovery serving served and a fake
// dynamic client holding objs.
func fakeClients(objs ...runtime.Object) *explore.Clients {
	disc := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{Resources: served}}
	dyn := fakedynamic.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds, objs...)
	return &explore.Clients{Discovery: disc, Dynamic: dyn}
}

// run runs explore with opts over fake clients holding objs and returns
// what it printed.
func run(t *testing.T, opts explore.Options, objs ...runtime.Object) (string, error) {
	t.Helper()
	opts.Clients = fakeClients(objs...)
	var out bytes.Buffer
	err := explore.Run(context.Background(), opts, &out)
	return out.String(), err
}

// deployment returns a Deployment in its JSON form whose pod template runs
// images, with label team when it is not "".
func deployment(namespace, name, team string, images ...string) *unstructured.Unstructured {
	containers := make([]any, len(images))
	for i, image := range images {
		containers[i] = map[string]any{"name": "c" + string(rune('0'+i)), "image": image}
	}
	meta := map[string]any{"namespace": namespace, "name": name}
	if team != "" {
		meta["labels"] = map[string]any{"team": team}
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   meta,
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": containers,
		}}},
	}}
}

// object returns an object of apiVersion and kind in its JSON form.
func object(apiVersion, kind, namespace, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	u.SetNamespace(namespace)
	u.SetName(name)
	return u
}

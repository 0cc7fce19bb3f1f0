package e2e

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/metadata"
	"k8s.io/utils/ptr"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/indexcheck"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/metadatainformer"
)

func newDeployment(name, team string, owner *metav1.OwnerReference, images ...string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"team": team}},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}},
		},
	}
	if team == "" {
		d.Labels = nil
	}
	for i, image := range images {
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, corev1.Container{
			Name: fmt.Sprint("c", i), Image: image,
			Ports: []corev1.ContainerPort{{ContainerPort: int32(8080 + i%2)}},
		})
	}
	if owner != nil {
		d.OwnerReferences = []metav1.OwnerReference{*owner}
	}
	return d
}

// A dynamic informer of Deployments with run-time indexes of every kind
// (a [*] path, a [*] inside a [*], composite keys, a label, an annotation,
// owners of a named group and of the core group) syncs from the API server,
// and every lookup answers what a filter of a fresh LIST answers, after
// creates, updates that move indexed values, scaling and deletes.
func TestDynamicInformerRunTimeIndexesAgreeWithTheServer(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	ctx := t.Context()
	api := c.kube.AppsV1().Deployments(ns)
	rs := &metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs1", UID: "rs1-uid", Controller: ptr.To(true)}
	cm := &metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "cm1", UID: "cm1-uid", Controller: ptr.To(true)}
	for _, d := range []*appsv1.Deployment{
		newDeployment("web", "blue", rs, "nginx:1", "envoy:2"),
		newDeployment("api", "blue", cm, "golang:1"),
		newDeployment("db", "", nil, "postgres:16", "postgres:16"),
		newDeployment("idle", "green", nil, "pause:3"),
	} {
		if _, err := api.Create(ctx, d, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	dyn := dynamic.NewForConfigOrDie(c.config)
	factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, ns, nil)
	deployments := factory.Resource(appsv1.SchemeGroupVersion.WithResource("deployments"))
	specs := indexcheck.Declare(t, deployments, map[string]string{
		"byImage":         `field: "spec.template.spec.containers[*].image"`,
		"byPort":          "field: spec.template.spec.containers[*].ports[*].containerPort",
		"byImageTeam":     `field: "spec.template.spec.containers[*].image, metadata.labels.team"`,
		"byReplicasStrat": "field: spec.replicas, spec.strategy.type",
		"byTeam":          "label: team",
		"byNote":          "annotation: example.dev/note",
		"byReplicaSet":    "owner: apps/ReplicaSet",
		"byConfigMap":     "owner: core/ConfigMap",
	})
	factory.StartWithContext(ctx)
	t.Cleanup(factory.Shutdown) // runs after t.Context() ends
	if _, err := factory.WaitForCacheSyncWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	agree := func() string {
		list, err := dyn.Resource(appsv1.SchemeGroupVersion.WithResource("deployments")).Namespace(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return err.Error()
		}
		objs := make([]*unstructured.Unstructured, len(list.Items))
		for i := range list.Items {
			objs[i] = &list.Items[i]
		}
		if msg := sameVersions(deployments.TypedLister().Namespace(ns).List, objs); msg != "" {
			return msg
		}
		return indexcheck.Disagreements(deployments, specs, objs)
	}
	eventually(t, "after sync", agree)
	if got, _ := deployments.ByIndex("byImageTeam", "nginx:1", "blue"); len(got) != 1 {
		t.Fatalf("ByIndex(byImageTeam, nginx:1, blue) = %v, want web", indexcheck.Keys(got))
	}
	if got, _ := deployments.ByIndexInNamespace("byPort", ns, "8081"); len(got) != 2 {
		t.Fatalf("ByIndexInNamespace(byPort, 8081) = %v, want web and db", indexcheck.Keys(got))
	}

	web, err := api.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	web.Spec.Template.Spec.Containers[0].Image = "nginx:2"
	web.Labels["team"] = "red"
	web.Annotations = map[string]string{"example.dev/note": "moved"}
	web.OwnerReferences = []metav1.OwnerReference{*cm}
	web.Spec.Replicas = ptr.To[int32](3)
	if _, err := api.Update(ctx, web, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := api.Delete(ctx, "api", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Create(ctx, newDeployment("cache", "green", rs, "redis:7", "envoy:2"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "after an update, a delete and a create", func() string {
		if got, _ := deployments.ByIndex("byConfigMap", "cm1"); len(got) != 1 || got[0].GetName() != "web" {
			return fmt.Sprintf("ByIndex(byConfigMap, cm1) = %v, want web", indexcheck.Keys(got))
		}
		return agree()
	})
}

// sameVersions compares the objects a lister holds with a LIST, by key and
// resourceVersion.
func sameVersions[T metav1.Object](list func(labels.Selector) ([]T, error), want []T) string {
	got, err := list(labels.Everything())
	if err != nil {
		return err.Error()
	}
	versions := func(objs []T) map[string]string {
		m := make(map[string]string, len(objs))
		for _, o := range objs {
			m[o.GetNamespace()+"/"+o.GetName()] = o.GetResourceVersion()
		}
		return m
	}
	if g, w := versions(got), versions(want); !maps.Equal(g, w) {
		return fmt.Sprintf("the informer holds %d objects, the LIST %d, or versions differ (first keys: %v, %v)",
			len(g), len(w), firstKeys(g), firstKeys(w))
	}
	return ""
}

func firstKeys(m map[string]string) []string {
	keys := slices.Sorted(maps.Keys(m))
	return keys[:min(len(keys), 5)]
}

// A metadata informer of every ConfigMap in the cluster holds what a fresh
// LIST of every ConfigMap holds, and its label, annotation and owner indexes
// agree with the LIST, after creates, updates and deletes.
func TestMetadataInformerOfEveryConfigMap(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	ctx := t.Context()
	api := c.kube.CoreV1().ConfigMaps(ns)
	deploy := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "web-uid", Controller: ptr.To(true)}
	for i := range 30 {
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{
				Name:        fmt.Sprint("cm", i),
				Labels:      map[string]string{"team": []string{"blue", "green", "red"}[i%3]},
				Annotations: map[string]string{"example.dev/note": fmt.Sprint(i % 2)},
			},
			Data: map[string]string{"payload": fmt.Sprintf("%01000d", i)},
		}
		if i%4 == 0 {
			cm.OwnerReferences = []metav1.OwnerReference{deploy}
		}
		if _, err := api.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	other := cluster.NewNamespace(t)
	if _, err := c.kube.CoreV1().ConfigMaps(other).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "elsewhere"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	meta := metadata.NewForConfigOrDie(c.config)
	gvr := corev1.SchemeGroupVersion.WithResource("configmaps")
	factory := metadatainformer.NewSharedInformerFactoryWithOptions(meta, 0)
	configMaps := factory.Resource(gvr)
	specs := indexcheck.Declare(t, configMaps, map[string]string{
		"byTeam":       "label: team",
		"byNote":       "annotation: example.dev/note",
		"byDeployment": "owner: apps/Deployment",
	})
	factory.StartWithContext(ctx)
	t.Cleanup(factory.Shutdown)
	if _, err := factory.WaitForCacheSyncWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	agree := func() string {
		list, err := meta.Resource(gvr).List(ctx, metav1.ListOptions{})
		if err != nil {
			return err.Error()
		}
		objs := make([]*metav1.PartialObjectMetadata, len(list.Items))
		for i := range list.Items {
			objs[i] = &list.Items[i]
		}
		if msg := sameVersions(configMaps.TypedLister().List, objs); msg != "" {
			return msg
		}
		return indexcheck.Disagreements(configMaps, specs, objs)
	}
	eventually(t, "after sync", agree)
	if _, err := configMaps.TypedLister().Namespace(other).Get("elsewhere"); err != nil {
		t.Fatalf("the ConfigMap of another namespace: %v", err)
	}
	if got, _ := configMaps.ByIndexInNamespace("byDeployment", ns, "web"); len(got) != 8 {
		t.Fatalf("ByIndexInNamespace(byDeployment, web) found %d, want 8", len(got))
	}

	for i := range 10 {
		name := fmt.Sprint("cm", i)
		if i%2 == 0 {
			if err := api.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		cm, err := api.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cm.Labels["team"] = "purple"
		cm.OwnerReferences = []metav1.OwnerReference{deploy}
		if _, err := api.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "after updates and deletes", func() string {
		if got, _ := configMaps.ByIndexInNamespace("byTeam", ns, "purple"); len(got) != 5 {
			return fmt.Sprintf("ByIndexInNamespace(byTeam, purple) = %v, want 5", indexcheck.Keys(got))
		}
		return agree()
	})
}

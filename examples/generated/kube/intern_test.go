package kube_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	corev1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// The generated InternTransform leaves every pod reflect.DeepEqual to what
// it was, right after the transform and once all pods went through it (a
// later pod must not change what an earlier one shares): 1,200 pods decoded
// from protobuf, twice (the second time, most values already have a
// canonical copy), and the edge cases, as built and decoded.
func TestInternTransformKeepsPodsEqual(t *testing.T) {
	cfg := testpods.Config{Namespaces: 2, PodsPerNamespace: 600, Nodes: 50}
	for round := range 2 {
		pods := append(decodedPods(t, cfg), edgePods()...)
		pods = append(pods, roundTrip(t, edgePods())...)
		before := make([]*corev1.Pod, len(pods))
		for i, p := range pods {
			before[i] = p.DeepCopy()
			got, err := corev1listers.InternTransform(p)
			if err != nil {
				t.Fatalf("round %d, pod %d: %v", round, i, err)
			}
			if got != any(p) {
				t.Fatalf("round %d, pod %d: InternTransform returned another object", round, i)
			}
			if !reflect.DeepEqual(p, before[i]) {
				t.Fatalf("round %d, pod %s/%s changed:\nbefore %+v\nafter  %+v", round, p.Namespace, p.Name, before[i], p)
			}
		}
		for i, p := range pods {
			if !reflect.DeepEqual(p, before[i]) {
				t.Errorf("round %d, pod %s/%s changed after the others went through:\nbefore %+v\nafter  %+v", round, p.Namespace, p.Name, before[i], p)
			}
		}
		if len(pods) < 1000 {
			t.Fatalf("checked %d pods, want at least 1,000", len(pods))
		}
	}
	// Objects of other types pass through unchanged.
	other := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "s"}}
	if got, err := corev1listers.InternTransform(other); err != nil || got != any(other) {
		t.Errorf("InternTransform(Service) = %v, %v; want it unchanged", got, err)
	}
}

// The factory's Intern covers every kind of its informers, and leaves
// Deployments (holding pod templates) and ConfigMaps DeepEqual to what they
// were, while their replicas share what they repeat.
func TestFactoryInternKeepsObjectsEqual(t *testing.T) {
	pods := testpods.Generate(testpods.Config{Namespaces: 2, PodsPerNamespace: 100, Nodes: 10})
	var objs []k8sruntime.Object
	for i, p := range pods {
		objs = append(objs,
			&appsv1.Deployment{
				ObjectMeta: *p.ObjectMeta.DeepCopy(),
				Spec: appsv1.DeploymentSpec{
					Replicas: ptr(int32(3)),
					Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": p.Labels["app"]}},
					Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: p.Labels}, Spec: *p.Spec.DeepCopy()},
				},
			},
			&corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("config-%d", i), Namespace: p.Namespace, Labels: p.Labels},
				Data:       map[string]string{"app": p.Labels["app"], "node": p.Spec.NodeName},
				BinaryData: map[string][]byte{"blob": []byte(p.Name)},
			})
	}
	for _, obj := range objs {
		want := obj.DeepCopyObject()
		externalversions.Intern(obj, nil)
		if !reflect.DeepEqual(obj, want) {
			t.Fatalf("Intern changed a %T:\nbefore %+v\nafter  %+v", obj, want, obj)
		}
	}
	a, b := objs[0].(*appsv1.Deployment), objs[2].(*appsv1.Deployment)
	if reflect.DeepEqual(a.Spec.Selector, b.Spec.Selector) && a.Spec.Selector != b.Spec.Selector {
		t.Errorf("deployments %s and %s hold equal selectors, not shared", a.Name, b.Name)
	}
	ca, cb := &a.Spec.Template.Spec.Containers[0], &b.Spec.Template.Spec.Containers[0]
	if ca.Image == cb.Image && !sameString(ca.Image, cb.Image) {
		t.Errorf("deployments %s and %s hold equal images, not interned", a.Name, b.Name)
	}
}

// The factory interns by default: the pods
// its lister returns are those the server holds, interned.
func TestInternTransformInFactory(t *testing.T) {
	pods := testpods.Generate(testpods.Config{Namespaces: 1, PodsPerNamespace: 50, Nodes: 5})
	objs := make([]k8sruntime.Object, len(pods))
	for i, p := range pods {
		objs[i] = p.DeepCopy()
	}
	client := fake.NewClientset(objs...)
	factory := externalversions.NewSharedInformerFactory(client, 0)
	lister := factory.Core().V1().Pods().Lister()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	factory.Start(ctx.Done())
	defer func() {
		cancel()
		factory.Shutdown()
	}()
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("%v did not sync", typ)
		}
	}
	for _, want := range pods {
		got, err := lister.Pods(want.Namespace).Get(want.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Spec, want.Spec) || !reflect.DeepEqual(got.Labels, want.Labels) {
			t.Errorf("pod %s/%s in the cache differs from the server's", want.Namespace, want.Name)
		}
	}
	cached, err := lister.List(labels.Everything())
	if err != nil || len(cached) != len(pods) {
		t.Fatalf("lister has %d pods (%v), want %d", len(cached), err, len(pods))
	}
	if ns := cached[0].Namespace; !sameString(ns, cached[1].Namespace) {
		t.Errorf("cached pods of one namespace do not share its name")
	}
}

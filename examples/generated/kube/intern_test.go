package kube_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	corev1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testpods"
)

// protobuf returns the protobuf serializer of client-go's scheme.
func protobuf(tb testing.TB) k8sruntime.Serializer {
	s, err := testpods.Protobuf()
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// encodedPods returns the pods of cfg, each encoded to protobuf on its own.
func encodedPods(tb testing.TB, cfg testpods.Config) [][]byte {
	out, err := testpods.EncodeAll(testpods.Generate(cfg))
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// decodePod decodes one pod: every string of the result is its own
// allocation, as after a LIST.
func decodePod(tb testing.TB, s k8sruntime.Serializer, data []byte) *corev1.Pod {
	p, err := testpods.Decode(s, data)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// decodedPods returns the pods of cfg, each decoded from its own protobuf
// encoding.
func decodedPods(tb testing.TB, cfg testpods.Config) []*corev1.Pod {
	s := protobuf(tb)
	var out []*corev1.Pod
	for _, data := range encodedPods(tb, cfg) {
		out = append(out, decodePod(tb, s, data))
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// edgePods are pods set in the ways sharing could confuse: nil and empty
// maps and slices, pointers to zero values, quantities equal in value but
// not in representation.
func edgePods() []*corev1.Pod {
	cached := resource.MustParse("128Mi")
	_ = cached.String() // caches the text in the quantity
	return []*corev1.Pod{
		{},
		{
			ObjectMeta: metav1.ObjectMeta{
				Name: "empty", Namespace: "edge",
				Labels: map[string]string{}, Annotations: map[string]string{},
				Finalizers: []string{}, OwnerReferences: []metav1.OwnerReference{},
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "m", FieldsV1: &metav1.FieldsV1{Raw: []byte{}}}},
			},
			Spec: corev1.PodSpec{
				Volumes: []corev1.Volume{}, Tolerations: []corev1.Toleration{},
				Containers: []corev1.Container{{
					Name: "c", Command: []string{}, Args: []string{}, Ports: []corev1.ContainerPort{},
					Env: []corev1.EnvVar{}, EnvFrom: []corev1.EnvFromSource{},
					Resources:     corev1.ResourceRequirements{Limits: corev1.ResourceList{}, Requests: corev1.ResourceList{}, Claims: []corev1.ResourceClaim{}},
					VolumeMounts:  []corev1.VolumeMount{},
					LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{}}}},
				}},
				NodeSelector: map[string]string{}, ImagePullSecrets: []corev1.LocalObjectReference{},
				SecurityContext: &corev1.PodSecurityContext{SupplementalGroups: []int64{}, Sysctls: []corev1.Sysctl{}},
				Overhead:        corev1.ResourceList{},
			},
		},
		{
			ObjectMeta: metav1.ObjectMeta{
				Name: "nil", Namespace: "edge",
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "m", FieldsV1: &metav1.FieldsV1{}}},
			},
			Spec: corev1.PodSpec{
				Containers: []corev1.Container{{
					Name:          "c",
					LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{}}},
				}},
				SecurityContext: &corev1.PodSecurityContext{},
			},
		},
		{
			ObjectMeta: metav1.ObjectMeta{
				Name: "zero-pointers", Namespace: "edge",
				OwnerReferences:            []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "rs", Controller: ptr(false), BlockOwnerDeletion: ptr(false)}},
				DeletionGracePeriodSeconds: ptr(int64(0)),
			},
			Spec: corev1.PodSpec{
				TerminationGracePeriodSeconds: ptr(int64(0)),
				Priority:                      ptr(int32(0)),
				EnableServiceLinks:            ptr(false),
				Containers:                    []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: cached}}}},
			},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Name: "same-value-other-form", Namespace: "edge"},
			Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("134217728")}}}},
			},
		},
	}
}

// The generated InternTransform leaves every pod reflect.DeepEqual to what
// it was: 1,200 pods decoded from protobuf, twice (the second time, most
// values already have a canonical copy), and the edge cases.
func TestInternTransformKeepsPodsEqual(t *testing.T) {
	cfg := testpods.Config{Namespaces: 2, PodsPerNamespace: 600, Nodes: 50}
	for round := range 2 {
		pods := append(decodedPods(t, cfg), edgePods()...)
		for i, p := range pods {
			want := p.DeepCopy()
			got, err := corev1listers.InternTransform(p)
			if err != nil {
				t.Fatalf("round %d, pod %d: %v", round, i, err)
			}
			if got != any(p) {
				t.Fatalf("round %d, pod %d: InternTransform returned another object", round, i)
			}
			if !reflect.DeepEqual(p, want) {
				t.Fatalf("round %d, pod %s/%s changed:\nbefore %+v\nafter  %+v", round, want.Namespace, want.Name, want, p)
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

// The factory's InternTransform covers every kind of its informers, and
// leaves Deployments (holding pod templates) and ConfigMaps DeepEqual to
// what they were, while their replicas share what they repeat.
func TestFactoryInternTransformKeepsObjectsEqual(t *testing.T) {
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
		got, err := externalversions.InternTransform(obj)
		if err != nil || got != any(obj) {
			t.Fatalf("InternTransform(%T) = %v, %v; want the object itself", obj, got, err)
		}
		if !reflect.DeepEqual(obj, want) {
			t.Fatalf("InternTransform changed a %T:\nbefore %+v\nafter  %+v", obj, want, obj)
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

// sameMap reports whether a and b are the same map.
func sameMap[M ~map[K]V, K comparable, V any](a, b M) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// sameArray reports whether a and b share their first element.
func sameArray[S ~[]E, E any](a, b S) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }

// sameString reports whether a and b share their bytes.
func sameString[S ~string](a, b S) bool {
	return unsafe.StringData(string(a)) == unsafe.StringData(string(b))
}

// Replicas share what they repeat: after the transform, every part that two
// pods of one ReplicaSet hold equal (labels, owner references, tolerations,
// a container's image, ports, environment, resources and probes, the
// volume sources) is one copy, and so are the strings both hold; the parts
// unique to each pod are their own.
func TestInternTransformSharesReplicas(t *testing.T) {
	pods := decodedPods(t, testpods.Config{Namespaces: 2, PodsPerNamespace: 600, Nodes: 50})
	byOwner := map[string][]*corev1.Pod{}
	for _, p := range pods {
		if _, err := corev1listers.InternTransform(p); err != nil {
			t.Fatal(err)
		}
		if ref := metav1.GetControllerOf(p); ref != nil {
			byOwner[string(ref.UID)] = append(byOwner[string(ref.UID)], p)
		}
	}
	pairs, checks := 0, 0
	check := func(a, b *corev1.Pod, what string, equal, shared bool) {
		t.Helper()
		if !equal {
			return
		}
		checks++
		if !shared {
			t.Errorf("replicas %s and %s hold equal %s, not shared", a.Name, b.Name, what)
		}
	}
	for _, replicas := range byOwner {
		if len(replicas) < 2 {
			continue
		}
		pairs++
		a, b := replicas[0], replicas[1]
		check(a, b, "namespaces", a.Namespace == b.Namespace && a.Namespace != "", sameString(a.Namespace, b.Namespace))
		check(a, b, "generate names", a.GenerateName == b.GenerateName && a.GenerateName != "", sameString(a.GenerateName, b.GenerateName))
		check(a, b, "labels", reflect.DeepEqual(a.Labels, b.Labels) && len(a.Labels) > 0, sameMap(a.Labels, b.Labels))
		check(a, b, "owner references", reflect.DeepEqual(a.OwnerReferences, b.OwnerReferences) && len(a.OwnerReferences) > 0, sameArray(a.OwnerReferences, b.OwnerReferences))
		check(a, b, "tolerations", reflect.DeepEqual(a.Spec.Tolerations, b.Spec.Tolerations) && len(a.Spec.Tolerations) > 0, sameArray(a.Spec.Tolerations, b.Spec.Tolerations))
		check(a, b, "node selectors", reflect.DeepEqual(a.Spec.NodeSelector, b.Spec.NodeSelector) && len(a.Spec.NodeSelector) > 0, sameMap(a.Spec.NodeSelector, b.Spec.NodeSelector))
		check(a, b, "security contexts", reflect.DeepEqual(a.Spec.SecurityContext, b.Spec.SecurityContext) && a.Spec.SecurityContext != nil, a.Spec.SecurityContext == b.Spec.SecurityContext)
		check(a, b, "affinities", reflect.DeepEqual(a.Spec.Affinity, b.Spec.Affinity) && a.Spec.Affinity != nil, a.Spec.Affinity == b.Spec.Affinity)
		for i := range min(len(a.Spec.Containers), len(b.Spec.Containers)) {
			ca, cb := &a.Spec.Containers[i], &b.Spec.Containers[i]
			check(a, b, "images", ca.Image == cb.Image && ca.Image != "", sameString(ca.Image, cb.Image))
			check(a, b, "ports", reflect.DeepEqual(ca.Ports, cb.Ports) && len(ca.Ports) > 0, sameArray(ca.Ports, cb.Ports))
			check(a, b, "environments", reflect.DeepEqual(ca.Env, cb.Env) && len(ca.Env) > 0, sameArray(ca.Env, cb.Env))
			check(a, b, "resource limits", reflect.DeepEqual(ca.Resources.Limits, cb.Resources.Limits) && len(ca.Resources.Limits) > 0, sameMap(ca.Resources.Limits, cb.Resources.Limits))
			check(a, b, "resource requests", reflect.DeepEqual(ca.Resources.Requests, cb.Resources.Requests) && len(ca.Resources.Requests) > 0, sameMap(ca.Resources.Requests, cb.Resources.Requests))
			check(a, b, "liveness probes", reflect.DeepEqual(ca.LivenessProbe, cb.LivenessProbe) && ca.LivenessProbe != nil, ca.LivenessProbe == cb.LivenessProbe)
			check(a, b, "readiness probes", reflect.DeepEqual(ca.ReadinessProbe, cb.ReadinessProbe) && ca.ReadinessProbe != nil, ca.ReadinessProbe == cb.ReadinessProbe)
			check(a, b, "container security contexts", reflect.DeepEqual(ca.SecurityContext, cb.SecurityContext) && ca.SecurityContext != nil, ca.SecurityContext == cb.SecurityContext)
		}
		for i := range min(len(a.Spec.Volumes), len(b.Spec.Volumes)) {
			va, vb := &a.Spec.Volumes[i].VolumeSource, &b.Spec.Volumes[i].VolumeSource
			check(a, b, "config map volumes", reflect.DeepEqual(va.ConfigMap, vb.ConfigMap) && va.ConfigMap != nil, va.ConfigMap == vb.ConfigMap)
			check(a, b, "projected volumes", reflect.DeepEqual(va.Projected, vb.Projected) && va.Projected != nil, va.Projected == vb.Projected)
		}
		// Unique to each pod: left as decoded, so never shared.
		if a.Name != "" && sameString(a.Name, b.Name) {
			t.Errorf("replicas %s and %s share their name's bytes", a.Name, b.Name)
		}
		if a.Status.PodIP != "" && a.Status.PodIP == b.Status.PodIP && sameString(a.Status.PodIP, b.Status.PodIP) {
			t.Errorf("replicas %s and %s share their pod IP", a.Name, b.Name)
		}
	}
	if pairs < 10 || checks < 100 {
		t.Fatalf("only %d pairs of replicas, %d shared parts checked", pairs, checks)
	}
	t.Logf("%d pairs of replicas, %d shared parts checked", pairs, checks)
}

// The factory's InternTransform is what its WithTransform takes: the pods
// its lister returns are those the server holds, interned.
func TestInternTransformInFactory(t *testing.T) {
	pods := testpods.Generate(testpods.Config{Namespaces: 1, PodsPerNamespace: 50, Nodes: 5})
	objs := make([]k8sruntime.Object, len(pods))
	for i, p := range pods {
		objs[i] = p.DeepCopy()
	}
	client := fake.NewClientset(objs...)
	factory := externalversions.NewSharedInformerFactoryWithOptions(client, 0, externalversions.WithTransform(externalversions.InternTransform))
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

// heapPods is the number of cached pods TestGeneratedInternHeap measures,
// as runtime/intern's TestInternedPodHeap does for the hand-written
// transform: 50 namespaces of 1,000 testpods pods on 500 nodes.
var heapPods = testpods.Config{Namespaces: 50, PodsPerNamespace: 1000, Nodes: 500}

const (
	heapVariantEnv = "KUBE_INTERN_HEAP_VARIANT"
	heapDataEnv    = "KUBE_INTERN_HEAP_DATA"
)

// heapVariants are the ways TestGeneratedInternHeap keeps the pods: as
// decoded, or through the generated InternTransform.
var heapVariants = []string{"decoded", "decoded+InternTransform"}

// TestGeneratedInternHeap measures the heap each cached pod takes, as
// decoded and through the generated transform, exactly as runtime/intern's
// TestInternedPodHeap measures the hand-written podexample.PodTransform
// (same pods, same method: each variant in a process of its own, the heap
// after two collections), so that their figures compare. Only a loose
// bound is asserted: the transform must save.
func TestGeneratedInternHeap(t *testing.T) {
	if name := os.Getenv(heapVariantEnv); name != "" {
		measureHeapVariant(t, name, os.Getenv(heapDataEnv))
		return
	}
	if testing.Short() || raceEnabled {
		t.Skip("measures the heap of 50,000 pods: not in -short or -race runs")
	}
	dataFile := filepath.Join(t.TempDir(), "pods.pb")
	if err := testpods.WriteEncoded(dataFile, encodedPods(t, heapPods)); err != nil {
		t.Fatal(err)
	}
	heap := map[string]float64{}
	for _, v := range heapVariants {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGeneratedInternHeap$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), heapVariantEnv+"="+v, heapDataEnv+"="+dataFile)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("variant %s: %v\n%s", v, err, out)
		}
		found := false
		for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
			var perPod float64
			if _, err := fmt.Sscanf(strings.TrimSpace(sc.Text()), "intern_test.go:%d: heapB/pod %f", new(int), &perPod); err == nil {
				heap[v], found = perPod, true
			}
		}
		if !found {
			t.Fatalf("variant %s printed no figure:\n%s", v, out)
		}
		t.Logf("%-24s %8.0f heap B/pod", v, heap[v])
	}
	plain, shared := heap[heapVariants[0]], heap[heapVariants[1]]
	t.Logf("%s / %s = %.2f (runtime/intern's TestInternedPodHeap gives the hand-written transform's ratio)", heapVariants[1], heapVariants[0], shared/plain)
	if shared >= plain {
		t.Errorf("the generated transform keeps %.0f B/pod, no less than decoded pods (%.0f)", shared, plain)
	}
}

// measureHeapVariant is the child process of TestGeneratedInternHeap.
func measureHeapVariant(t *testing.T, name, dataFile string) {
	data, err := testpods.ReadEncoded(dataFile)
	if err != nil {
		t.Fatal(err)
	}
	s := protobuf(t)
	pods := make([]*corev1.Pod, len(data))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i, d := range data {
		p := decodePod(t, s, d)
		if name != heapVariants[0] {
			corev1listers.InternPod(p)
		}
		pods[i] = p
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("heapB/pod %.1f", float64(after.HeapAlloc-before.HeapAlloc)/float64(len(pods)))
	runtime.KeepAlive(pods)
	runtime.KeepAlive(data)
}

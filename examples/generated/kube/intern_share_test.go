package kube_test

import (
	"reflect"
	"sync"
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	corev1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

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
		check(a, b, "annotations", reflect.DeepEqual(a.Annotations, b.Annotations) && len(a.Annotations) > 0, sameMap(a.Annotations, b.Annotations))
		check(a, b, "grace periods", reflect.DeepEqual(a.Spec.TerminationGracePeriodSeconds, b.Spec.TerminationGracePeriodSeconds) && a.Spec.TerminationGracePeriodSeconds != nil, a.Spec.TerminationGracePeriodSeconds == b.Spec.TerminationGracePeriodSeconds)
		check(a, b, "enableServiceLinks", reflect.DeepEqual(a.Spec.EnableServiceLinks, b.Spec.EnableServiceLinks) && a.Spec.EnableServiceLinks != nil, a.Spec.EnableServiceLinks == b.Spec.EnableServiceLinks)
		for i := range min(len(a.ManagedFields), len(b.ManagedFields)) {
			ma, mb := &a.ManagedFields[i], &b.ManagedFields[i]
			check(a, b, "field managers", ma.Manager == mb.Manager && ma.Manager != "", sameString(ma.Manager, mb.Manager))
			check(a, b, "managed fields documents", reflect.DeepEqual(ma.FieldsV1, mb.FieldsV1) && ma.FieldsV1 != nil, ma.FieldsV1 == mb.FieldsV1)
		}
		for i := range min(len(a.Status.Conditions), len(b.Status.Conditions)) {
			ta, tb := a.Status.Conditions[i].Type, b.Status.Conditions[i].Type
			check(a, b, "condition types", ta == tb && ta != "", sameString(ta, tb))
		}
		for i := range min(len(a.Status.ContainerStatuses), len(b.Status.ContainerStatuses)) {
			ia, ib := a.Status.ContainerStatuses[i].Image, b.Status.ContainerStatuses[i].Image
			check(a, b, "container status images", ia == ib && ia != "", sameString(ia, ib))
		}
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
			for j := range min(len(ca.VolumeMounts), len(cb.VolumeMounts)) {
				pa, pb := ca.VolumeMounts[j].MountPath, cb.VolumeMounts[j].MountPath
				check(a, b, "mount paths", pa == pb && pa != "", sameString(pa, pb))
			}
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

// Equal affinities, topology spread constraints, DNS configs and lifecycle
// hooks are shared, and the pods stay as they were.
func TestInternPodSharesScheduling(t *testing.T) {
	pods := roundTrip(t, []*corev1.Pod{schedulingPod("a"), schedulingPod("b")})
	for _, p := range pods {
		corev1listers.InternPod(p)
	}
	a, b := &pods[0].Spec, &pods[1].Spec
	for what, shared := range map[string]bool{
		"affinities":                  a.Affinity == b.Affinity,
		"topology spread constraints": sameArray(a.TopologySpreadConstraints, b.TopologySpreadConstraints),
		"DNS configs":                 a.DNSConfig == b.DNSConfig,
		"lifecycle hooks":             a.Containers[0].Lifecycle == b.Containers[0].Lifecycle,
	} {
		if !shared {
			t.Errorf("equal %s are not shared", what)
		}
	}
	for i, name := range []string{"a", "b"} {
		if want := schedulingPod(name); !reflect.DeepEqual(pods[i].Spec, want.Spec) {
			t.Errorf("InternPod changed pod %s:\nbefore %+v\nafter  %+v", name, want.Spec, pods[i].Spec)
		}
	}
}

// Goroutines transforming pods with the same parts at once (run with
// -race): every pod stays equal to what it was, and the copies of one pod
// the goroutines transformed share their parts.
func TestInternPodConcurrent(t *testing.T) {
	const workers = 4
	src := decodedPods(t, testpods.Config{Namespaces: 2, PodsPerNamespace: 100, Nodes: 50})
	sets := make([][]*corev1.Pod, workers)
	for w := range sets {
		sets[w] = roundTrip(t, src)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for _, p := range sets[w] {
				corev1listers.InternPod(p)
			}
		})
	}
	wg.Wait()
	for w := range sets {
		for i, p := range sets[w] {
			if !reflect.DeepEqual(p, src[i]) {
				t.Fatalf("worker %d: pod %s/%s changed", w, p.Namespace, p.Name)
			}
		}
	}
	for i := range src {
		a, b := &sets[0][i].Spec.Containers[0], &sets[workers-1][i].Spec.Containers[0]
		if a.ReadinessProbe == nil || a.ReadinessProbe != b.ReadinessProbe || !sameArray(a.Env, b.Env) {
			t.Fatalf("pod %d: two workers' copies do not share their probe and environment", i)
		}
	}
}

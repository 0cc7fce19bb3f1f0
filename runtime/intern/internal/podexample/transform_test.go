package podexample

import (
	"reflect"
	"sync"
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testpods"
)

func ptr[T any](v T) *T { return &v }

// realisticPods returns n testpods pods decoded from protobuf.
func realisticPods(t testing.TB, namespaces, perNamespace int) []*corev1.Pod {
	return roundTrip(t, testpods.Generate(testpods.Config{Namespaces: namespaces, PodsPerNamespace: perNamespace, Nodes: 50}))
}

// edgePods are pods whose fields are set in the ways sharing could confuse:
// nil and empty maps and slices, pointers to zero values, quantities equal
// in value but not in representation.
func edgePods() []*corev1.Pod {
	cached := resource.MustParse("128Mi")
	_ = cached.String() // caches the text in the quantity
	bare := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Namespace: "edge"}
	}
	return []*corev1.Pod{
		{},
		{
			ObjectMeta: withMeta(bare("empty-collections"), func(m *metav1.ObjectMeta) {
				m.Labels = map[string]string{}
				m.Annotations = map[string]string{}
				m.Finalizers = []string{}
				m.OwnerReferences = []metav1.OwnerReference{}
				m.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "m", FieldsV1: &metav1.FieldsV1{Raw: []byte{}}}}
			}),
			Spec: corev1.PodSpec{
				Volumes:     []corev1.Volume{},
				Tolerations: []corev1.Toleration{},
				Containers: []corev1.Container{{
					Name: "c", Command: []string{}, Args: []string{}, Ports: []corev1.ContainerPort{},
					Env: []corev1.EnvVar{}, EnvFrom: []corev1.EnvFromSource{},
					Resources:     corev1.ResourceRequirements{Limits: corev1.ResourceList{}, Requests: corev1.ResourceList{}, Claims: []corev1.ResourceClaim{}},
					VolumeMounts:  []corev1.VolumeMount{},
					LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{}}}},
				}},
				NodeSelector:     map[string]string{},
				ImagePullSecrets: []corev1.LocalObjectReference{},
				SecurityContext:  &corev1.PodSecurityContext{SupplementalGroups: []int64{}, Sysctls: []corev1.Sysctl{}},
				Overhead:         corev1.ResourceList{},
			},
			Status: corev1.PodStatus{Conditions: []corev1.PodCondition{}, ContainerStatuses: []corev1.ContainerStatus{}},
		},
		{
			ObjectMeta: withMeta(bare("nil-collections"), func(m *metav1.ObjectMeta) {
				m.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "m", FieldsV1: &metav1.FieldsV1{}}}
			}),
			Spec: corev1.PodSpec{
				Containers: []corev1.Container{{
					Name:          "c",
					LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{}}},
				}},
				SecurityContext: &corev1.PodSecurityContext{},
			},
		},
		{
			ObjectMeta: withMeta(bare("zero-pointers"), func(m *metav1.ObjectMeta) {
				m.OwnerReferences = []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "rs", Controller: ptr(false), BlockOwnerDeletion: ptr(false)}}
				m.DeletionGracePeriodSeconds = ptr(int64(0))
			}),
			Spec: corev1.PodSpec{
				TerminationGracePeriodSeconds: ptr(int64(0)),
				Priority:                      ptr(int32(0)),
				EnableServiceLinks:            ptr(false),
				PreemptionPolicy:              ptr(corev1.PreemptionPolicy("")),
				RuntimeClassName:              ptr(""),
				Tolerations:                   []corev1.Toleration{{Key: "k", TolerationSeconds: ptr(int64(0))}, {Key: "k"}},
				Containers: []corev1.Container{{
					Name:            "c",
					SecurityContext: &corev1.SecurityContext{Privileged: ptr(false), RunAsUser: ptr(int64(0))},
					ReadinessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromInt32(8080)}}},
					LivenessProbe:   &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromString("8080")}}},
				}},
			},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "c", Started: ptr(false)}}},
		},
		quantityPod("quantity-one", resource.MustParse("1"), resource.MustParse("128Mi")),
		quantityPod("quantity-milli", resource.MustParse("1000m"), resource.MustParse("128Mi")),
		quantityPod("quantity-cached", resource.MustParse("1"), cached),
		quantityPod("quantity-big", resource.MustParse("1"), resource.MustParse("123456789012345678901234567890")),
		schedulingPod("scheduling-a"),
		schedulingPod("scheduling-b"),
		{
			ObjectMeta: bare("env"),
			Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "c",
				Env: []corev1.EnvVar{
					{Name: "EMPTY"},
					{Name: "FROM", ValueFrom: &corev1.EnvVarSource{}},
					{Name: "DIV", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.cpu", Divisor: resource.MustParse("1m")}}},
				},
			}, {
				Name: "d",
				Env: []corev1.EnvVar{
					{Name: "EMPTY", Value: ""},
					{Name: "FROM"},
					{Name: "DIV", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.cpu", Divisor: resource.MustParse("0.001")}}},
				},
			}}},
		},
	}
}

// schedulingPod is a pod with affinity, topology spread constraints, a
// lifecycle hook and DNS options, as a Deployment's replicas carry them.
func schedulingPod(name string) *corev1.Pod {
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "edge"},
		Spec: corev1.PodSpec{
			Affinity: &corev1.Affinity{
				NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
					NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a", "b"}}}}},
				}},
				PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
					Weight:          100,
					PodAffinityTerm: corev1.PodAffinityTerm{LabelSelector: selector, TopologyKey: "kubernetes.io/hostname"},
				}}},
			},
			TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{
				MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: corev1.ScheduleAnyway,
				LabelSelector: selector, MatchLabelKeys: []string{"pod-template-hash"},
			}},
			DNSConfig: &corev1.PodDNSConfig{Options: []corev1.PodDNSConfigOption{{Name: "ndots", Value: ptr("2")}}},
			Containers: []corev1.Container{{
				Name:      "web",
				Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 5}}},
			}},
		},
	}
}

func withMeta(m metav1.ObjectMeta, set func(*metav1.ObjectMeta)) metav1.ObjectMeta {
	set(&m)
	return m
}

func quantityPod(name string, cpu, mem resource.Quantity) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "edge"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name:      "c",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: cpu, corev1.ResourceMemory: mem}},
		}}},
	}
}

// PodTransform changes no pod: every pod is DeepEqual before and after, once
// all of them went through it, realistic pods decoded from protobuf and
// edge cases, themselves and decoded.
func TestPodTransformKeepsPodsEqual(t *testing.T) {
	pods := realisticPods(t, 3, 400)
	edges := edgePods()
	pods = append(pods, edges...)
	pods = append(pods, roundTrip(t, edges)...)
	before := make([]*corev1.Pod, len(pods))
	for i, p := range pods {
		before[i] = p.DeepCopy()
	}
	for _, p := range pods {
		out, err := PodTransform(p)
		if err != nil || out != p {
			t.Fatalf("PodTransform(%s) = %p, %v; want the pod itself", p.Name, out, err)
		}
	}
	for i, p := range pods {
		if !reflect.DeepEqual(before[i], p) {
			t.Errorf("pod %d (%s) changed:\nbefore %+v\nafter  %+v", i, p.Name, before[i], p)
		}
	}
	if len(pods) < 1000 {
		t.Fatalf("only %d pods checked", len(pods))
	}
}

// Replicas of one Deployment share what they repeat after PodTransform.
func TestPodTransformShares(t *testing.T) {
	pods := realisticPods(t, 1, 10) // the first global app: 10 replicas
	a, b := pods[0], pods[1]
	if a.Labels["app"] != b.Labels["app"] {
		t.Fatalf("pods %s and %s are not replicas", a.Name, b.Name)
	}
	for _, p := range pods {
		if _, err := PodTransform(p); err != nil {
			t.Fatal(err)
		}
	}
	ca, cb := &a.Spec.Containers[0], &b.Spec.Containers[0]
	same := map[string]bool{
		"namespace":        unsafe.StringData(a.Namespace) == unsafe.StringData(b.Namespace),
		"labels":           reflect.ValueOf(a.Labels).Pointer() == reflect.ValueOf(b.Labels).Pointer(),
		"annotations":      reflect.ValueOf(a.Annotations).Pointer() == reflect.ValueOf(b.Annotations).Pointer(),
		"ownerReferences":  &a.OwnerReferences[0] == &b.OwnerReferences[0],
		"fieldsV1":         a.ManagedFields[0].FieldsV1 == b.ManagedFields[0].FieldsV1,
		"image":            unsafe.StringData(ca.Image) == unsafe.StringData(cb.Image),
		"ports":            &ca.Ports[0] == &cb.Ports[0],
		"env":              &ca.Env[0] == &cb.Env[0],
		"shipperLimits":    reflect.ValueOf(a.Spec.Containers[1].Resources.Limits).Pointer() == reflect.ValueOf(b.Spec.Containers[1].Resources.Limits).Pointer(),
		"readinessProbe":   ca.ReadinessProbe == cb.ReadinessProbe,
		"mountPath":        unsafe.StringData(ca.VolumeMounts[1].MountPath) == unsafe.StringData(cb.VolumeMounts[1].MountPath),
		"tolerations":      &a.Spec.Tolerations[0] == &b.Spec.Tolerations[0],
		"configMapVolume":  a.Spec.Volumes[0].ConfigMap == b.Spec.Volumes[0].ConfigMap,
		"projectedVolume":  a.Spec.Volumes[1].Projected == b.Spec.Volumes[1].Projected,
		"podSecurity":      a.Spec.SecurityContext == b.Spec.SecurityContext,
		"conditionType":    unsafe.StringData(string(a.Status.Conditions[0].Type)) == unsafe.StringData(string(b.Status.Conditions[0].Type)),
		"statusImage":      unsafe.StringData(a.Status.ContainerStatuses[0].Image) == unsafe.StringData(b.Status.ContainerStatuses[0].Image),
		"gracePeriod":      a.Spec.TerminationGracePeriodSeconds == b.Spec.TerminationGracePeriodSeconds,
		"enableSvcLinks":   a.Spec.EnableServiceLinks == b.Spec.EnableServiceLinks,
		"shipperRequests":  reflect.ValueOf(a.Spec.Containers[1].Resources.Requests).Pointer() == reflect.ValueOf(b.Spec.Containers[1].Resources.Requests).Pointer(),
		"managedFieldsMgr": unsafe.StringData(a.ManagedFields[1].Manager) == unsafe.StringData(b.ManagedFields[1].Manager),
	}
	for what, ok := range same {
		if !ok {
			t.Errorf("%s is not shared between replicas", what)
		}
	}
	if unsafe.StringData(a.Name) == unsafe.StringData(b.Name) || a.Name == b.Name {
		t.Error("names are shared")
	}
}

func TestPodTransformSharesScheduling(t *testing.T) {
	pods := roundTrip(t, []*corev1.Pod{schedulingPod("a"), schedulingPod("b")})
	for _, p := range pods {
		if _, err := PodTransform(p); err != nil {
			t.Fatal(err)
		}
	}
	a, b := &pods[0].Spec, &pods[1].Spec
	if a.Affinity != b.Affinity || &a.TopologySpreadConstraints[0] != &b.TopologySpreadConstraints[0] ||
		a.DNSConfig != b.DNSConfig || a.Containers[0].Lifecycle != b.Containers[0].Lifecycle {
		t.Error("equal affinity, topology spread constraints, DNS config or lifecycle are not shared")
	}
	if !reflect.DeepEqual(pods[0].Spec, schedulingPod("a").Spec) {
		t.Error("the transform changed the pod")
	}
}

// Many goroutines transforming pods with the same parts at once (run with
// -race): every pod stays equal to its copy.
func TestPodTransformConcurrent(t *testing.T) {
	const workers = 4
	src := realisticPods(t, 2, 100)
	sets := make([][]*corev1.Pod, workers)
	for w := range sets {
		sets[w] = roundTrip(t, src)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for _, p := range sets[w] {
				if _, err := PodTransform(p); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	for w := range sets {
		for i, p := range sets[w] {
			if !reflect.DeepEqual(p, src[i]) {
				t.Fatalf("worker %d: pod %s changed", w, p.Name)
			}
		}
	}
	for i := range src {
		if sets[0][i].Spec.Containers[0].ReadinessProbe != sets[workers-1][i].Spec.Containers[0].ReadinessProbe {
			t.Fatalf("pod %d: two workers' copies do not share their probe", i)
		}
	}
}

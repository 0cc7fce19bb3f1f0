package kube_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
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
// not in representation, integer and string ports, environment variables
// empty or set from nothing.
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
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "m", FieldsV1: metav1.NewFieldsV1("")}},
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
			Status: corev1.PodStatus{Conditions: []corev1.PodCondition{}, ContainerStatuses: []corev1.ContainerStatus{}},
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
				PreemptionPolicy:              ptr(corev1.PreemptionPolicy("")),
				RuntimeClassName:              ptr(""),
				Tolerations:                   []corev1.Toleration{{Key: "k", TolerationSeconds: ptr(int64(0))}, {Key: "k"}},
				Containers: []corev1.Container{{
					Name:            "c",
					Resources:       corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: cached}},
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
		quantityPod("quantity-bytes", resource.MustParse("1"), resource.MustParse("134217728")),
		quantityPod("quantity-big", resource.MustParse("1"), resource.MustParse("123456789012345678901234567890")),
		schedulingPod("scheduling-a"),
		schedulingPod("scheduling-b"),
		{
			ObjectMeta: metav1.ObjectMeta{Name: "env", Namespace: "edge"},
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

// quantityPod is a pod whose one container requests cpu and mem.
func quantityPod(name string, cpu, mem resource.Quantity) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "edge"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name:      "c",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: cpu, corev1.ResourceMemory: mem}},
		}}},
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

// roundTrip returns pods encoded to protobuf and decoded again, each on its
// own.
func roundTrip(tb testing.TB, pods []*corev1.Pod) []*corev1.Pod {
	out, err := testpods.RoundTrip(pods)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

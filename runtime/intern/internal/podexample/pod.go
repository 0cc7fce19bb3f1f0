// Package podexample is a transform for core/v1 Pods written by hand the way
// the generator emits one per kind: one small function per struct type,
// walking its fields without reflection and choosing, field by field, to
// intern the value (intern.String), share it (a Pool of package intern), walk
// into it, or leave it alone.
//
// Fields unique to each pod are left alone: name, UID, resource version,
// timestamps, pod and host IPs, container IDs. Parts that repeat across
// replicas are shared as a whole (labels, owner references, resource lists,
// ports, environment, probes, security contexts, tolerations, volume
// sources); the slices that differ between replicas (containers, volumes,
// volume mounts, conditions, container statuses) are walked instead, since
// every pod's service-account token volume gives it a name of its own, and
// clipped (intern.Clip) of the spare capacity decoding leaves in them.
// Fields of kinds the walk does not know (ephemeral containers, resource
// claims, scheduling gates, host aliases, the rarer volume sources and the
// like) are left as decoded.
package podexample

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/intern"
)

// PodTransform interns and shares, in place, the parts of pod that repeat
// across pods, and returns pod. The result is reflect.DeepEqual to the pod
// passed in. It is a cache.TransformFunc: pod must be a freshly decoded
// object no other goroutine sees yet, and is read-only afterwards.
func PodTransform(pod *corev1.Pod) (*corev1.Pod, error) {
	if pod == nil {
		return nil, nil
	}
	internTypeMeta(&pod.TypeMeta)
	internObjectMeta(&pod.ObjectMeta)
	internPodSpec(&pod.Spec)
	internPodStatus(&pod.Status)
	return pod, nil
}

func internTypeMeta(m *metav1.TypeMeta) {
	m.Kind = intern.String(m.Kind)
	m.APIVersion = intern.String(m.APIVersion)
}

func internObjectMeta(m *metav1.ObjectMeta) {
	// Name, UID, ResourceVersion, CreationTimestamp, DeletionTimestamp:
	// unique to the object.
	m.GenerateName = intern.String(m.GenerateName)
	m.Namespace = intern.String(m.Namespace)
	m.DeletionGracePeriodSeconds = intern.Int64(m.DeletionGracePeriodSeconds)
	m.Labels = stringMaps.Share(m.Labels, intern.StringMap, intern.StringEntry)
	m.Annotations = stringMaps.Share(m.Annotations, intern.StringMap, intern.StringEntry)
	m.OwnerReferences = ownerReferences.Share(m.OwnerReferences, keyOwnerReference, internOwnerReference)
	m.Finalizers = stringSlices.Share(m.Finalizers, keyString, internString)
	m.ManagedFields = intern.Clip(m.ManagedFields)
	for i := range m.ManagedFields {
		internManagedFieldsEntry(&m.ManagedFields[i])
	}
}

func internOwnerReference(r *metav1.OwnerReference) {
	r.APIVersion = intern.String(r.APIVersion)
	r.Kind = intern.String(r.Kind)
	r.Name = intern.String(r.Name)
	r.UID = intern.String(r.UID)
	r.Controller = intern.Bool(r.Controller)
	r.BlockOwnerDeletion = intern.Bool(r.BlockOwnerDeletion)
}

func internManagedFieldsEntry(e *metav1.ManagedFieldsEntry) {
	// Time: unique to the object.
	e.Manager = intern.String(e.Manager)
	e.Operation = intern.String(e.Operation)
	e.APIVersion = intern.String(e.APIVersion)
	e.FieldsType = intern.String(e.FieldsType)
	e.FieldsV1 = fieldsV1s.Share(e.FieldsV1, keyFieldsV1, nil)
	e.Subresource = intern.String(e.Subresource)
}

func internPodSpec(s *corev1.PodSpec) {
	s.Volumes = intern.Clip(s.Volumes)
	for i := range s.Volumes {
		internVolume(&s.Volumes[i])
	}
	s.InitContainers = intern.Clip(s.InitContainers)
	for i := range s.InitContainers {
		internContainer(&s.InitContainers[i])
	}
	s.Containers = intern.Clip(s.Containers)
	for i := range s.Containers {
		internContainer(&s.Containers[i])
	}
	s.RestartPolicy = intern.String(s.RestartPolicy)
	s.TerminationGracePeriodSeconds = intern.Int64(s.TerminationGracePeriodSeconds)
	s.ActiveDeadlineSeconds = intern.Int64(s.ActiveDeadlineSeconds)
	s.DNSPolicy = intern.String(s.DNSPolicy)
	s.NodeSelector = stringMaps.Share(s.NodeSelector, intern.StringMap, intern.StringEntry)
	s.ServiceAccountName = intern.String(s.ServiceAccountName)
	s.DeprecatedServiceAccount = intern.String(s.DeprecatedServiceAccount)
	s.AutomountServiceAccountToken = intern.Bool(s.AutomountServiceAccountToken)
	s.NodeName = intern.String(s.NodeName)
	s.ShareProcessNamespace = intern.Bool(s.ShareProcessNamespace)
	s.SecurityContext = podSecurityContexts.Share(s.SecurityContext, keyPodSecurityContext, nil)
	s.ImagePullSecrets = localObjectReferences.Share(s.ImagePullSecrets, keyLocalObjectReference, internLocalObjectReference)
	// Hostname: unique to the object.
	s.Subdomain = intern.String(s.Subdomain)
	s.Affinity = affinities.Share(s.Affinity, keyAffinity, nil)
	s.SchedulerName = intern.String(s.SchedulerName)
	s.Tolerations = tolerations.Share(s.Tolerations, keyToleration, internToleration)
	s.PriorityClassName = intern.String(s.PriorityClassName)
	s.Priority = intern.Int32(s.Priority)
	s.DNSConfig = dnsConfigs.Share(s.DNSConfig, keyPodDNSConfig, nil)
	s.ReadinessGates = readinessGates.Share(s.ReadinessGates, keyPodReadinessGate, internPodReadinessGate)
	s.RuntimeClassName = stringPointers.Share(s.RuntimeClassName, keyStringPointee, nil)
	s.EnableServiceLinks = intern.Bool(s.EnableServiceLinks)
	s.PreemptionPolicy = preemptionPolicies.Share(s.PreemptionPolicy, keyStringPointee, nil)
	s.Overhead = resourceLists.Share(s.Overhead, intern.QuantityMap, intern.StringKey)
	s.TopologySpreadConstraints = topologySpread.Share(s.TopologySpreadConstraints, keyTopologySpreadConstraint, internTopologySpreadConstraint)
	s.SetHostnameAsFQDN = intern.Bool(s.SetHostnameAsFQDN)
	s.HostUsers = intern.Bool(s.HostUsers)
}

func internPodStatus(s *corev1.PodStatus) {
	// HostIP, HostIPs, PodIP, PodIPs, StartTime: unique to the object.
	s.Phase = intern.String(s.Phase)
	s.Conditions = intern.Clip(s.Conditions)
	for i := range s.Conditions {
		internPodCondition(&s.Conditions[i])
	}
	s.Message = intern.String(s.Message)
	s.Reason = intern.String(s.Reason)
	s.NominatedNodeName = intern.String(s.NominatedNodeName)
	s.InitContainerStatuses = intern.Clip(s.InitContainerStatuses)
	for i := range s.InitContainerStatuses {
		internContainerStatus(&s.InitContainerStatuses[i])
	}
	s.ContainerStatuses = intern.Clip(s.ContainerStatuses)
	for i := range s.ContainerStatuses {
		internContainerStatus(&s.ContainerStatuses[i])
	}
	s.QOSClass = intern.String(s.QOSClass)
	s.EphemeralContainerStatuses = intern.Clip(s.EphemeralContainerStatuses)
	for i := range s.EphemeralContainerStatuses {
		internContainerStatus(&s.EphemeralContainerStatuses[i])
	}
	s.Resize = intern.String(s.Resize)
	s.AllocatedResources = resourceLists.Share(s.AllocatedResources, intern.QuantityMap, intern.StringKey)
	s.Resources = resourceRequirements.Share(s.Resources, keyResourceRequirements, internResourceRequirements)
}

func internPodCondition(c *corev1.PodCondition) {
	// LastProbeTime, LastTransitionTime: unique to the object.
	c.Type = intern.String(c.Type)
	c.Status = intern.String(c.Status)
	c.Reason = intern.String(c.Reason)
	c.Message = intern.String(c.Message)
}

func internContainerStatus(s *corev1.ContainerStatus) {
	// ContainerID: unique to the object.
	s.Name = intern.String(s.Name)
	internContainerState(&s.State)
	internContainerState(&s.LastTerminationState)
	s.Image = intern.String(s.Image)
	s.ImageID = intern.String(s.ImageID)
	s.Started = intern.Bool(s.Started)
	s.AllocatedResources = resourceLists.Share(s.AllocatedResources, intern.QuantityMap, intern.StringKey)
	s.Resources = resourceRequirements.Share(s.Resources, keyResourceRequirements, internResourceRequirements)
	s.VolumeMounts = intern.Clip(s.VolumeMounts)
	for i := range s.VolumeMounts {
		internVolumeMountStatus(&s.VolumeMounts[i])
	}
	s.StopSignal = signals.Share(s.StopSignal, keyStringPointee, nil)
}

func internContainerState(s *corev1.ContainerState) {
	// Running holds a start time only: unique to the object.
	if w := s.Waiting; w != nil {
		w.Reason = intern.String(w.Reason)
		w.Message = intern.String(w.Message)
	}
	if t := s.Terminated; t != nil {
		// StartedAt, FinishedAt, ContainerID: unique to the object.
		t.Reason = intern.String(t.Reason)
		t.Message = intern.String(t.Message)
	}
}

func internVolumeMountStatus(m *corev1.VolumeMountStatus) {
	m.Name = intern.String(m.Name)
	m.MountPath = intern.String(m.MountPath)
	m.RecursiveReadOnly = recursiveReadOnlyModes.Share(m.RecursiveReadOnly, keyStringPointee, nil)
}

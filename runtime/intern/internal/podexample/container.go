package podexample

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/intern"
)

// The pools of the values PodTransform shares, one per type.
var (
	stringMaps               intern.Maps[string, string]
	resourceLists            intern.Maps[corev1.ResourceName, resource.Quantity]
	stringSlices             intern.Slices[string]
	ownerReferences          intern.Slices[metav1.OwnerReference]
	fieldsV1s                intern.Pointers[metav1.FieldsV1]
	containerPorts           intern.Slices[corev1.ContainerPort]
	envVars                  intern.Slices[corev1.EnvVar]
	envFromSources           intern.Slices[corev1.EnvFromSource]
	resourceClaims           intern.Slices[corev1.ResourceClaim]
	resourceRequirements     intern.Pointers[corev1.ResourceRequirements]
	resizePolicies           intern.Slices[corev1.ContainerResizePolicy]
	volumeDevices            intern.Slices[corev1.VolumeDevice]
	probes                   intern.Pointers[corev1.Probe]
	securityContexts         intern.Pointers[corev1.SecurityContext]
	podSecurityContexts      intern.Pointers[corev1.PodSecurityContext]
	localObjectReferences    intern.Slices[corev1.LocalObjectReference]
	tolerations              intern.Slices[corev1.Toleration]
	readinessGates           intern.Slices[corev1.PodReadinessGate]
	hostPathVolumeSources    intern.Pointers[corev1.HostPathVolumeSource]
	emptyDirVolumeSources    intern.Pointers[corev1.EmptyDirVolumeSource]
	secretVolumeSources      intern.Pointers[corev1.SecretVolumeSource]
	configMapVolumeSources   intern.Pointers[corev1.ConfigMapVolumeSource]
	downwardAPIVolumeSources intern.Pointers[corev1.DownwardAPIVolumeSource]
	projectedVolumeSources   intern.Pointers[corev1.ProjectedVolumeSource]
	stringPointers           intern.Pointers[string]
	preemptionPolicies       intern.Pointers[corev1.PreemptionPolicy]
	containerRestartPolicies intern.Pointers[corev1.ContainerRestartPolicy]
	mountPropagationModes    intern.Pointers[corev1.MountPropagationMode]
	recursiveReadOnlyModes   intern.Pointers[corev1.RecursiveReadOnlyMode]
	signals                  intern.Pointers[corev1.Signal]
	affinities               intern.Pointers[corev1.Affinity]
	topologySpread           intern.Slices[corev1.TopologySpreadConstraint]
	lifecycles               intern.Pointers[corev1.Lifecycle]
	dnsConfigs               intern.Pointers[corev1.PodDNSConfig]
)

func internContainer(c *corev1.Container) {
	c.Name = intern.String(c.Name)
	c.Image = intern.String(c.Image)
	c.Command = stringSlices.Share(c.Command, keyString, internString)
	c.Args = stringSlices.Share(c.Args, keyString, internString)
	c.WorkingDir = intern.String(c.WorkingDir)
	c.Ports = containerPorts.Share(c.Ports, keyContainerPort, internContainerPort)
	c.EnvFrom = envFromSources.Share(c.EnvFrom, keyEnvFromSource, internEnvFromSource)
	c.Env = envVars.Share(c.Env, keyEnvVar, internEnvVar)
	internResourceRequirements(&c.Resources)
	c.ResizePolicy = resizePolicies.Share(c.ResizePolicy, keyContainerResizePolicy, internContainerResizePolicy)
	c.RestartPolicy = containerRestartPolicies.Share(c.RestartPolicy, keyStringPointee, nil)
	// RestartPolicyRules: left as decoded.
	c.VolumeMounts = intern.Clip(c.VolumeMounts)
	for i := range c.VolumeMounts {
		internVolumeMount(&c.VolumeMounts[i])
	}
	c.VolumeDevices = volumeDevices.Share(c.VolumeDevices, keyVolumeDevice, internVolumeDevice)
	c.LivenessProbe = probes.Share(c.LivenessProbe, keyProbe, internProbe)
	c.ReadinessProbe = probes.Share(c.ReadinessProbe, keyProbe, internProbe)
	c.StartupProbe = probes.Share(c.StartupProbe, keyProbe, internProbe)
	c.Lifecycle = lifecycles.Share(c.Lifecycle, keyLifecycle, nil)
	c.TerminationMessagePath = intern.String(c.TerminationMessagePath)
	c.TerminationMessagePolicy = intern.String(c.TerminationMessagePolicy)
	c.ImagePullPolicy = intern.String(c.ImagePullPolicy)
	c.SecurityContext = securityContexts.Share(c.SecurityContext, keySecurityContext, nil)
}

func internResourceRequirements(r *corev1.ResourceRequirements) {
	r.Limits = resourceLists.Share(r.Limits, intern.QuantityMap, intern.StringKey)
	r.Requests = resourceLists.Share(r.Requests, intern.QuantityMap, intern.StringKey)
	r.Claims = resourceClaims.Share(r.Claims, keyResourceClaim, internResourceClaim)
}

func internVolumeMount(m *corev1.VolumeMount) {
	m.Name = intern.String(m.Name)
	m.RecursiveReadOnly = recursiveReadOnlyModes.Share(m.RecursiveReadOnly, keyStringPointee, nil)
	m.MountPath = intern.String(m.MountPath)
	m.SubPath = intern.String(m.SubPath)
	m.MountPropagation = mountPropagationModes.Share(m.MountPropagation, keyStringPointee, nil)
	m.SubPathExpr = intern.String(m.SubPathExpr)
	m.BindMountOptions = stringSlices.Share(m.BindMountOptions, keyString, internString)
}

func internVolume(v *corev1.Volume) {
	v.Name = intern.String(v.Name)
	internVolumeSource(&v.VolumeSource)
}

func internVolumeSource(s *corev1.VolumeSource) {
	s.HostPath = hostPathVolumeSources.Share(s.HostPath, keyHostPathVolumeSource, nil)
	s.EmptyDir = emptyDirVolumeSources.Share(s.EmptyDir, keyEmptyDirVolumeSource, nil)
	s.Secret = secretVolumeSources.Share(s.Secret, keySecretVolumeSource, internSecretVolumeSource)
	// PersistentVolumeClaim: the claim is usually the pod's own.
	s.DownwardAPI = downwardAPIVolumeSources.Share(s.DownwardAPI, keyDownwardAPIVolumeSource, nil)
	s.ConfigMap = configMapVolumeSources.Share(s.ConfigMap, keyConfigMapVolumeSource, internConfigMapVolumeSource)
	s.Projected = projectedVolumeSources.Share(s.Projected, keyProjectedVolumeSource, internProjectedVolumeSource)
	// Other sources: left as decoded.
}

// The functions below prepare a value about to become canonical: they intern
// and share what it holds.

func internString(s *string) { *s = intern.String(*s) }

func internContainerPort(p *corev1.ContainerPort) {
	p.Name = intern.String(p.Name)
	p.Protocol = intern.String(p.Protocol)
	p.HostIP = intern.String(p.HostIP)
}

func internEnvVar(e *corev1.EnvVar) {
	e.Name = intern.String(e.Name)
	e.Value = intern.String(e.Value)
	if s := e.ValueFrom; s != nil {
		if r := s.FieldRef; r != nil {
			r.APIVersion = intern.String(r.APIVersion)
			r.FieldPath = intern.String(r.FieldPath)
		}
		if r := s.ConfigMapKeyRef; r != nil {
			r.Name = intern.String(r.Name)
			r.Key = intern.String(r.Key)
		}
		if r := s.SecretKeyRef; r != nil {
			r.Name = intern.String(r.Name)
			r.Key = intern.String(r.Key)
		}
	}
}

func internEnvFromSource(e *corev1.EnvFromSource) {
	e.Prefix = intern.String(e.Prefix)
	if r := e.ConfigMapRef; r != nil {
		r.Name = intern.String(r.Name)
	}
	if r := e.SecretRef; r != nil {
		r.Name = intern.String(r.Name)
	}
}

func internResourceClaim(c *corev1.ResourceClaim) {
	c.Name = intern.String(c.Name)
	c.Request = intern.String(c.Request)
}

func internContainerResizePolicy(p *corev1.ContainerResizePolicy) {
	p.ResourceName = intern.String(p.ResourceName)
	p.RestartPolicy = intern.String(p.RestartPolicy)
}

func internVolumeDevice(d *corev1.VolumeDevice) {
	d.Name = intern.String(d.Name)
	d.DevicePath = intern.String(d.DevicePath)
}

func internProbe(p *corev1.Probe) {
	if a := p.Exec; a != nil {
		a.Command = stringSlices.Share(a.Command, keyString, internString)
	}
	if a := p.HTTPGet; a != nil {
		a.Path = intern.String(a.Path)
		internIntOrString(&a.Port)
		a.Host = intern.String(a.Host)
		a.Scheme = intern.String(a.Scheme)
	}
	if a := p.TCPSocket; a != nil {
		internIntOrString(&a.Port)
		a.Host = intern.String(a.Host)
	}
}

func internIntOrString(v *intstr.IntOrString) { v.StrVal = intern.String(v.StrVal) }

func internLocalObjectReference(r *corev1.LocalObjectReference) { r.Name = intern.String(r.Name) }

func internToleration(t *corev1.Toleration) {
	t.Key = intern.String(t.Key)
	t.Operator = intern.String(t.Operator)
	t.Value = intern.String(t.Value)
	t.Effect = intern.String(t.Effect)
	t.TolerationSeconds = intern.Int64(t.TolerationSeconds)
}

func internPodReadinessGate(g *corev1.PodReadinessGate) {
	g.ConditionType = intern.String(g.ConditionType)
}

func internSecretVolumeSource(s *corev1.SecretVolumeSource) {
	s.SecretName = intern.String(s.SecretName)
	s.DefaultMode = intern.Int32(s.DefaultMode)
}

func internConfigMapVolumeSource(s *corev1.ConfigMapVolumeSource) {
	s.Name = intern.String(s.Name)
	s.DefaultMode = intern.Int32(s.DefaultMode)
}

func internTopologySpreadConstraint(c *corev1.TopologySpreadConstraint) {
	c.TopologyKey = intern.String(c.TopologyKey)
	c.WhenUnsatisfiable = intern.String(c.WhenUnsatisfiable)
	c.MinDomains = intern.Int32(c.MinDomains)
	c.MatchLabelKeys = stringSlices.Share(c.MatchLabelKeys, keyString, internString)
}

func internProjectedVolumeSource(s *corev1.ProjectedVolumeSource) {
	s.DefaultMode = intern.Int32(s.DefaultMode)
}

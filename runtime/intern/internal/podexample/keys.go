package podexample

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/intern"
)

// The encoders of the shared types: every field, in declaration order (see
// intern.Key).

func keyString(k *intern.Key, s *string) { k.String(*s) }

func keyStringPointee[S ~string](k *intern.Key, s *S) { k.String(string(*s)) }

func keyOwnerReference(k *intern.Key, r *metav1.OwnerReference) {
	k.String(r.APIVersion)
	k.String(r.Kind)
	k.String(r.Name)
	k.String(string(r.UID))
	k.BoolPtr(r.Controller)
	k.BoolPtr(r.BlockOwnerDeletion)
}

func keyFieldsV1(k *intern.Key, f *metav1.FieldsV1) {
	if k.Len(len(f.Raw), f.Raw == nil) {
		k.String(string(f.Raw))
	}
}

func keyContainerPort(k *intern.Key, p *corev1.ContainerPort) {
	k.String(p.Name)
	k.Int(int64(p.HostPort))
	k.Int(int64(p.ContainerPort))
	k.String(string(p.Protocol))
	k.String(p.HostIP)
}

func keyEnvVar(k *intern.Key, e *corev1.EnvVar) {
	k.String(e.Name)
	k.String(e.Value)
	if k.Ptr(e.ValueFrom != nil) {
		keyEnvVarSource(k, e.ValueFrom)
	}
}

func keyEnvVarSource(k *intern.Key, s *corev1.EnvVarSource) {
	if k.Ptr(s.FieldRef != nil) {
		keyObjectFieldSelector(k, s.FieldRef)
	}
	if k.Ptr(s.ResourceFieldRef != nil) {
		keyResourceFieldSelector(k, s.ResourceFieldRef)
	}
	if k.Ptr(s.ConfigMapKeyRef != nil) {
		keyLocalObjectReference(k, &s.ConfigMapKeyRef.LocalObjectReference)
		k.String(s.ConfigMapKeyRef.Key)
		k.BoolPtr(s.ConfigMapKeyRef.Optional)
	}
	if k.Ptr(s.SecretKeyRef != nil) {
		keyLocalObjectReference(k, &s.SecretKeyRef.LocalObjectReference)
		k.String(s.SecretKeyRef.Key)
		k.BoolPtr(s.SecretKeyRef.Optional)
	}
	if k.Ptr(s.FileKeyRef != nil) {
		k.String(s.FileKeyRef.VolumeName)
		k.String(s.FileKeyRef.Path)
		k.String(s.FileKeyRef.Key)
		k.BoolPtr(s.FileKeyRef.Optional)
	}
}

func keyObjectFieldSelector(k *intern.Key, s *corev1.ObjectFieldSelector) {
	k.String(s.APIVersion)
	k.String(s.FieldPath)
}

func keyResourceFieldSelector(k *intern.Key, s *corev1.ResourceFieldSelector) {
	k.String(s.ContainerName)
	k.String(s.Resource)
	k.Quantity(s.Divisor)
}

func keyEnvFromSource(k *intern.Key, e *corev1.EnvFromSource) {
	k.String(e.Prefix)
	if k.Ptr(e.ConfigMapRef != nil) {
		keyLocalObjectReference(k, &e.ConfigMapRef.LocalObjectReference)
		k.BoolPtr(e.ConfigMapRef.Optional)
	}
	if k.Ptr(e.SecretRef != nil) {
		keyLocalObjectReference(k, &e.SecretRef.LocalObjectReference)
		k.BoolPtr(e.SecretRef.Optional)
	}
}

func keyLocalObjectReference(k *intern.Key, r *corev1.LocalObjectReference) { k.String(r.Name) }

func keyResourceClaim(k *intern.Key, c *corev1.ResourceClaim) {
	k.String(c.Name)
	k.String(c.Request)
}

func keyResourceRequirements(k *intern.Key, r *corev1.ResourceRequirements) {
	intern.QuantityMap(k, r.Limits)
	intern.QuantityMap(k, r.Requests)
	if k.Len(len(r.Claims), r.Claims == nil) {
		for i := range r.Claims {
			keyResourceClaim(k, &r.Claims[i])
		}
	}
}

func keyContainerResizePolicy(k *intern.Key, p *corev1.ContainerResizePolicy) {
	k.String(string(p.ResourceName))
	k.String(string(p.RestartPolicy))
}

func keyVolumeDevice(k *intern.Key, d *corev1.VolumeDevice) {
	k.String(d.Name)
	k.String(d.DevicePath)
}

func keyProbe(k *intern.Key, p *corev1.Probe) {
	keyProbeHandler(k, &p.ProbeHandler)
	k.Int(int64(p.InitialDelaySeconds))
	k.Int(int64(p.TimeoutSeconds))
	k.Int(int64(p.PeriodSeconds))
	k.Int(int64(p.SuccessThreshold))
	k.Int(int64(p.FailureThreshold))
	k.Int64Ptr(p.TerminationGracePeriodSeconds)
}

func keyProbeHandler(k *intern.Key, h *corev1.ProbeHandler) {
	if k.Ptr(h.Exec != nil) {
		intern.StringSlice(k, h.Exec.Command)
	}
	if k.Ptr(h.HTTPGet != nil) {
		keyHTTPGetAction(k, h.HTTPGet)
	}
	if k.Ptr(h.TCPSocket != nil) {
		keyIntOrString(k, &h.TCPSocket.Port)
		k.String(h.TCPSocket.Host)
	}
	if k.Ptr(h.GRPC != nil) {
		k.Int(int64(h.GRPC.Port))
		intern.StringPtr(k, h.GRPC.Service)
		intern.StringPtr(k, h.GRPC.Mode)
	}
}

func keyHTTPGetAction(k *intern.Key, a *corev1.HTTPGetAction) {
	k.String(a.Path)
	keyIntOrString(k, &a.Port)
	k.String(a.Host)
	k.String(string(a.Scheme))
	if k.Len(len(a.HTTPHeaders), a.HTTPHeaders == nil) {
		for _, h := range a.HTTPHeaders {
			k.String(h.Name)
			k.String(h.Value)
		}
	}
	intern.StringPtr(k, a.Protocol)
}

func keyIntOrString(k *intern.Key, v *intstr.IntOrString) {
	k.Int(int64(v.Type))
	k.Int(int64(v.IntVal))
	k.String(v.StrVal)
}

func keySecurityContext(k *intern.Key, c *corev1.SecurityContext) {
	if k.Ptr(c.Capabilities != nil) {
		intern.StringSlice(k, c.Capabilities.Add)
		intern.StringSlice(k, c.Capabilities.Drop)
	}
	k.BoolPtr(c.Privileged)
	if k.Ptr(c.SELinuxOptions != nil) {
		keySELinuxOptions(k, c.SELinuxOptions)
	}
	if k.Ptr(c.WindowsOptions != nil) {
		keyWindowsSecurityContextOptions(k, c.WindowsOptions)
	}
	k.Int64Ptr(c.RunAsUser)
	k.Int64Ptr(c.RunAsGroup)
	k.BoolPtr(c.RunAsNonRoot)
	k.BoolPtr(c.ReadOnlyRootFilesystem)
	k.BoolPtr(c.AllowPrivilegeEscalation)
	intern.StringPtr(k, c.ProcMount)
	if k.Ptr(c.SeccompProfile != nil) {
		k.String(string(c.SeccompProfile.Type))
		intern.StringPtr(k, c.SeccompProfile.LocalhostProfile)
	}
	if k.Ptr(c.AppArmorProfile != nil) {
		k.String(string(c.AppArmorProfile.Type))
		intern.StringPtr(k, c.AppArmorProfile.LocalhostProfile)
	}
}

func keyPodSecurityContext(k *intern.Key, c *corev1.PodSecurityContext) {
	if k.Ptr(c.SELinuxOptions != nil) {
		keySELinuxOptions(k, c.SELinuxOptions)
	}
	if k.Ptr(c.WindowsOptions != nil) {
		keyWindowsSecurityContextOptions(k, c.WindowsOptions)
	}
	k.Int64Ptr(c.RunAsUser)
	k.Int64Ptr(c.RunAsGroup)
	k.BoolPtr(c.RunAsNonRoot)
	if k.Len(len(c.SupplementalGroups), c.SupplementalGroups == nil) {
		for _, g := range c.SupplementalGroups {
			k.Int(g)
		}
	}
	intern.StringPtr(k, c.SupplementalGroupsPolicy)
	k.Int64Ptr(c.FSGroup)
	if k.Len(len(c.Sysctls), c.Sysctls == nil) {
		for _, s := range c.Sysctls {
			k.String(s.Name)
			k.String(s.Value)
		}
	}
	intern.StringPtr(k, c.FSGroupChangePolicy)
	if k.Ptr(c.SeccompProfile != nil) {
		k.String(string(c.SeccompProfile.Type))
		intern.StringPtr(k, c.SeccompProfile.LocalhostProfile)
	}
	if k.Ptr(c.AppArmorProfile != nil) {
		k.String(string(c.AppArmorProfile.Type))
		intern.StringPtr(k, c.AppArmorProfile.LocalhostProfile)
	}
	intern.StringPtr(k, c.SELinuxChangePolicy)
}

func keySELinuxOptions(k *intern.Key, o *corev1.SELinuxOptions) {
	k.String(o.User)
	k.String(o.Role)
	k.String(o.Type)
	k.String(o.Level)
}

func keyWindowsSecurityContextOptions(k *intern.Key, o *corev1.WindowsSecurityContextOptions) {
	intern.StringPtr(k, o.GMSACredentialSpecName)
	intern.StringPtr(k, o.GMSACredentialSpec)
	intern.StringPtr(k, o.RunAsUserName)
	k.BoolPtr(o.HostProcess)
}

func keyToleration(k *intern.Key, t *corev1.Toleration) {
	k.String(t.Key)
	k.String(string(t.Operator))
	k.String(t.Value)
	k.String(string(t.Effect))
	k.Int64Ptr(t.TolerationSeconds)
}

func keyPodReadinessGate(k *intern.Key, g *corev1.PodReadinessGate) {
	k.String(string(g.ConditionType))
}

func keyHostPathVolumeSource(k *intern.Key, s *corev1.HostPathVolumeSource) {
	k.String(s.Path)
	intern.StringPtr(k, s.Type)
}

func keyEmptyDirVolumeSource(k *intern.Key, s *corev1.EmptyDirVolumeSource) {
	k.String(string(s.Medium))
	if k.Ptr(s.SizeLimit != nil) {
		k.Quantity(*s.SizeLimit)
	}
	k.Int32Ptr(s.Mode)
}

func keySecretVolumeSource(k *intern.Key, s *corev1.SecretVolumeSource) {
	k.String(s.SecretName)
	keyKeyToPaths(k, s.Items)
	k.Int32Ptr(s.DefaultMode)
	k.BoolPtr(s.Optional)
	k.Int64Ptr(s.DefaultUser)
}

func keyConfigMapVolumeSource(k *intern.Key, s *corev1.ConfigMapVolumeSource) {
	keyLocalObjectReference(k, &s.LocalObjectReference)
	keyKeyToPaths(k, s.Items)
	k.Int32Ptr(s.DefaultMode)
	k.BoolPtr(s.Optional)
	k.Int64Ptr(s.DefaultUser)
}

func keyKeyToPaths(k *intern.Key, items []corev1.KeyToPath) {
	if k.Len(len(items), items == nil) {
		for i := range items {
			k.String(items[i].Key)
			k.String(items[i].Path)
			k.Int32Ptr(items[i].Mode)
			k.Int64Ptr(items[i].User)
		}
	}
}

func keyDownwardAPIVolumeSource(k *intern.Key, s *corev1.DownwardAPIVolumeSource) {
	keyDownwardAPIVolumeFiles(k, s.Items)
	k.Int32Ptr(s.DefaultMode)
	k.Int64Ptr(s.DefaultUser)
}

func keyDownwardAPIVolumeFiles(k *intern.Key, items []corev1.DownwardAPIVolumeFile) {
	if k.Len(len(items), items == nil) {
		for i := range items {
			f := &items[i]
			k.String(f.Path)
			if k.Ptr(f.FieldRef != nil) {
				keyObjectFieldSelector(k, f.FieldRef)
			}
			if k.Ptr(f.ResourceFieldRef != nil) {
				keyResourceFieldSelector(k, f.ResourceFieldRef)
			}
			k.Int32Ptr(f.Mode)
			k.Int64Ptr(f.User)
		}
	}
}

func keyProjectedVolumeSource(k *intern.Key, s *corev1.ProjectedVolumeSource) {
	if k.Len(len(s.Sources), s.Sources == nil) {
		for i := range s.Sources {
			keyVolumeProjection(k, &s.Sources[i])
		}
	}
	k.Int32Ptr(s.DefaultMode)
	k.Int64Ptr(s.DefaultUser)
}

func keyVolumeProjection(k *intern.Key, p *corev1.VolumeProjection) {
	if s := p.Secret; k.Ptr(s != nil) {
		keyLocalObjectReference(k, &s.LocalObjectReference)
		keyKeyToPaths(k, s.Items)
		k.BoolPtr(s.Optional)
	}
	if s := p.DownwardAPI; k.Ptr(s != nil) {
		keyDownwardAPIVolumeFiles(k, s.Items)
	}
	if s := p.ConfigMap; k.Ptr(s != nil) {
		keyLocalObjectReference(k, &s.LocalObjectReference)
		keyKeyToPaths(k, s.Items)
		k.BoolPtr(s.Optional)
	}
	if s := p.ServiceAccountToken; k.Ptr(s != nil) {
		k.String(s.Audience)
		k.Int64Ptr(s.ExpirationSeconds)
		k.String(s.Path)
		k.Int64Ptr(s.User)
	}
	if s := p.ClusterTrustBundle; k.Ptr(s != nil) {
		intern.StringPtr(k, s.Name)
		intern.StringPtr(k, s.SignerName)
		if k.Ptr(s.LabelSelector != nil) {
			keyLabelSelector(k, s.LabelSelector)
		}
		k.BoolPtr(s.Optional)
		k.String(s.Path)
		k.Int64Ptr(s.User)
	}
	if s := p.PodCertificate; k.Ptr(s != nil) {
		k.String(s.SignerName)
		k.String(s.KeyType)
		k.Int32Ptr(s.MaxExpirationSeconds)
		k.String(s.CredentialBundlePath)
		k.String(s.KeyPath)
		k.String(s.CertificateChainPath)
		intern.StringMap(k, s.UserAnnotations)
		k.Int64Ptr(s.User)
	}
}

func keyLabelSelector(k *intern.Key, s *metav1.LabelSelector) {
	intern.StringMap(k, s.MatchLabels)
	if k.Len(len(s.MatchExpressions), s.MatchExpressions == nil) {
		for i := range s.MatchExpressions {
			r := &s.MatchExpressions[i]
			k.String(r.Key)
			k.String(string(r.Operator))
			intern.StringSlice(k, r.Values)
		}
	}
}

func keyAffinity(k *intern.Key, a *corev1.Affinity) {
	if n := a.NodeAffinity; k.Ptr(n != nil) {
		if k.Ptr(n.RequiredDuringSchedulingIgnoredDuringExecution != nil) {
			keyNodeSelectorTerms(k, n.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms)
		}
		terms := n.PreferredDuringSchedulingIgnoredDuringExecution
		if k.Len(len(terms), terms == nil) {
			for i := range terms {
				k.Int(int64(terms[i].Weight))
				keyNodeSelectorTerm(k, &terms[i].Preference)
			}
		}
	}
	if p := a.PodAffinity; k.Ptr(p != nil) {
		keyPodAffinityTerms(k, p.RequiredDuringSchedulingIgnoredDuringExecution)
		keyWeightedPodAffinityTerms(k, p.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if p := a.PodAntiAffinity; k.Ptr(p != nil) {
		keyPodAffinityTerms(k, p.RequiredDuringSchedulingIgnoredDuringExecution)
		keyWeightedPodAffinityTerms(k, p.PreferredDuringSchedulingIgnoredDuringExecution)
	}
}

func keyNodeSelectorTerms(k *intern.Key, terms []corev1.NodeSelectorTerm) {
	if k.Len(len(terms), terms == nil) {
		for i := range terms {
			keyNodeSelectorTerm(k, &terms[i])
		}
	}
}

func keyNodeSelectorTerm(k *intern.Key, t *corev1.NodeSelectorTerm) {
	keyNodeSelectorRequirements(k, t.MatchExpressions)
	keyNodeSelectorRequirements(k, t.MatchFields)
}

func keyNodeSelectorRequirements(k *intern.Key, rs []corev1.NodeSelectorRequirement) {
	if k.Len(len(rs), rs == nil) {
		for i := range rs {
			k.String(rs[i].Key)
			k.String(string(rs[i].Operator))
			intern.StringSlice(k, rs[i].Values)
		}
	}
}

func keyPodAffinityTerms(k *intern.Key, terms []corev1.PodAffinityTerm) {
	if k.Len(len(terms), terms == nil) {
		for i := range terms {
			keyPodAffinityTerm(k, &terms[i])
		}
	}
}

func keyWeightedPodAffinityTerms(k *intern.Key, terms []corev1.WeightedPodAffinityTerm) {
	if k.Len(len(terms), terms == nil) {
		for i := range terms {
			k.Int(int64(terms[i].Weight))
			keyPodAffinityTerm(k, &terms[i].PodAffinityTerm)
		}
	}
}

func keyPodAffinityTerm(k *intern.Key, t *corev1.PodAffinityTerm) {
	if k.Ptr(t.LabelSelector != nil) {
		keyLabelSelector(k, t.LabelSelector)
	}
	intern.StringSlice(k, t.Namespaces)
	k.String(t.TopologyKey)
	if k.Ptr(t.NamespaceSelector != nil) {
		keyLabelSelector(k, t.NamespaceSelector)
	}
	intern.StringSlice(k, t.MatchLabelKeys)
	intern.StringSlice(k, t.MismatchLabelKeys)
}

func keyTopologySpreadConstraint(k *intern.Key, c *corev1.TopologySpreadConstraint) {
	k.Int(int64(c.MaxSkew))
	k.String(c.TopologyKey)
	k.String(string(c.WhenUnsatisfiable))
	if k.Ptr(c.LabelSelector != nil) {
		keyLabelSelector(k, c.LabelSelector)
	}
	k.Int32Ptr(c.MinDomains)
	intern.StringPtr(k, c.NodeAffinityPolicy)
	intern.StringPtr(k, c.NodeTaintsPolicy)
	intern.StringSlice(k, c.MatchLabelKeys)
}

func keyLifecycle(k *intern.Key, l *corev1.Lifecycle) {
	if k.Ptr(l.PostStart != nil) {
		keyLifecycleHandler(k, l.PostStart)
	}
	if k.Ptr(l.PreStop != nil) {
		keyLifecycleHandler(k, l.PreStop)
	}
	intern.StringPtr(k, l.StopSignal)
}

func keyLifecycleHandler(k *intern.Key, h *corev1.LifecycleHandler) {
	if k.Ptr(h.Exec != nil) {
		intern.StringSlice(k, h.Exec.Command)
	}
	if k.Ptr(h.HTTPGet != nil) {
		keyHTTPGetAction(k, h.HTTPGet)
	}
	if k.Ptr(h.TCPSocket != nil) {
		keyIntOrString(k, &h.TCPSocket.Port)
		k.String(h.TCPSocket.Host)
	}
	if k.Ptr(h.Sleep != nil) {
		k.Int(h.Sleep.Seconds)
	}
}

func keyPodDNSConfig(k *intern.Key, c *corev1.PodDNSConfig) {
	intern.StringSlice(k, c.Nameservers)
	intern.StringSlice(k, c.Searches)
	if k.Len(len(c.Options), c.Options == nil) {
		for i := range c.Options {
			k.String(c.Options[i].Name)
			intern.StringPtr(k, c.Options[i].Value)
		}
	}
}

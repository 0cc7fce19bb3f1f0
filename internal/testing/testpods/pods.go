// Package testpods generates a deterministic set of realistic pods for tests
// and benchmarks.
//
// The pods look like those a Deployment creates: every pod has app, team,
// version and pod-template-hash labels, a few annotations, an owner reference
// to its ReplicaSet, managed fields for kube-controller-manager and the
// kubelet, two containers (the application and a log shipper) with images,
// environment, ports, resources, probes and volume mounts, a projected service
// account volume and a config map volume, and a running status with
// conditions and container statuses. A pod is about 3 KB in protobuf.
//
// # Layout
//
// With the default Config (100 namespaces of 1,000 pods each, 1,000 nodes):
//
//   - 100,000 pods; each namespace holds 1,000 of them.
//   - Every node runs exactly 100 pods, one from each namespace (each namespace
//     spreads its pods over the nodes with its own random permutation).
//   - Label app takes about 9,400 values. The len(GlobalApps) global apps
//     run in every namespace with GlobalReplicas pods each: 1,000 pods per
//     app, 10 (1%) per namespace.
//   - Shared apps run in one group of SharedGroupSize consecutive namespaces
//     with SharedReplicas pods in each: 100 pods per app (0.1% of the pods),
//     10 per namespace. Each namespace hosts SharedPerNamespace of them;
//     SharedApp(ns, k) names them.
//   - The other pods belong to apps local to one namespace, of 1 to 40 pods.
//
// Smaller configurations keep the same order of deployments per namespace
// (global, shared, local) and cut it at PodsPerNamespace.
package testpods

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Layout constants (see the package documentation).
const (
	GlobalReplicas     = 10 // pods of each global app in each namespace
	SharedGroupSize    = 10 // namespaces that share a group of shared apps
	SharedPerNamespace = 10 // shared apps hosted by each namespace
	SharedReplicas     = 10 // pods of each shared app in each of its namespaces
)

// GlobalApps are the values of label app deployed in every namespace.
var GlobalApps = []string{"redis", "nginx-ingress", "oauth2-proxy", "memcached", "otel-collector"}

// Config sizes a generated set. Zero fields take the defaults.
type Config struct {
	Namespaces       int    // default 100
	PodsPerNamespace int    // default 1000
	Nodes            int    // default 1000
	Seed             uint64 // default 1
}

// Default is the configuration of the 100,000-pod set.
var Default = Config{Namespaces: 100, PodsPerNamespace: 1000, Nodes: 1000, Seed: 1}

func (c Config) withDefaults() Config {
	if c.Namespaces <= 0 {
		c.Namespaces = Default.Namespaces
	}
	if c.PodsPerNamespace <= 0 {
		c.PodsPerNamespace = Default.PodsPerNamespace
	}
	if c.Nodes <= 0 {
		c.Nodes = Default.Nodes
	}
	if c.Seed == 0 {
		c.Seed = Default.Seed
	}
	return c
}

// Total returns the number of pods the configuration generates.
func (c Config) Total() int {
	c = c.withDefaults()
	return c.Namespaces * c.PodsPerNamespace
}

var (
	teamWords = []string{"payments", "search", "checkout", "identity", "catalog",
		"billing", "shipping", "fraud", "growth", "messaging"}
	teamSuffixes = []string{"core", "edge", "data", "platform", "web",
		"mobile", "ops", "ml", "api", "infra"}
	groupWords = []string{"storefront", "ledger", "inventory", "notifications", "analytics",
		"recommendations", "pricing", "accounts", "media", "partners"}
	components = []string{"api", "worker", "frontend", "scheduler", "consumer",
		"gateway", "indexer", "exporter", "sync", "webhook", "cron", "admin",
		"reporter", "migrator", "cache-warmer", "router"}
	// localSizes is the cycle of replica counts of the local deployments.
	localSizes = []int{3, 1, 12, 2, 5, 40, 8, 1, 20, 3, 6, 2, 30, 4, 10, 1}
)

// NamespaceName returns the name of namespace i.
func NamespaceName(i int) string {
	name := teamWords[i%len(teamWords)] + "-" + teamSuffixes[(i/len(teamWords))%len(teamSuffixes)]
	if n := len(teamWords) * len(teamSuffixes); i >= n {
		name += "-" + strconv.Itoa(i/n)
	}
	return name
}

// NodeName returns the name of node i.
func NodeName(i int) string {
	return fmt.Sprintf("ip-10-%d-%d-%d.eu-west-1.compute.internal", 16+i/65536%16, i/256%256, i%256)
}

// SharedApp returns the value of label app of the k-th shared app hosted by
// namespace ns (0 <= k < SharedPerNamespace). It runs in the SharedGroupSize
// namespaces ns/SharedGroupSize*SharedGroupSize and following.
func SharedApp(ns, k int) string {
	g := ns / SharedGroupSize
	name := groupWords[g%len(groupWords)] + "-" + components[k%len(components)]
	if g >= len(groupWords) {
		name += "-" + strconv.Itoa(g/len(groupWords))
	}
	return name
}

type deployment struct {
	app, team, version string
	replicas           int
	hash               string // pod-template-hash
	rsUID              types.UID
	image              string
	fields             []byte // kube-controller-manager's managed fields
}

// Generate returns the pods of configuration c, namespace by namespace. Equal
// configurations give equal pods. Every pod is a separate allocation with its
// own copies of its names, label values and other per-pod strings, as a
// decoder would give.
func Generate(c Config) []*corev1.Pod {
	c = c.withDefaults()
	rng := rand.New(rand.NewPCG(c.Seed, 0x9e3779b97f4a7c15))
	nodes := make([]string, c.Nodes)
	for i := range nodes {
		nodes[i] = NodeName(i)
	}
	base := time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)
	pods := make([]*corev1.Pod, 0, c.Total())
	for ns := range c.Namespaces {
		namespace := NamespaceName(ns)
		perm := rng.Perm(c.Nodes)
		k := 0
		for _, d := range deployments(rng, ns, c.PodsPerNamespace) {
			for range d.replicas {
				node := nodes[perm[k%c.Nodes]]
				created := base.Add(time.Duration(rng.IntN(90*24*3600)) * time.Second)
				pods = append(pods, newPod(rng, namespace, node, &d, created, len(pods)))
				k++
			}
		}
	}
	return pods
}

// deployments returns the deployments of namespace ns, cut at podsPerNS pods.
func deployments(rng *rand.Rand, ns, podsPerNS int) []deployment {
	team := NamespaceName(ns)
	var out []deployment
	left := podsPerNS
	add := func(app string, replicas int) bool {
		if left == 0 {
			return false
		}
		replicas = min(replicas, left)
		left -= replicas
		version := fmt.Sprintf("v%d.%d.%d", 1+rng.IntN(4), rng.IntN(20), rng.IntN(10))
		out = append(out, deployment{
			app:      app,
			team:     team,
			version:  version,
			replicas: replicas,
			hash:     randString(rng, 10),
			rsUID:    randUID(rng),
			image:    "registry.example.com/" + team + "/" + app + ":" + version,
		})
		return true
	}
	for _, app := range GlobalApps {
		add(app, GlobalReplicas)
	}
	for k := range SharedPerNamespace {
		add(SharedApp(ns, k), SharedReplicas)
	}
	for j := 0; add(localApp(team, j), localSizes[j%len(localSizes)]); j++ {
	}
	for i := range out {
		out[i].fields = controllerFields(&out[i])
	}
	return out
}

func localApp(team string, j int) string {
	name := team + "-" + components[j%len(components)]
	if j >= len(components) {
		name += "-" + strconv.Itoa(j/len(components))
	}
	return name
}

const alphabet = "bcdfghjklmnpqrstvwxz2456789"

func randString(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

func randHex(rng *rand.Rand, n int) string {
	const hex = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = hex[rng.IntN(16)]
	}
	return string(b)
}

func randUID(rng *rand.Rand) types.UID {
	h := randHex(rng, 32)
	return types.UID(h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:])
}

func controllerFields(d *deployment) []byte {
	return fmt.Appendf(nil, `{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{},"f:team":{},"f:version":{}},`+
		`"f:ownerReferences":{".":{},"k:{\"uid\":\"%s\"}":{}}},"f:spec":{"f:containers":{`+
		`"k:{\"name\":\"app\"}":{".":{},"f:env":{},"f:image":{},"f:name":{},"f:ports":{},"f:resources":{},"f:volumeMounts":{}},`+
		`"k:{\"name\":\"log-shipper\"}":{".":{},"f:image":{},"f:name":{},"f:resources":{},"f:volumeMounts":{}}},`+
		`"f:dnsPolicy":{},"f:restartPolicy":{},"f:volumes":{}}}`, d.rsUID)
}

var kubeletFields = `{"f:status":{"f:conditions":{},"f:containerStatuses":{},"f:hostIP":{},` +
	`"f:phase":{},"f:podIP":{},"f:podIPs":{},"f:startTime":{}}}`

func newPod(rng *rand.Rand, namespace, node string, d *deployment, created time.Time, seq int) *corev1.Pod {
	// Fresh copies of the shared strings, as a decoder would make.
	clone := func(s string) string { return string([]byte(s)) }
	app := clone(d.app)
	rsName := app + "-" + d.hash
	name := rsName + "-" + randString(rng, 5)
	podIP := fmt.Sprintf("10.%d.%d.%d", 64+rng.IntN(64), rng.IntN(256), 1+rng.IntN(254))
	hostIP := fmt.Sprintf("10.%d.%d.%d", 16+rng.IntN(16), rng.IntN(256), 1+rng.IntN(254))
	started := created.Add(time.Duration(2+rng.IntN(20)) * time.Second)
	ready := started.Add(time.Duration(5+rng.IntN(30)) * time.Second)
	yes := true
	grace := int64(30)
	tolerationSeconds := int64(300)
	expiration := int64(3607)
	mode := int32(420)
	cpu := []string{"100m", "250m", "500m", "1"}[rng.IntN(4)]
	mem := []string{"128Mi", "256Mi", "512Mi", "1Gi"}[rng.IntN(4)]
	memLimit := []string{"256Mi", "512Mi", "1Gi", "2Gi"}[rng.IntN(4)]
	saVolume := "kube-api-access-" + randString(rng, 5)
	appMounts := []corev1.VolumeMount{
		{Name: "config", MountPath: "/etc/" + app, ReadOnly: true},
		{Name: saVolume, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true},
	}
	shipperMounts := []corev1.VolumeMount{
		{Name: saVolume, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true},
	}
	condition := func(t corev1.PodConditionType, at time.Time) corev1.PodCondition {
		return corev1.PodCondition{Type: t, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(at)}
	}
	containerStatus := func(name, image, imageID string, at time.Time) corev1.ContainerStatus {
		return corev1.ContainerStatus{
			Name:         name,
			State:        corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(at)}},
			Ready:        true,
			RestartCount: int32(rng.IntN(3) / 2),
			Image:        image,
			ImageID:      imageID,
			ContainerID:  "containerd://" + randHex(rng, 64),
			Started:      &yes,
		}
	}
	shipperImage := "docker.io/fluent/fluent-bit:3.0.4"
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{},
		ObjectMeta: metav1.ObjectMeta{
			Name:              name,
			GenerateName:      rsName + "-",
			Namespace:         clone(namespace),
			UID:               randUID(rng),
			ResourceVersion:   strconv.Itoa(48_000_000 + seq*7 + rng.IntN(7)),
			CreationTimestamp: metav1.NewTime(created),
			Labels: map[string]string{
				"app":               app,
				"team":              clone(d.team),
				"version":           clone(d.version),
				"pod-template-hash": clone(d.hash),
			},
			Annotations: map[string]string{
				"prometheus.io/scrape": "true",
				"prometheus.io/port":   "9090",
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion:         "apps/v1",
				Kind:               "ReplicaSet",
				Name:               rsName,
				UID:                d.rsUID,
				Controller:         &yes,
				BlockOwnerDeletion: &yes,
			}},
			ManagedFields: []metav1.ManagedFieldsEntry{
				{
					Manager:    "kube-controller-manager",
					Operation:  metav1.ManagedFieldsOperationUpdate,
					APIVersion: "v1",
					Time:       &metav1.Time{Time: created},
					FieldsType: "FieldsV1",
					FieldsV1:   metav1.NewFieldsV1(string(d.fields)),
				},
				{
					Manager:     "kubelet",
					Operation:   metav1.ManagedFieldsOperationUpdate,
					APIVersion:  "v1",
					Time:        &metav1.Time{Time: ready},
					FieldsType:  "FieldsV1",
					FieldsV1:    metav1.NewFieldsV1(kubeletFields),
					Subresource: "status",
				},
			},
		},
		Spec: corev1.PodSpec{
			Volumes: []corev1.Volume{
				{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
					LocalObjectReference: corev1.LocalObjectReference{Name: app + "-config"},
					DefaultMode:          &mode,
				}}},
				{Name: saVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
					Sources: []corev1.VolumeProjection{
						{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: &expiration, Path: "token"}},
						{ConfigMap: &corev1.ConfigMapProjection{
							LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
							Items:                []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}},
						}},
					},
					DefaultMode: &mode,
				}}},
			},
			Containers: []corev1.Container{
				{
					Name:  "app",
					Image: clone(d.image),
					Ports: []corev1.ContainerPort{
						{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP},
						{Name: "metrics", ContainerPort: 9090, Protocol: corev1.ProtocolTCP},
					},
					Env: []corev1.EnvVar{
						{Name: "APP_NAME", Value: app},
						{Name: "LOG_LEVEL", Value: "info"},
						{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
					},
					Resources: corev1.ResourceRequirements{
						Requests: corev1.ResourceList{
							corev1.ResourceCPU:    resource.MustParse(cpu),
							corev1.ResourceMemory: resource.MustParse(mem),
						},
						Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(memLimit)},
					},
					VolumeMounts: appMounts,
					ReadinessProbe: &corev1.Probe{
						ProbeHandler:     corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/readyz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}},
						PeriodSeconds:    10,
						TimeoutSeconds:   1,
						SuccessThreshold: 1,
						FailureThreshold: 3,
					},
					TerminationMessagePath:   "/dev/termination-log",
					TerminationMessagePolicy: corev1.TerminationMessageReadFile,
					ImagePullPolicy:          corev1.PullIfNotPresent,
				},
				{
					Name:  "log-shipper",
					Image: shipperImage,
					Resources: corev1.ResourceRequirements{
						Requests: corev1.ResourceList{
							corev1.ResourceCPU:    resource.MustParse("20m"),
							corev1.ResourceMemory: resource.MustParse("32Mi"),
						},
						Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("64Mi")},
					},
					VolumeMounts:             shipperMounts,
					TerminationMessagePath:   "/dev/termination-log",
					TerminationMessagePolicy: corev1.TerminationMessageReadFile,
					ImagePullPolicy:          corev1.PullIfNotPresent,
				},
			},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: &grace,
			DNSPolicy:                     corev1.DNSClusterFirst,
			ServiceAccountName:            "default",
			NodeName:                      clone(node),
			SecurityContext:               &corev1.PodSecurityContext{},
			SchedulerName:                 corev1.DefaultSchedulerName,
			Tolerations: []corev1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &tolerationSeconds},
				{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &tolerationSeconds},
			},
			EnableServiceLinks: &yes,
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{
				condition(corev1.PodReadyToStartContainers, started),
				condition(corev1.PodInitialized, created.Add(time.Second)),
				condition(corev1.PodReady, ready),
				condition(corev1.ContainersReady, ready),
				condition(corev1.PodScheduled, created.Add(time.Second)),
			},
			HostIP:    hostIP,
			HostIPs:   []corev1.HostIP{{IP: hostIP}},
			PodIP:     podIP,
			PodIPs:    []corev1.PodIP{{IP: podIP}},
			StartTime: &metav1.Time{Time: created.Add(time.Second)},
			ContainerStatuses: []corev1.ContainerStatus{
				containerStatus("app", clone(d.image), clone(d.image)+"@sha256:"+randHex(rng, 64), started),
				containerStatus("log-shipper", shipperImage, "docker.io/fluent/fluent-bit@sha256:"+randHex(rng, 64), started),
			},
			QOSClass: corev1.PodQOSBurstable,
		},
	}
}

// Updated returns a fresh copy of pod as the API server would send it after a
// status update: a new resource version, and nodeName set to node when node
// is not empty. The copy is shallow: it shares labels, containers and the
// like with pod, which must not be mutated.
func Updated(pod *corev1.Pod, resourceVersion int, node string) *corev1.Pod {
	p := *pod
	p.ResourceVersion = strconv.Itoa(resourceVersion)
	if node != "" {
		p.Spec.NodeName = node
	}
	return &p
}

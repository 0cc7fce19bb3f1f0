// Package kubeindexes declares indexes for built-in Kubernetes types, which
// the user does not own and so cannot mark on the type: each index marker
// of this package comment names the fully qualified type it is for (for:).
// The package has no code; informer-gen-plus reads only this comment. Its
// owner indexes name the owner's API group with the kind (group/Kind): the
// generator cannot look the group up, as no package of its run defines the
// kind.
//
// +index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeName)
// +index(for: "k8s.io/api/core/v1.Pod", name: byReplicaSet, owner: "apps/ReplicaSet")
// +index(for: "k8s.io/api/core/v1.Pod", name: byPhaseNode, field: "status.phase,spec.nodeName")
// +index(for: "k8s.io/api/apps/v1.Deployment", name: byApp, label: app)
// +index(for: "k8s.io/api/core/v1.ConfigMap", name: byManagedBy, annotation: "example.dev/managed-by")
// +index(for: "k8s.io/api/core/v1.ConfigMap", name: byWidget, owner: "shop.example.dev/Widget")
package kubeindexes

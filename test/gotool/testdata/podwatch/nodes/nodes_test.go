package nodes_test

import (
	"context"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"example.dev/podwatch/generated/informers/externalversions"
	"example.dev/podwatch/nodes"
)

func pod(namespace, name, node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       corev1.PodSpec{NodeName: node},
	}
}

// The generated factory's Pod informer fills its store from a fake
// clientset, and the lister's byNode lookups answer from it.
func TestPodsOnNode(t *testing.T) {
	client := fake.NewClientset(
		pod("default", "web-1", "node-a"),
		pod("kube-system", "dns-1", "node-a"),
		pod("default", "web-2", "node-b"),
		pod("default", "pending", ""),
	)
	factory := externalversions.NewSharedInformerFactory(client, 0)
	pods := factory.Core().V1().Pods().Lister()
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); factory.Shutdown() }()
	factory.Start(ctx.Done())
	for typ, synced := range factory.WaitForCacheSync(ctx.Done()) {
		if !synced {
			t.Fatalf("the informer of %v did not sync", typ)
		}
	}

	for node, want := range map[string][]string{
		"node-a": {"default/web-1", "kube-system/dns-1"},
		"node-b": {"default/web-2"},
		"node-c": {},
		"":       {}, // an empty spec.nodeName is not indexed
	} {
		got, err := nodes.PodsOn(pods, node)
		if err != nil {
			t.Fatalf("PodsOn(%q): %v", node, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("PodsOn(%q) = %q, want %q", node, got, want)
		}
	}
	if got := nodes.CountOn(pods, "default", "node-a"); got != 1 {
		t.Errorf("CountOn(default, node-a) = %d, want 1", got)
	}
}

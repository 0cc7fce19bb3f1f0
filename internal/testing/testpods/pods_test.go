package testpods

import (
	"bytes"
	"strings"
	"testing"
)

func TestGenerateIsDeterministic(t *testing.T) {
	cfg := Config{Namespaces: 2, PodsPerNamespace: 150, Nodes: 40}
	a, b := Generate(cfg), Generate(cfg)
	if len(a) != 300 || len(b) != 300 {
		t.Fatalf("got %d and %d pods, want 300", len(a), len(b))
	}
	for i := range a {
		pa, err := a[i].Marshal()
		if err != nil {
			t.Fatal(err)
		}
		pb, _ := b[i].Marshal()
		if !bytes.Equal(pa, pb) {
			t.Fatalf("pod %d differs between two generations", i)
		}
	}
	cfg.Seed = 2
	if c := Generate(cfg); c[0].Name == a[0].Name {
		t.Errorf("seeds 1 and 2 give the same first pod %s", a[0].Name)
	}
}

// TestLayout checks the layout the package documents, on one group of
// SharedGroupSize namespaces.
func TestLayout(t *testing.T) {
	cfg := Config{Namespaces: SharedGroupSize, PodsPerNamespace: 1000, Nodes: 1000}
	pods := Generate(cfg)
	if len(pods) != cfg.Total() {
		t.Fatalf("got %d pods, want %d", len(pods), cfg.Total())
	}
	perNS := map[string]int{}
	perNode := map[string]map[string]int{} // node -> namespace -> pods
	perApp := map[string]map[string]int{}  // app -> namespace -> pods
	keys := map[string]bool{}
	for _, p := range pods {
		key := p.Namespace + "/" + p.Name
		if keys[key] {
			t.Fatalf("duplicate pod %s", key)
		}
		keys[key] = true
		perNS[p.Namespace]++
		if perNode[p.Spec.NodeName] == nil {
			perNode[p.Spec.NodeName] = map[string]int{}
		}
		perNode[p.Spec.NodeName][p.Namespace]++
		app := p.Labels["app"]
		if perApp[app] == nil {
			perApp[app] = map[string]int{}
		}
		perApp[app][p.Namespace]++
		for _, l := range []string{"app", "team", "version", "pod-template-hash"} {
			if p.Labels[l] == "" {
				t.Fatalf("pod %s has no label %s", key, l)
			}
		}
		if len(p.OwnerReferences) != 1 || p.OwnerReferences[0].Kind != "ReplicaSet" ||
			!strings.HasPrefix(p.Name, p.OwnerReferences[0].Name+"-") {
			t.Fatalf("pod %s: owner references %v", key, p.OwnerReferences)
		}
		if len(p.Spec.Containers) != 2 || len(p.Status.ContainerStatuses) != 2 || len(p.ManagedFields) != 2 {
			t.Fatalf("pod %s: want 2 containers, 2 container statuses and 2 managed fields entries", key)
		}
	}
	for i := range cfg.Namespaces {
		if n := perNS[NamespaceName(i)]; n != cfg.PodsPerNamespace {
			t.Errorf("namespace %s holds %d pods, want %d", NamespaceName(i), n, cfg.PodsPerNamespace)
		}
	}
	if len(perNode) != cfg.Nodes {
		t.Errorf("pods run on %d nodes, want %d", len(perNode), cfg.Nodes)
	}
	for node, byNS := range perNode {
		if len(byNS) != cfg.Namespaces {
			t.Fatalf("node %s runs pods of %d namespaces, want %d", node, len(byNS), cfg.Namespaces)
		}
		for ns, n := range byNS {
			if n != 1 {
				t.Fatalf("node %s runs %d pods of namespace %s, want 1", node, n, ns)
			}
		}
	}
	for _, app := range GlobalApps {
		for ns, n := range perApp[app] {
			if n != GlobalReplicas {
				t.Errorf("global app %s has %d pods in %s, want %d", app, n, ns, GlobalReplicas)
			}
		}
		if len(perApp[app]) != cfg.Namespaces {
			t.Errorf("global app %s runs in %d namespaces, want %d", app, len(perApp[app]), cfg.Namespaces)
		}
	}
	for k := range SharedPerNamespace {
		app := SharedApp(0, k)
		total := 0
		for i := range cfg.Namespaces {
			if SharedApp(i, k) != app {
				t.Fatalf("SharedApp(%d, %d) = %s, want %s", i, k, SharedApp(i, k), app)
			}
			total += perApp[app][NamespaceName(i)]
		}
		if total != SharedGroupSize*SharedReplicas || len(perApp[app]) != SharedGroupSize {
			t.Errorf("shared app %s: %d pods in %d namespaces, want %d in %d",
				app, total, len(perApp[app]), SharedGroupSize*SharedReplicas, SharedGroupSize)
		}
	}
	if SharedApp(SharedGroupSize, 0) == SharedApp(0, 0) {
		t.Errorf("two groups of namespaces share app %s", SharedApp(0, 0))
	}
}

func TestPodSize(t *testing.T) {
	pods := Generate(Config{Namespaces: 1, PodsPerNamespace: 500, Nodes: 100})
	total := 0
	for _, p := range pods {
		b, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		total += len(b)
	}
	if avg := total / len(pods); avg < 2800 || avg > 3400 {
		t.Errorf("pods average %d bytes in protobuf, want about 3 KB", avg)
	}
}

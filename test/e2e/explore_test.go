package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/informer-gen-plus/informer-gen-plus/examples/explore"
)

// explore, given a kubeconfig of the server and its flags, lists the apps
// group from discovery, runs a dynamic informer of Deployments with a
// run-time index of their images, and its lookup names exactly the
// Deployment that runs the image asked for.
func TestExploreDeploymentsByImage(t *testing.T) {
	kube := kubernetes.NewForConfigOrDie(cluster.Config())
	ns := cluster.NewNamespace(t)
	ctx := t.Context()
	for _, d := range []struct{ name, image string }{{"web", "nginx:1.29"}, {"api", "golang:1.26"}} {
		if _, err := kube.AppsV1().Deployments(ns).Create(ctx, newDeployment(d.name, "", nil, d.image), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := cluster.WriteKubeconfig(kubeconfig, ns); err != nil {
		t.Fatal(err)
	}

	var stderr strings.Builder
	opts, err := explore.ParseFlags([]string{
		"--kubeconfig", kubeconfig,
		"--group", "apps",
		"--resource", "deployments.v1.apps",
		"--namespace", ns,
		"--index", "byImage: field: spec.template.spec.containers[*].image",
		"--lookup", "byImage=nginx:1.29",
		"--lookup", "byImage=redis:7",
		"--timeout", "20s",
	}, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var out strings.Builder
	start := time.Now()
	if err := explore.Run(ctx, opts, &out); err != nil {
		t.Fatalf("%v; printed\n%s", err, out.String())
	}
	t.Logf("explore ran in %v:\n%s", time.Since(start).Round(time.Millisecond), out.String())

	got := out.String()
	table, resource, ok := strings.Cut(got, "\n\n")
	if !ok {
		t.Fatalf("no blank line between the discovery table and the resource:\n%s", got)
	}
	var deployments []string
	for i, line := range strings.Split(table, "\n") {
		fields := strings.Fields(line)
		if i < 2 || len(fields) == 0 {
			continue // the summary and the heading
		}
		if fields[0] != "apps" {
			t.Errorf("--group apps printed another group: %q", line)
		}
		if fields[2] == "deployments" {
			deployments = fields
		}
	}
	if len(deployments) != 6 || deployments[1] != "v1" || deployments[3] != "Deployment" || deployments[4] != "true" ||
		!strings.Contains(deployments[5], "list") || !strings.Contains(deployments[5], "watch") {
		t.Errorf("the discovery table's row of deployments is %q:\n%s", deployments, table)
	}
	wantLines := []string{
		"resource deployments.v1.apps (kind Deployment, namespaced, namespace " + ns + ")",
		`index byImage: field: "spec.template.spec.containers[*].image"`,
		"sync: deployments.v1.apps: Synced",
		"lookup byImage=nginx:1.29: 1 object",
		"  " + ns + "/web",
		"lookup byImage=redis:7: 0 objects",
		"objects in the cache: 2",
	}
	if want := strings.Join(wantLines, "\n") + "\n"; resource != want {
		t.Errorf("got\n%s\nwant\n%s", resource, want)
	}
}

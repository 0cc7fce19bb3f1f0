package explore_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen-plus/informer-gen-plus/examples/explore"
)

// deployments are the Deployments of the lookup tests.
func deployments() []runtime.Object {
	return []runtime.Object{
		deployment("shop", "web", "blue", "nginx:1.29", "envoy:2"),
		deployment("shop", "api", "blue", "golang:1.26"),
		deployment("lab", "proxy", "green", "nginx:1.29"),
		deployment("lab", "batch", "", "golang:1.26"),
	}
}

// Indexes declared in the marker's terms answer lookups once the informer
// has synced: a [*] path, a composite key (one value per path), a label,
// and the namespace index every informer has; the cache holds every
// object.
func TestIndexesAndLookups(t *testing.T) {
	got, err := run(t, explore.Options{
		SkipDiscovery: true,
		Resource:      "deployments.v1.apps",
		Indexes: []string{
			"byImage: field: spec.template.spec.containers[*].image",
			`byImageTeam: field: "spec.template.spec.containers[*].image, metadata.labels.team"`,
			"byTeam: label: team",
		},
		Lookups: []string{
			"byImage=nginx:1.29",
			"byImage=golang:1.26",
			"byImageTeam=nginx:1.29, blue",
			"byTeam=green",
			"byImage=redis:7",
			"namespace=lab",
		},
	}, deployments()...)
	if err != nil {
		t.Fatal(err)
	}
	want := `resource deployments.v1.apps (kind Deployment, namespaced, every namespace)
index byImage: field: "spec.template.spec.containers[*].image"
index byImageTeam: field: "spec.template.spec.containers[*].image,metadata.labels.team"
index byTeam: label: "team"
sync: deployments.v1.apps: Synced
lookup byImage=nginx:1.29: 2 objects
  lab/proxy
  shop/web
lookup byImage=golang:1.26: 2 objects
  lab/batch
  shop/api
lookup byImageTeam=nginx:1.29, blue: 1 object
  shop/web
lookup byTeam=green: 1 object
  lab/proxy
lookup byImage=redis:7: 0 objects
lookup namespace=lab: 2 objects
  lab/batch
  lab/proxy
objects in the cache: 4
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// With --namespace the informer holds the objects of that namespace only,
// and lookups find nothing elsewhere.
func TestNamespace(t *testing.T) {
	got, err := run(t, explore.Options{
		SkipDiscovery: true,
		Resource:      "deployments.v1.apps",
		Namespace:     "lab",
		Indexes:       []string{"byImage: field: spec.template.spec.containers[*].image"},
		Lookups:       []string{"byImage=nginx:1.29"},
	}, deployments()...)
	if err != nil {
		t.Fatal(err)
	}
	want := `resource deployments.v1.apps (kind Deployment, namespaced, namespace lab)
index byImage: field: "spec.template.spec.containers[*].image"
sync: deployments.v1.apps: Synced
lookup byImage=nginx:1.29: 1 object
  lab/proxy
objects in the cache: 2
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A value of a composite key may hold a comma when it is quoted as in CSV.
func TestCompositeLookupWithAQuotedComma(t *testing.T) {
	got, err := run(t, explore.Options{
		SkipDiscovery: true,
		Resource:      "deployments.v1.apps",
		Indexes:       []string{`byImageTeam: field: "spec.template.spec.containers[*].image, metadata.labels.team"`},
		Lookups:       []string{`byImageTeam="reg.example/a,b:1",red`},
	}, deployment("shop", "odd", "red", "reg.example/a,b:1"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "lookup byImageTeam=\"reg.example/a,b:1\",red: 1 object\n  shop/odd\n") {
		t.Errorf("the lookup did not find shop/odd:\n%s", got)
	}
}

// The resource argument takes kubectl's forms, looked up in discovery.
func TestResourceForms(t *testing.T) {
	for arg, want := range map[string]string{
		"deployments.v1.apps":              "resource deployments.v1.apps (kind Deployment, namespaced, every namespace)",
		"deployments.apps":                 "resource deployments.v1.apps (kind Deployment, namespaced, every namespace)",
		"configmaps.v1.":                   "resource configmaps.v1 (kind ConfigMap, namespaced, every namespace)",
		"configmaps.v1":                    "resource configmaps.v1 (kind ConfigMap, namespaced, every namespace)",
		"configmaps":                       "resource configmaps.v1 (kind ConfigMap, namespaced, every namespace)",
		"widgets.shop.example.dev":         "resource widgets.v1.shop.example.dev (kind Widget, namespaced, every namespace)",
		"widgets.v2beta1.shop.example.dev": "resource widgets.v2beta1.shop.example.dev (kind Widget, namespaced, every namespace)",
		"shops.v1.shop.example.dev":        "resource shops.v1.shop.example.dev (kind Shop, cluster-scoped)",
	} {
		t.Run(arg, func(t *testing.T) {
			got, err := run(t, explore.Options{SkipDiscovery: true, Resource: arg},
				object("v1", "ConfigMap", "shop", "settings"), object("shop.example.dev/v1", "Shop", "", "north"))
			if err != nil {
				t.Fatal(err)
			}
			if first, _, _ := strings.Cut(got, "\n"); first != want {
				t.Errorf("got %q, want %q", first, want)
			}
			if !strings.Contains(got, "Synced\n") {
				t.Errorf("not synced:\n%s", got)
			}
		})
	}
}

// A cluster-scoped object is named without a namespace.
func TestClusterScopedNames(t *testing.T) {
	got, err := run(t, explore.Options{
		SkipDiscovery: true,
		Resource:      "shops.v1.shop.example.dev",
		Indexes:       []string{"byName: field: metadata.name"},
		Lookups:       []string{"byName=north"},
	}, object("shop.example.dev/v1", "Shop", "", "north"), object("shop.example.dev/v1", "Shop", "", "south"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "lookup byName=north: 1 object\n  north\nobjects in the cache: 2\n") {
		t.Errorf("got\n%s", got)
	}
}

// Both parts print in one run: the table, a blank line, the resource.
func TestDiscoveryAndResource(t *testing.T) {
	got, err := run(t, explore.Options{Groups: []string{"apps"}, Resource: "deployments.v1.apps"}, deployments()...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "apps   v1       deployments  Deployment  true        get,list,watch\n\nresource deployments.v1.apps") ||
		!strings.HasSuffix(got, "objects in the cache: 4\n") {
		t.Errorf("got\n%s", got)
	}
}

package metadatainformer_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/indexcheck"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory/gvrtest"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/metadatainformer"
)

// specs are the run-time indexes the tests declare on ConfigMaps: every
// source a metadata informer takes.
var specs = map[string]string{
	"byTeam":       "label: team",
	"byNote":       "annotation: example.dev/note",
	"byDeployment": "owner: apps/Deployment",
	"bySecret":     `owner: "core/Secret"`,
}

func TestIndexKinds(t *testing.T) {
	notController := controller("apps/v1", "Deployment", "web")
	notController.Controller = nil
	client, _ := newClient(
		configMap("a", "web-config", map[string]string{"team": "blue"}, map[string]string{"example.dev/note": "hi"}, controller("apps/v1", "Deployment", "web")),
		configMap("b", "db-config", map[string]string{"team": ""}, nil, controller("v1", "Secret", "s1")),
		configMap("b", "other", nil, nil, notController),
		configMap("b", "old", nil, nil, controller("extensions/v1beta1", "Deployment", "web")),
	)
	f := metadatainformer.NewSharedInformerFactory(client, 0)
	r := f.Resource(configMapsGVR)
	indexcheck.Declare(t, r, specs)
	gvrtest.Start(t, f)
	tests := []struct {
		index, value string
		want         []string
	}{
		{"byTeam", "blue", []string{"a/web-config"}},
		{"byTeam", "", []string{"b/db-config"}},
		{"byNote", "hi", []string{"a/web-config"}},
		{"byDeployment", "web", []string{"a/web-config"}},
		{"bySecret", "s1", []string{"b/db-config"}},
		{"bySecret", "web", nil},
	}
	for _, tt := range tests {
		got, err := r.ByIndex(tt.index, tt.value)
		if keys := indexcheck.Keys(got); err != nil || (!slices.Equal(keys, tt.want) && len(keys)+len(tt.want) > 0) {
			t.Errorf("ByIndex(%s, %q) = %v, %v; want %v", tt.index, tt.value, keys, err, tt.want)
		}
	}
	if got, err := r.ByIndexInNamespace("byDeployment", "b", "web"); err != nil || len(got) != 0 {
		t.Errorf("ByIndexInNamespace(byDeployment, b, web) = %v, %v", indexcheck.Keys(got), err)
	}
	blue, err := r.TypedLister().Namespace("a").List(labels.SelectorFromSet(labels.Set{"team": "blue"}))
	if err != nil || len(blue) != 1 {
		t.Errorf("List(team=blue) = %v, %v", blue, err)
	}
}

// Field specs are refused when declared, with the reason; so are invalid
// specs, and nothing is added.
func TestInvalidAndFieldSpecsAreErrorsWhenDeclared(t *testing.T) {
	client, _ := newClient()
	r := metadatainformer.NewSharedInformerFactory(client, 0).Resource(configMapsGVR)
	tests := []struct{ spec, want string }{
		{"field: metadata.name", "holds only the objects' metadata"},
		{"field: data.color", "index by label, annotation or owner"},
		{"label: -x", "is not a label key"},
		{"owner: Deployment", "names no API group"},
		{"owner: /Secret", "the core group is written core"},
	}
	for _, tt := range tests {
		if err := r.AddIndex("x", tt.spec); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("AddIndex(x, %q) = %v, want an error containing %q", tt.spec, err, tt.want)
		}
	}
	if err := r.AddIndexSpec("x", fieldpath.IndexSpec{Field: fieldpath.MustParse("metadata.name")}); err == nil {
		t.Error("AddIndexSpec accepted a field spec")
	}
	if names := r.TypedInformer().TypedStore().IndexNames(); len(names) != 0 {
		t.Fatalf("indexes %v after invalid declarations", names)
	}
	if _, err := r.ByIndex("x", "a"); err == nil {
		t.Error("ByIndex of an index never added")
	}
}

func randomConfigMap(rng *rand.Rand, namespace, name string) *metav1.PartialObjectMetadata {
	pick := func(values ...string) string { return values[rng.IntN(len(values))] }
	var labels, annotations map[string]string
	if rng.IntN(4) > 0 {
		labels = map[string]string{"team": pick("blue", "green", "")}
	}
	if rng.IntN(2) == 0 {
		annotations = map[string]string{"example.dev/note": pick("a", "b")}
	}
	var owners []metav1.OwnerReference
	switch rng.IntN(5) {
	case 0:
		owners = append(owners, controller("apps/v1", "Deployment", pick("d1", "d2")))
	case 1:
		owners = append(owners, controller("v1", "Secret", pick("s1", "s2")))
	case 2:
		owners = append(owners, controller("apps/v1beta1", "Deployment", pick("d1", "d2")))
	}
	return configMap(namespace, name, labels, annotations, owners...)
}

// After random creates, updates and deletes, every lookup answers what a
// filter of the fake's objects answers.
func TestIndexesAgreeWithBruteForce(t *testing.T) {
	client, watching := newClient()
	f := metadatainformer.NewSharedInformerFactory(client, 0)
	churn := gvrtest.Churn[*metav1.PartialObjectMetadata]{Tracker: client.Tracker(), GVR: configMapsGVR, Random: randomConfigMap, Watching: watching, Disagreements: indexcheck.Disagreements[*metav1.PartialObjectMetadata]}
	late := fieldpath.IndexSpec{Owner: schema.GroupKind{Kind: "Secret"}}
	indexes := indexcheck.Declare(t, f.Resource(configMapsGVR), specs)
	gvrtest.CheckIndexesAgreeWithBruteForce(t, f, churn, rand.New(rand.NewPCG(3, 5)), indexes, late)
}

package dynamicinformer_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/indexcheck"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory/gvrtest"
)

// specs are the run-time indexes the tests declare on deployments: every
// source, a composite key, and [*] at one and two levels.
var specs = map[string]string{
	"byImage":          `field: "spec.template.spec.containers[*].image"`,
	"byPort":           "field: spec.template.spec.containers[*].ports[*].containerPort",
	"byReplicasPaused": "field: spec.replicas, spec.paused",
	"byImageTeam":      `field: "spec.template.spec.containers[*].image, metadata.labels.team"`,
	"byStrategy":       "field: spec.strategy.type",
	"byTeam":           "label: team",
	"byNote":           "annotation: example.dev/note",
	"byReplicaSet":     "owner: apps/ReplicaSet",
	"byConfigMap":      `owner: "core/ConfigMap"`,
}

func controller(apiVersion, kind, name string) map[string]any {
	return map[string]any{"apiVersion": apiVersion, "kind": kind, "name": name, "uid": "u-" + name, "controller": true}
}

// Each kind of index files the objects under the values the spec defines.
func TestIndexKinds(t *testing.T) {
	objs := []runtime.Object{
		deployment("a", "web", map[string]any{
			"metadata": map[string]any{
				"labels":          map[string]any{"team": "blue"},
				"annotations":     map[string]any{"example.dev/note": "hello"},
				"ownerReferences": []any{controller("apps/v1", "ReplicaSet", "rs1")},
			},
			"spec": mergeMaps(containers("nginx", "envoy", "nginx"), map[string]any{"replicas": int64(2), "paused": false}),
		}),
		deployment("b", "db", map[string]any{
			"metadata": map[string]any{
				"labels":          map[string]any{"team": ""},
				"ownerReferences": []any{controller("v1", "ConfigMap", "cm1"), controller("apps/v1", "ReplicaSet", "second")},
			},
			"spec": mergeMaps(containers("postgres"), map[string]any{"replicas": int64(2), "strategy": map[string]any{"type": nil}}),
		}),
		deployment("b", "other", map[string]any{
			"metadata": map[string]any{
				// Not a controller, of another group, and of another kind.
				"ownerReferences": []any{
					map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs1", "uid": "x"},
					controller("extensions/v1beta1", "ReplicaSet", "rs1"),
				},
			},
			"spec": map[string]any{"replicas": "two", "paused": true, "strategy": map[string]any{"type": "Recreate"}},
		}),
	}
	client, _ := newClient(objs...)
	f := dynamicinformer.NewDynamicSharedInformerFactory(client, 0)
	r := f.Resource(deploymentsGVR)
	indexcheck.Declare(t, r, specs)
	gvrtest.Start(t, f)

	tests := []struct {
		index  string
		values []string
		want   []string
	}{
		{"byImage", []string{"nginx"}, []string{"a/web"}},
		{"byImage", []string{"envoy"}, []string{"a/web"}},
		{"byImage", []string{"postgres"}, []string{"b/db"}},
		{"byImage", []string{"redis"}, nil},
		{"byPort", []string{"80"}, nil},
		{"byReplicasPaused", []string{"2", "false"}, []string{"a/web"}},
		{"byReplicasPaused", []string{"2", "true"}, nil}, // db has no spec.paused, other's replicas is a string
		{"byImageTeam", []string{"nginx", "blue"}, []string{"a/web"}},
		{"byImageTeam", []string{"postgres", ""}, []string{"b/db"}},
		{"byStrategy", []string{"Recreate"}, []string{"b/other"}},
		{"byStrategy", []string{""}, nil}, // null is no value
		{"byTeam", []string{"blue"}, []string{"a/web"}},
		{"byTeam", []string{""}, []string{"b/db"}}, // an empty label value is a value
		{"byNote", []string{"hello"}, []string{"a/web"}},
		{"byReplicaSet", []string{"rs1"}, []string{"a/web"}}, // not other's: no controller of apps
		{"byReplicaSet", []string{"second"}, nil},            // db's controller is its first
		{"byConfigMap", []string{"cm1"}, []string{"b/db"}},
	}
	for _, tt := range tests {
		got, err := r.ByIndex(tt.index, tt.values...)
		if err != nil {
			t.Errorf("ByIndex(%s, %q): %v", tt.index, tt.values, err)
			continue
		}
		if keys := indexcheck.Keys(got); !slices.Equal(keys, tt.want) && len(keys)+len(tt.want) > 0 {
			t.Errorf("ByIndex(%s, %q) = %v, want %v", tt.index, tt.values, keys, tt.want)
		}
	}
	// client-go's namespace index, which the factory adds as client-go's
	// does, answers as client-go's indexer does.
	for ns, want := range map[string][]string{"a": {"a/web"}, "b": {"b/db", "b/other"}, "c": nil} {
		got, err := r.ByIndex(clientcache.NamespaceIndex, ns)
		viaClientGo, _ := r.Informer().GetIndexer().ByIndex(clientcache.NamespaceIndex, ns)
		if keys := indexcheck.Keys(got); err != nil || len(viaClientGo) != len(want) || (!slices.Equal(keys, want) && len(keys)+len(want) > 0) {
			t.Errorf("ByIndex(namespace, %s) = %v, %v (client-go view: %d objects), want %v", ns, keys, err, len(viaClientGo), want)
		}
	}
	if got, err := r.ByIndexInNamespace(clientcache.NamespaceIndex, "b", "a"); err != nil || len(got) != 0 {
		t.Errorf("ByIndexInNamespace(namespace, b, a) = %v, %v", got, err)
	}
	inB, err := r.ByIndexInNamespace("byImageTeam", "b", "postgres", "")
	if err != nil || len(inB) != 1 {
		t.Errorf("ByIndexInNamespace(byImageTeam, b) = %v, %v", inB, err)
	}
	if inA, err := r.ByIndexInNamespace("byImageTeam", "a", "postgres", ""); err != nil || len(inA) != 0 {
		t.Errorf("ByIndexInNamespace(byImageTeam, a) = %v, %v", inA, err)
	}
	// The label index narrows the lister's selector lists and gives the
	// same answer as a scan.
	blue, err := r.TypedLister().List(labels.SelectorFromSet(labels.Set{"team": "blue"}))
	if err != nil || len(blue) != 1 || blue[0].GetName() != "web" {
		t.Errorf("List(team=blue) = %v, %v", blue, err)
	}
	// The composite value is JoinValues of the parts, as generated lookups
	// encode it, and the store answers it directly.
	value, err := r.IndexValue("byReplicasPaused", "2", "false")
	if err != nil || value != fieldpath.JoinValues("2", "false") {
		t.Fatalf("IndexValue = %q, %v", value, err)
	}
	n := 0
	for range r.TypedInformer().TypedStore().IndexedObjects("byReplicasPaused", "", value) {
		n++
	}
	if n != 1 {
		t.Fatalf("IndexedObjects found %d objects", n)
	}
}

func mergeMaps(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// An invalid spec is an error when the index is declared, and nothing is
// added; lookups with the wrong number of values or of an unknown index are
// errors too.
func TestInvalidSpecsAreErrorsWhenDeclared(t *testing.T) {
	client, _ := newClient()
	r := dynamicinformer.NewDynamicSharedInformerFactory(client, 0).Resource(deploymentsGVR)
	before := r.TypedInformer().TypedStore().IndexNames()
	tests := []struct{ name, spec, want string }{
		{"a", "spec.nodeName", `want "source: value"`},
		{"b", "field: spec..x", "empty field name"},
		{"c", "field: a[0]", `expected "[*]"`},
		{"d", "label: not a key", "is not a label key"},
		{"e", "owner: ReplicaSet", `names no API group`},
		{"f", "owner: /ConfigMap", "has an empty group; the core group is written core"},
		{"g", "owner: apps/v1/Deployment", "must be Kind or group/Kind"},
		{"h", "func: example.dev/x.F", `unknown source "func"`},
		{"", "label: app", "needs a name"},
		{"namespace", "label: app", `"namespace" already exists`},
	}
	for _, tt := range tests {
		err := r.AddIndex(tt.name, tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "deployments.apps") {
			t.Errorf("AddIndex(%q, %q) = %v, want an error naming the resource and containing %q", tt.name, tt.spec, err, tt.want)
		}
	}
	if err := r.AddIndexSpec("x", fieldpath.IndexSpec{Label: "a", Annotation: "b"}); err == nil {
		t.Error("AddIndexSpec accepted a spec of two sources")
	}
	if err := r.AddIndexSpec("y", fieldpath.IndexSpec{Field: fieldpath.Key{{{Name: "a.b"}}}}); err == nil {
		t.Error("AddIndexSpec accepted a hand-built key that does not parse back")
	}
	if after := r.TypedInformer().TypedStore().IndexNames(); !slices.Equal(before, after) {
		t.Fatalf("indexes %v after invalid declarations, %v before", after, before)
	}

	if err := r.AddIndexSpec("byPair", fieldpath.IndexSpec{Field: fieldpath.MustParse("a,b")}); err != nil {
		t.Fatal(err)
	}
	if err := r.AddIndex("byPair", "label: x"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("a second index of the same name: %v", err)
	}
	if _, err := r.ByIndex("byPair", "only-one"); err == nil || !strings.Contains(err.Error(), "takes 2 value(s)") {
		t.Errorf("ByIndex with one value for a two-path key: %v", err)
	}
	if _, err := r.ByIndex("namespace", "a", "b"); err == nil {
		t.Error("ByIndex with two values for a client-go index")
	}
	if _, err := r.ByIndex("unknown", "x"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("ByIndex of an unknown index: %v", err)
	}
}

// Objects whose fields have unexpected shapes (lists where objects are
// expected, objects where scalars are, nulls, owner references that are not
// objects) are stored without values in those indexes, and nothing panics.
func TestOddShapesGiveNoValue(t *testing.T) {
	client, _ := newClient(
		deployment("a", "odd", map[string]any{
			"metadata": map[string]any{
				"annotations":     map[string]any{"example.dev/note": int64(3)},
				"ownerReferences": []any{"not an object", map[string]any{"kind": "ReplicaSet", "controller": "true"}},
			},
			"spec": map[string]any{
				"template": []any{"not", "an", "object"},
				"replicas": map[string]any{"nested": int64(1)},
				"paused":   nil,
				"strategy": "Recreate",
			},
		}),
		deployment("a", "empty", nil),
	)
	f := dynamicinformer.NewDynamicSharedInformerFactory(client, 0)
	r := f.Resource(deploymentsGVR)
	parsed := indexcheck.Declare(t, r, specs)
	gvrtest.Start(t, f)
	if keys := r.Informer().GetStore().ListKeys(); len(keys) != 2 {
		t.Fatalf("the store holds %v", keys)
	}
	for name := range parsed {
		if values := r.TypedInformer().TypedStore().ListIndexFuncValues(name); len(values) != 0 {
			t.Errorf("index %s has values %q", name, values)
		}
	}
}

// randomDeployment returns a deployment with random values for every
// declared index, absent ones included.
func randomDeployment(rng *rand.Rand, namespace, name string) *unstructured.Unstructured {
	pick := func(values ...string) string { return values[rng.IntN(len(values))] }
	var list []any
	for range rng.IntN(4) {
		c := map[string]any{"name": "c", "image": pick("nginx", "envoy", "redis", "postgres")}
		if rng.IntN(2) == 0 {
			var ports []any
			for range rng.IntN(3) {
				ports = append(ports, map[string]any{"containerPort": int64([]int{80, 443, 8080}[rng.IntN(3)])})
			}
			c["ports"] = ports
		}
		list = append(list, c)
	}
	spec := map[string]any{"template": map[string]any{"spec": map[string]any{"containers": list}}}
	if rng.IntN(4) > 0 {
		spec["replicas"] = int64(rng.IntN(3))
	}
	if rng.IntN(3) > 0 {
		spec["paused"] = rng.IntN(2) == 0
	}
	if rng.IntN(2) == 0 {
		spec["strategy"] = map[string]any{"type": pick("Recreate", "RollingUpdate")}
	}
	meta := map[string]any{}
	if rng.IntN(4) > 0 {
		meta["labels"] = map[string]any{"team": pick("blue", "green", "")}
	}
	if rng.IntN(2) == 0 {
		meta["annotations"] = map[string]any{"example.dev/note": pick("a", "b")}
	}
	switch rng.IntN(5) {
	case 0:
		meta["ownerReferences"] = []any{controller("apps/v1", "ReplicaSet", pick("rs1", "rs2"))}
	case 1:
		meta["ownerReferences"] = []any{controller("v1", "ConfigMap", pick("cm1", "cm2"))}
	case 2:
		meta["ownerReferences"] = []any{controller("apps/v1beta2", "ReplicaSet", pick("rs1", "rs2"))}
	}
	return deployment(namespace, name, map[string]any{"metadata": meta, "spec": spec})
}

// After random creates, updates (which move indexed values) and deletes,
// every lookup of every declared index, in every namespace and in each,
// answers what a filter of the fake's objects answers.
func TestIndexesAgreeWithBruteForce(t *testing.T) {
	client, watching := newClient()
	f := dynamicinformer.NewDynamicSharedInformerFactory(client, 0)
	churn := gvrtest.Churn[*unstructured.Unstructured]{Tracker: client.Tracker(), GVR: deploymentsGVR, Random: randomDeployment, Watching: watching, Disagreements: indexcheck.Disagreements[*unstructured.Unstructured]}
	// An index declared while the informer runs indexes what it holds.
	late := fieldpath.IndexSpec{Owner: schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}}
	indexes := indexcheck.Declare(t, f.Resource(deploymentsGVR), specs)
	gvrtest.CheckIndexesAgreeWithBruteForce(t, f, churn, rand.New(rand.NewPCG(7, 11)), indexes, late)
}

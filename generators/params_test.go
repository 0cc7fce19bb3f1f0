package generators

import (
	"slices"
	"testing"

	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/resolve"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// Lookup parameters are named after what they hold, as valid, readable Go
// identifiers.
func TestParamNames(t *testing.T) {
	for key, want := range map[string][]string{
		"spec.color":                        {"color"},
		"spec.nodeName":                     {"nodeName"},
		"spec.sku":                          {"sku"},
		"spec.node-name":                    {"nodeName"},
		"spec.containers[*].image":          {"image"},
		"spec.driver.name":                  {"driverName"},
		"spec.containers[*].ports[*].name":  {"portName"},
		"metadata.name":                     {"name"},
		"spec.name":                         {"name"},
		"spec.owner.uid":                    {"ownerUID"},
		"spec.tags[*]":                      {"tag"},
		"spec.policies[*]":                  {"policy"},
		"spec.addresses[*]":                 {"address"},
		"spec.boxes[*]":                     {"box"},
		"spec.status[*]":                    {"status"},
		"status.phase,spec.nodeName":        {"phase", "nodeName"},
		"spec.source.name,spec.target.name": {"sourceName", "targetName"},
		"spec.type":                         {"specType"},
		"type":                              {"typeValue"},
		"spec.string":                       {"specString"},
		"spec.key":                          {"specKey"},
		"spec.a.name,spec.b.name,spec.name": {"aName", "bName", "specName"},
		"spec.fieldpath":                    {"specFieldpath"},
	} {
		if got := fieldParamNames(fieldpath.MustParse(key)); !slices.Equal(got, want) {
			t.Errorf("fieldParamNames(%s) = %q, want %q", key, got, want)
		}
	}
	for in, want := range map[string]string{
		"team":                        "team",
		"example.dev/owner":           "owner",
		"shop.example.dev/owner-team": "ownerTeam",
		"app.kubernetes.io/name":      "name",
		"example.dev/managed-by":      "managedBy",
		"example.dev/managed_by":      "managedBy",
		"example.dev/node-ip":         "nodeIP",
		"example.dev/ip":              "ip",
		"example.dev/v1.alpha":        "v1Alpha",
		"example.dev/type":            "typeValue",
		"example.dev/1st":             "value",
		"example.dev/yield":           "yieldValue",
	} {
		if got := keyParamName(in); got != want {
			t.Errorf("keyParamName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"Shop":                     "shop",
		"ReplicaSet":               "replicaSet",
		"HTTPRoute":                "httpRoute",
		"CustomResourceDefinition": "customResourceDefinition",
		"SKU":                      "sku",
	} {
		if got := identParamName(in); got != want {
			t.Errorf("identParamName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"ZoneOf":       "zone",
		"ByRegion":     "region",
		"GetOwnerName": "ownerName",
		"Of":           "of",
		"Bypass":       "bypass",
		"IPOf":         "ip",
		"Range":        "rangeValue",
	} {
		if got := funcParamName(in); got != want {
			t.Errorf("funcParamName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A lookup's parameter has the leaf's named type only when generated code
// can name it: exported, and not in an internal package.
func TestImportableLeafType(t *testing.T) {
	builtin := &types.Type{Name: types.Name{Name: "string"}, Kind: types.Builtin}
	named := func(pkg, name string) *types.Type {
		return &types.Type{Name: types.Name{Package: pkg, Name: name}, Kind: types.Alias, Underlying: builtin}
	}
	for _, tc := range []struct {
		leaf *types.Type
		want *types.Type
	}{
		{builtin, builtin},
		{named("example.dev/api/v1", "Phase"), nil},
		{named("example.dev/api/v1", "phase"), builtin},
		{named("example.dev/internal/api", "Phase"), builtin},
		{named("example.dev/api/internal", "Phase"), builtin},
	} {
		want := tc.want
		if want == nil {
			want = tc.leaf
		}
		if got := importableLeafType(resolve.Path{Type: tc.leaf}); got != want {
			t.Errorf("importableLeafType(%v) = %v, want %v", tc.leaf.Name, got.Name, want.Name)
		}
	}
}

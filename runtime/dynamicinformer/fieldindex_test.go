package dynamicinformer

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// randomValue returns a random JSON value as unstructured decoding produces
// it (and a few Go types it does not), nested up to depth, with field names
// from a small set so that random paths often find something.
func randomValue(rng *rand.Rand, depth int) any {
	if depth > 0 {
		switch rng.IntN(4) {
		case 0, 1:
			m := map[string]any{}
			for _, name := range []string{"a", "b", "c"} {
				if rng.IntN(10) < 7 {
					m[name] = randomValue(rng, depth-1)
				}
			}
			return m
		case 2:
			list := make([]any, rng.IntN(4))
			for i := range list {
				list[i] = randomValue(rng, depth-1)
			}
			return list
		}
	}
	switch rng.IntN(10) {
	case 0:
		return nil
	case 1:
		return rng.IntN(2) == 0
	case 2:
		return int64(rng.IntN(5) - 2)
	case 3:
		return []float64{1, 2.5, -3, 1e300}[rng.IntN(4)]
	case 4:
		return json.Number([]string{"7", "1.5", "18446744073709551615"}[rng.IntN(3)])
	case 5:
		return int32(rng.IntN(3))
	}
	return []string{"x", "y", "", "x\x00y"}[rng.IntN(4)]
}

// randomKey returns a random valid key of one to three paths over the names
// randomValue uses.
func randomKey(rng *rand.Rand) fieldpath.Key {
	var k fieldpath.Key
	seen := map[string]bool{}
	for range []int{1, 1, 1, 1, 1, 1, 2, 2, 2, 3}[rng.IntN(10)] {
		var p fieldpath.Path
		for range 1 + rng.IntN(3) {
			p = append(p, fieldpath.Segment{Name: []string{"a", "b", "c"}[rng.IntN(3)], Each: rng.IntN(3) == 0})
		}
		if !seen[p.String()] {
			seen[p.String()] = true
			k = append(k, p)
		}
	}
	return k
}

// grow returns v changed so that path rest usually finds values in it:
// objects and lists are made where the path needs them (a list of zero to
// three elements), leaves are made scalars, and one step in ten is left
// random instead.
func grow(rng *rand.Rand, v any, rest fieldpath.Path) any {
	if rng.IntN(10) == 0 {
		return randomValue(rng, 2)
	}
	if len(rest) == 0 {
		if v != nil && rng.IntN(2) == 0 {
			return v
		}
		return randomValue(rng, 0)
	}
	m, ok := v.(map[string]any)
	if !ok {
		m = map[string]any{}
	}
	if !rest[0].Each {
		m[rest[0].Name] = grow(rng, m[rest[0].Name], rest[1:])
		return m
	}
	list, ok := m[rest[0].Name].([]any)
	if !ok {
		list = make([]any, rng.IntN(4))
	}
	for i := range list {
		list[i] = grow(rng, list[i], rest[1:])
	}
	m[rest[0].Name] = list
	return m
}

// The compiled index function gives what the definition, Key.Values, gives
// on the same object: the same values in the same order, none for absent,
// null or mistyped fields, never a panic.
func TestCompiledFieldAgreesWithKeyValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	withValues := 0
	for i := range 20000 {
		obj := map[string]any{"a": randomValue(rng, 4), "b": randomValue(rng, 4), "c": randomValue(rng, 4)}
		key := randomKey(rng)
		if i%2 == 0 {
			for _, p := range key {
				if m, ok := grow(rng, obj, p).(map[string]any); ok {
					obj = m
				}
			}
		}
		want := key.Values(obj)
		got := compileField(key)(&unstructured.Unstructured{Object: obj})
		if !slices.Equal(got, want) || (got == nil) != (len(got) == 0) {
			t.Fatalf("case %d: key %s on %v: compiled gives %q, Key.Values %q", i, key, obj, got, want)
		}
		if len(want) > 0 {
			withValues++
		}
	}
	t.Logf("%d of 20000 cases have values", withValues)
	if withValues < 3000 {
		t.Fatalf("only %d of the random cases had values: the generator does not exercise the walker", withValues)
	}
}

func TestCompiledFieldExamples(t *testing.T) {
	obj := map[string]any{
		"spec": map[string]any{
			"nodeName": "n1",
			"replicas": int64(3),
			"paused":   false,
			"ratio":    1.5,
			"containers": []any{
				map[string]any{"image": "nginx", "ports": []any{map[string]any{"containerPort": int64(80)}, map[string]any{"containerPort": int64(443)}}},
				map[string]any{"image": "busybox", "ports": nil},
				map[string]any{"image": "nginx"},
				"not an object",
				nil,
			},
			"nothing": nil,
		},
	}
	tests := []struct {
		key  string
		want []string
	}{
		{"spec.nodeName", []string{"n1"}},
		{"spec.replicas", []string{"3"}},
		{"spec.paused", []string{"false"}},
		{"spec.ratio", nil},
		{"spec.nothing", nil},
		{"spec.absent", nil},
		{"spec.nodeName.deeper", nil},
		{"spec", nil},
		{"spec.containers", nil},
		{"spec.containers[*].image", []string{"nginx", "busybox"}},
		{"spec.containers[*].ports[*].containerPort", []string{"80", "443"}},
		{"spec.nodeName[*]", nil},
		{"spec.containers[*].image, spec.nodeName", []string{"nginx\x00n1", "busybox\x00n1"}},
		{"spec.nodeName, spec.absent", nil},
	}
	for _, tt := range tests {
		got := compileField(fieldpath.MustParse(tt.key))(&unstructured.Unstructured{Object: obj})
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.key, got, tt.want)
		}
	}
	// An object without a map at all gives no value.
	if got := compileField(fieldpath.MustParse("a.b,c[*]"))(&unstructured.Unstructured{}); got != nil {
		t.Errorf("empty object: %q", got)
	}
}

// A path without [*] allocates only its result.
func TestCompiledSingleFieldAllocatesNothingBeyondItsResult(t *testing.T) {
	fn := compileField(fieldpath.MustParse("spec.nodeName"))
	u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"nodeName": "n1"}}}
	if n := testing.AllocsPerRun(100, func() { fn(u) }); n > 1 {
		t.Fatalf("%v allocations per call", n)
	}
	miss := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{}}}
	if n := testing.AllocsPerRun(100, func() { fn(miss) }); n != 0 {
		t.Fatalf("%v allocations per call without a value", n)
	}
}

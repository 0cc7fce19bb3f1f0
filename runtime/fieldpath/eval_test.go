package fieldpath

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// pod is an object in its JSON form, as unstructured decoding produces it.
func pod() map[string]any {
	return map[string]any{
		"metadata": map[string]any{
			"name":       "p1",
			"labels":     map[string]any{"app": "web"},
			"finalizers": []any{"a", "b", "a"},
			"generation": int64(3),
		},
		"spec": map[string]any{
			"nodeName":    "node-1",
			"hostNetwork": true,
			"priority":    float64(-5),
			"weight":      1.5,
			"optional":    nil,
			"containers": []any{
				map[string]any{
					"name":  "app",
					"image": "nginx",
					"ports": []any{
						map[string]any{"name": "http", "containerPort": int64(80)},
						map[string]any{"name": "https", "containerPort": int64(443)},
					},
				},
				map[string]any{
					"name":  "sidecar",
					"image": "envoy",
					"ports": []any{
						map[string]any{"name": "http", "containerPort": int64(80)},
						map[string]any{"containerPort": int64(9901)}, // no name
					},
				},
				map[string]any{"name": "init", "image": "nginx"}, // no ports
				nil,
				"not an object",
			},
		},
		"status": map[string]any{"phase": "Running"},
	}
}

func TestValues(t *testing.T) {
	tests := []struct {
		key  string
		want []string
	}{
		{"metadata.name", []string{"p1"}},
		{"spec.nodeName", []string{"node-1"}},
		{"status.phase", []string{"Running"}},
		{"spec.hostNetwork", []string{"true"}},
		{"metadata.generation", []string{"3"}},
		{"spec.priority", []string{"-5"}}, // integral float64
		{"metadata.labels.app", []string{"web"}},

		// No value.
		{"spec.missing", nil},
		{"missing.deeper.still", nil},
		{"spec.optional", nil},         // null
		{"spec.optional.x", nil},       // through null
		{"spec.weight", nil},           // fractional number
		{"metadata.labels", nil},       // object leaf
		{"spec.containers", nil},       // list leaf without [*]
		{"spec.nodeName.x", nil},       // through a string
		{"spec.nodeName[*]", nil},      // [*] over a non-list
		{"spec.containers.image", nil}, // list without [*]

		// Multi-valued: document order, duplicates removed.
		{"metadata.finalizers[*]", []string{"a", "b"}},
		{"spec.containers[*].image", []string{"nginx", "envoy"}},
		{"spec.containers[*].name", []string{"app", "sidecar", "init"}},
		{"spec.containers[*].ports[*].name", []string{"http", "https"}},
		{"spec.containers[*].ports[*].containerPort", []string{"80", "443", "9901"}},
		{"spec.containers[*].missing", nil},

		// Composite.
		{"status.phase,spec.nodeName", []string{"Running\x00node-1"}},
		{"status.phase, spec.hostNetwork, metadata.generation", []string{"Running\x00true\x003"}},
		{"status.phase,spec.missing", nil},
		{"spec.optional,status.phase", nil},
		{
			"spec.nodeName,spec.containers[*].image",
			[]string{"node-1\x00nginx", "node-1\x00envoy"},
		},
		{
			"spec.containers[*].image,metadata.finalizers[*]",
			[]string{"nginx\x00a", "nginx\x00b", "envoy\x00a", "envoy\x00b"},
		},
		{"spec.containers[*].image,spec.containers[*].missing", nil},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			k := MustParse(tt.key)
			got := k.Values(pod())
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Values = %q, want %q", got, tt.want)
			}
			if len(k) == 1 {
				if got := k[0].Values(pod()); !reflect.DeepEqual(got, tt.want) {
					t.Errorf("Path.Values = %q, want %q", got, tt.want)
				}
			}
		})
	}
}

func TestValuesNilAndEmpty(t *testing.T) {
	k := MustParse("a.b[*]")
	for _, obj := range []map[string]any{
		nil,
		{},
		{"a": nil},
		{"a": map[string]any{"b": nil}},
		{"a": map[string]any{"b": []any{}}},
		{"a": map[string]any{"b": []any{nil, map[string]any{}}}},
	} {
		if got := k.Values(obj); got != nil {
			t.Errorf("Values(%v) = %q, want nil", obj, got)
		}
	}
	if got := (Path(nil)).Values(map[string]any{"a": "x"}); got != nil {
		t.Errorf("empty path Values = %q, want nil", got)
	}
	if got := (Key(nil)).Values(map[string]any{"a": "x"}); got != nil {
		t.Errorf("empty key Values = %q, want nil", got)
	}
}

// Decoding with encoding/json gives the same values as the typed helpers.
func TestValuesFromJSON(t *testing.T) {
	var obj map[string]any
	doc := `{"spec":{"n":42,"big":9007199254740993,"neg":-1,"b":false,"s":"x","f":1.25,"e":1e3,
		"l":[{"v":1},{"v":2.0},{"v":"1"}]}}`
	if err := json.Unmarshal([]byte(doc), &obj); err != nil {
		t.Fatal(err)
	}
	check := func(key string, want ...string) {
		t.Helper()
		if got := MustParse(key).Values(obj); !equalValues(got, want) {
			t.Errorf("%s: Values = %q, want %q", key, got, want)
		}
	}
	check("spec.n", "42")
	check("spec.neg", "-1")
	check("spec.b", "false")
	check("spec.s", "x")
	check("spec.f")
	check("spec.e", "1000")
	// A number and a string that render alike give one value.
	check("spec.l[*].v", "1", "2")
}

func TestFormatScalar(t *testing.T) {
	tests := []struct {
		in   any
		want string
		ok   bool
	}{
		{"x", "x", true},
		{"", "", true},
		{true, "true", true},
		{false, "false", true},
		{int64(-3), "-3", true},
		{int64(math.MaxInt64), "9223372036854775807", true},
		{float64(7), "7", true},
		{math.Copysign(0, -1), "0", true},
		{float64(-1 << 63), "-9223372036854775808", true},
		{float64(1 << 63), "9223372036854775808", true}, // beyond int64: as uint64
		{float64(1 << 64), "", false},
		{float64(-1 << 64), "", false},
		{0.5, "", false},
		{math.NaN(), "", false},
		{math.Inf(1), "", false},
		{math.Inf(-1), "", false},
		{float32(2), "2", true},
		{json.Number("12"), "12", true},
		{json.Number("-12"), "-12", true},
		// Unsigned integers above 2^63 keep their digits, as FormatInt of
		// the typed uint64 writes them.
		{json.Number("9223372036854775809"), "9223372036854775809", true},
		{json.Number("18446744073709550615"), "18446744073709550615", true},
		{json.Number("18446744073709551615"), "18446744073709551615", true},
		{json.Number("12.0"), "12", true},
		{json.Number("1.5"), "", false},
		{json.Number("1e400"), "", false},
		{json.Number("x"), "", false},
		{int(5), "5", true},
		{int8(-5), "-5", true},
		{int16(5), "5", true},
		{int32(5), "5", true},
		{uint(5), "5", true},
		{uint8(5), "5", true},
		{uint16(5), "5", true},
		{uint32(5), "5", true},
		{uint64(math.MaxUint64), "18446744073709551615", true},
		{nil, "", false},
		{map[string]any{}, "", false},
		{[]any{"a"}, "", false},
		{myString("x"), "", false}, // not a JSON value
		{struct{}{}, "", false},
	}
	for _, tt := range tests {
		got, ok := FormatScalar(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("FormatScalar(%#v) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

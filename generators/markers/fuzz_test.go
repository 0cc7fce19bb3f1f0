package markers

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics, and either returns a marker whose name and
// source are set (and, but for func, a valid spec of that source), or a
// marker error that starts with file:line.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"+index(name: byColor, field: spec.color)",
		`+index(name: byImage, field: "spec.containers[*].image")`,
		`+index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeName)`,
		"+index(name: byTeam, label: team)",
		`+index(name: byOwner, owner: "apps/ReplicaSet")`,
		"+index(name: x, func: `a/b.C`)",
		`+index(name: byPair, field: "spec.a,spec.b", param: "a, b")`,
		"+index(",
		"+index=1",
	} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, line string, packageLevel bool) {
		m, err := Parse(here, line, packageLevel)
		if err != nil {
			var merr *Error
			if !errors.As(err, &merr) || !strings.HasPrefix(err.Error(), "types.go:7: ") {
				t.Fatalf("Parse(%q) = %v, want a marker error with the position", line, err)
			}
			return
		}
		if !isIndexName(m.Name) || m.Source == "" || m.Value == "" || (m.For != "") != packageLevel {
			t.Fatalf("Parse(%q) accepted an incomplete marker %+v", line, m)
		}
		if m.Source != FromFunc {
			if err := m.Spec.Validate(); err != nil || string(m.Spec.Source()) != string(m.Source) {
				t.Fatalf("Parse(%q) = spec %+v of source %q (%v), want a valid %s spec", line, m.Spec, m.Spec.Source(), err, m.Source)
			}
		}
		for _, name := range ParamNames(m.Param) {
			if CheckParamName(name) != nil {
				t.Fatalf("Parse(%q) accepted the parameter name %q", line, name)
			}
		}
	})
}

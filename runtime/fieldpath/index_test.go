package fieldpath

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestParseIndexSpec(t *testing.T) {
	tests := []struct {
		in        string
		want      IndexSpec
		canonical string
	}{
		{in: "field: spec.nodeName", want: IndexSpec{Field: MustParse("spec.nodeName")}, canonical: `field: "spec.nodeName"`},
		{in: `field: "spec.containers[*].image"`, want: IndexSpec{Field: MustParse("spec.containers[*].image")}},
		{in: "field:status.phase, spec.nodeName", want: IndexSpec{Field: MustParse("status.phase,spec.nodeName")}, canonical: `field: "status.phase,spec.nodeName"`},
		{in: "  field :  `a[*],b`  ", want: IndexSpec{Field: MustParse("a[*],b")}, canonical: `field: "a[*],b"`},
		{in: "label: app.kubernetes.io/name", want: IndexSpec{Label: "app.kubernetes.io/name"}, canonical: `label: "app.kubernetes.io/name"`},
		{in: `label: "team"`, want: IndexSpec{Label: "team"}},
		{in: "annotation: Example.dev/Team", want: IndexSpec{Annotation: "Example.dev/Team"}, canonical: `annotation: "Example.dev/Team"`},
		{in: "owner: apps/ReplicaSet", want: IndexSpec{Owner: schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}}, canonical: `owner: "apps/ReplicaSet"`},
		{in: `owner: "core/ConfigMap"`, want: IndexSpec{Owner: schema.GroupKind{Kind: "ConfigMap"}}},
		{in: "owner: shop.example.dev/Shop", want: IndexSpec{Owner: schema.GroupKind{Group: "shop.example.dev", Kind: "Shop"}}, canonical: `owner: "shop.example.dev/Shop"`},
		{in: "owner: Shop", want: IndexSpec{Owner: schema.GroupKind{Kind: "Shop"}, OwnerUnqualified: true}, canonical: `owner: "Shop"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseIndexSpec(tt.in)
			if err != nil {
				t.Fatalf("ParseIndexSpec(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseIndexSpec(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
			if err := got.Validate(); err != nil {
				t.Fatalf("Validate(%q): %v", tt.in, err)
			}
			canonical := tt.canonical
			if canonical == "" {
				canonical = tt.in
			}
			if s := got.String(); s != canonical {
				t.Fatalf("String() = %q, want %q", s, canonical)
			}
			again, err := ParseIndexSpec(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("round trip of %q: %#v, %v", tt.in, again, err)
			}
		})
	}
}

func TestParseIndexSpecErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"spec.nodeName", `want "source: value"`},
		{"", `want "source: value"`},
		{"func: example.dev/x.F", `unknown source "func"`},
		{"fields: a", `unknown source "fields"`},
		{"field:", "field is empty"},
		{`field: ""`, "field is empty"},
		{`field: "a`, "not a valid quoted string"},
		{`field: "a" b`, "not a valid quoted string"},
		{"field: spec..x", "empty field name at column 6"},
		{"field: a[0]", `expected "[*]"`},
		{"field: a,a", `duplicate path "a"`},
		{"label: -bad", `label "-bad" is not a label key`},
		{"label: a/b/c", "is not a label key"},
		{"annotation: x/", "is not an annotation key"},
		{"owner: /ConfigMap", `has an empty group; the core group is written core`},
		{"owner: v1/ConfigMap", "names a version, not a group"},
		{"owner: apps/v1/Deployment", "must be Kind or group/Kind"},
		{"owner: Apps_/Deployment", "is not an API group name"},
		{"owner: apps/deployment", "is not a kind"},
		{"owner: replicaSet", "is not a kind"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			s, err := ParseIndexSpec(tt.in)
			if err == nil {
				t.Fatalf("ParseIndexSpec(%q) = %#v, want an error", tt.in, s)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "index spec ") {
				t.Fatalf("ParseIndexSpec(%q) error %q, want it to start with \"index spec \" and contain %q", tt.in, err, tt.want)
			}
		})
	}
	// A field error keeps the *SyntaxError for callers that point at the column.
	_, err := ParseIndexSpec("field: a..b")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Column != 3 {
		t.Fatalf("error %#v does not wrap the SyntaxError", err)
	}
}

// The owner forms are those the generator's markers accept, with the same
// messages.
func TestParseOwner(t *testing.T) {
	tests := []struct {
		in        string
		want      schema.GroupKind
		qualified bool
	}{
		{"Shop", schema.GroupKind{Kind: "Shop"}, false},
		{"core/Node", schema.GroupKind{Kind: "Node"}, true},
		{"apps/ReplicaSet", schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}, true},
		{"example.dev/Widget", schema.GroupKind{Group: "example.dev", Kind: "Widget"}, true},
		{"v1beta1.example.dev/Widget", schema.GroupKind{Group: "v1beta1.example.dev", Kind: "Widget"}, true},
	}
	for _, tt := range tests {
		got, qualified, err := ParseOwner(tt.in)
		if err != nil || got != tt.want || qualified != tt.qualified {
			t.Errorf("ParseOwner(%q) = %v, %v, %v; want %v, %v", tt.in, got, qualified, err, tt.want, tt.qualified)
		}
	}
	for _, in := range []string{"", "/", "a/", "/A", "v1/A", "v2beta3/A", "a/b/C", "A.B/C", "a/_C", "a/C-d"} {
		if got, _, err := ParseOwner(in); err == nil {
			t.Errorf("ParseOwner(%q) = %v, want an error", in, got)
		}
	}
}

func TestIndexSpecValidate(t *testing.T) {
	valid := []IndexSpec{
		{Field: Key{{{Name: "spec"}, {Name: "containers", Each: true}, {Name: "image"}}}},
		{Label: "app"},
		{Annotation: "example.dev/Team"},
		{Owner: schema.GroupKind{Kind: "ConfigMap"}}, // the core group
		{Owner: schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}},
		{Owner: schema.GroupKind{Kind: "Shop"}, OwnerUnqualified: true},
	}
	for _, s := range valid {
		if err := s.Validate(); err != nil {
			t.Errorf("Validate(%#v): %v", s, err)
		}
	}
	invalid := []struct {
		spec IndexSpec
		want string
	}{
		{IndexSpec{}, "declares no source"},
		{IndexSpec{Label: "a", Annotation: "b"}, "declares label and annotation"},
		{IndexSpec{Field: MustParse("a"), Owner: schema.GroupKind{Kind: "A"}}, "declares field and owner"},
		{IndexSpec{Field: Key{{}}}, "empty path"},
		{IndexSpec{Field: Key{{{Name: "a.b"}}}}, "holds a separator"},
		{IndexSpec{Field: Key{{{Name: "a,b"}}}}, "holds a separator"},
		{IndexSpec{Field: Key{{{Name: "a[*]"}}}}, "holds a separator"},
		{IndexSpec{Field: Key{{{Name: "a b"}}}}, "unexpected character"},
		{IndexSpec{Field: Key{{{Name: "a"}}, {{Name: "a"}}}}, "duplicate path"},
		{IndexSpec{Label: "a b"}, "is not a label key"},
		{IndexSpec{Annotation: "/x"}, "is not an annotation key"},
		{IndexSpec{Owner: schema.GroupKind{Group: "apps", Kind: "replicaSet"}}, "is not a kind"},
		{IndexSpec{Owner: schema.GroupKind{Group: "v1", Kind: "Pod"}}, "names a version"},
		{IndexSpec{Owner: schema.GroupKind{Group: "apps"}}, "is not a kind"},
		{IndexSpec{Owner: schema.GroupKind{Group: "apps", Kind: "A"}, OwnerUnqualified: true}, "OwnerUnqualified"},
		{IndexSpec{Label: "a", OwnerUnqualified: true}, "OwnerUnqualified"},
		{IndexSpec{Owner: schema.GroupKind{Kind: "shop"}, OwnerUnqualified: true}, "is not a kind"},
	}
	for _, tt := range invalid {
		err := tt.spec.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%#v) = %v, want an error containing %q", tt.spec, err, tt.want)
		}
	}
}

func TestIndexSpecSourceAndArity(t *testing.T) {
	tests := []struct {
		spec   IndexSpec
		source IndexSource
		arity  int
	}{
		{IndexSpec{Field: MustParse("a,b[*].c,d")}, IndexByField, 3},
		{IndexSpec{Field: MustParse("a[*]")}, IndexByField, 1},
		{IndexSpec{Label: "a"}, IndexByLabel, 1},
		{IndexSpec{Annotation: "a"}, IndexByAnnotation, 1},
		{IndexSpec{Owner: schema.GroupKind{Kind: "A"}}, IndexByOwner, 1},
		{IndexSpec{}, "", 1},
	}
	for _, tt := range tests {
		if s, a := tt.spec.Source(), tt.spec.Arity(); s != tt.source || a != tt.arity {
			t.Errorf("%#v: Source() = %q, Arity() = %d; want %q, %d", tt.spec, s, a, tt.source, tt.arity)
		}
	}
	if s := (IndexSpec{}).String(); s != "<no source>" {
		t.Errorf("String() of the zero spec = %q", s)
	}
}

func FuzzParseIndexSpec(f *testing.F) {
	for _, s := range []string{
		"field: spec.nodeName", `field: "a[*].b, c"`, "label: app", "annotation: x/y", "owner: apps/ReplicaSet",
		"owner: core/ConfigMap", "owner: Shop", "owner: /A", "field: `x`", `label: "\x00"`, "a:b:c", ":", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseIndexSpec(in)
		if err != nil {
			if !reflect.DeepEqual(s, IndexSpec{}) {
				t.Fatalf("ParseIndexSpec(%q) returned %#v with an error", in, s)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseIndexSpec(%q) = %#v, which Validate rejects: %v", in, s, err)
		}
		again, err := ParseIndexSpec(s.String())
		if err != nil || !reflect.DeepEqual(again, s) {
			t.Fatalf("round trip of %q through %q: %#v, %v", in, s.String(), again, err)
		}
	})
}

package fieldpath

import (
	"errors"
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in        string
		want      Key
		canonical string // "" means in
		multi     bool
	}{
		{in: "spec", want: Key{{{Name: "spec"}}}},
		{in: "spec.nodeName", want: Key{{{Name: "spec"}, {Name: "nodeName"}}}},
		{in: "metadata.name", want: Key{{{Name: "metadata"}, {Name: "name"}}}},
		{in: "_a.B-c_9.x-", want: Key{{{Name: "_a"}, {Name: "B-c_9"}, {Name: "x-"}}}},
		{
			in:    "spec.containers[*].image",
			want:  Key{{{Name: "spec"}, {Name: "containers", Each: true}, {Name: "image"}}},
			multi: true,
		},
		{
			in:    "spec.containers[*].ports[*].name",
			want:  Key{{{Name: "spec"}, {Name: "containers", Each: true}, {Name: "ports", Each: true}, {Name: "name"}}},
			multi: true,
		},
		{in: "metadata.finalizers[*]", want: Key{{{Name: "metadata"}, {Name: "finalizers", Each: true}}}, multi: true},
		{
			in:   "status.phase,spec.nodeName",
			want: Key{{{Name: "status"}, {Name: "phase"}}, {{Name: "spec"}, {Name: "nodeName"}}},
		},
		{
			in:        "status.phase, spec.nodeName",
			want:      Key{{{Name: "status"}, {Name: "phase"}}, {{Name: "spec"}, {Name: "nodeName"}}},
			canonical: "status.phase,spec.nodeName",
		},
		{
			in:        "a,   b[*],c",
			want:      Key{{{Name: "a"}}, {{Name: "b", Each: true}}, {{Name: "c"}}},
			canonical: "a,b[*],c",
			multi:     true,
		},
		// Different paths, even if one is a prefix of the other.
		{in: "a,a.b,a[*]", want: Key{{{Name: "a"}}, {{Name: "a"}, {Name: "b"}}, {{Name: "a", Each: true}}}, multi: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			k, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(k, tt.want) {
				t.Fatalf("Parse(%q) = %#v, want %#v", tt.in, k, tt.want)
			}
			canonical := tt.canonical
			if canonical == "" {
				canonical = tt.in
			}
			if got := k.String(); got != canonical {
				t.Errorf("String() = %q, want %q", got, canonical)
			}
			if got := k.MultiValued(); got != tt.multi {
				t.Errorf("MultiValued() = %v, want %v", got, tt.multi)
			}
			k2, err := Parse(k.String())
			if err != nil || !reflect.DeepEqual(k2, k) {
				t.Errorf("Parse(String()) = %#v, %v; want %#v", k2, err, k)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"", `fieldpath: "": empty path at column 1`},
		{"spec..x", `fieldpath: "spec..x": empty field name at column 6`},
		{".spec", `fieldpath: ".spec": empty field name at column 1`},
		{"spec.", `fieldpath: "spec.": empty field name at column 6`},
		{"spec.,a", `fieldpath: "spec.,a": empty field name at column 6`},
		{"[*]", `fieldpath: "[*]": empty field name at column 1`},
		{"spec.[*]", `fieldpath: "spec.[*]": empty field name at column 6`},
		{"a,", `fieldpath: "a,": empty path at column 3`},
		{"a, ", `fieldpath: "a, ": empty path at column 4`},
		{"a,,b", `fieldpath: "a,,b": empty path at column 3`},
		{",a", `fieldpath: ",a": empty path at column 1`},
		{"spec.containers[0].image", `fieldpath: "spec.containers[0].image": expected "[*]" at column 16`},
		{"spec.containers[", `fieldpath: "spec.containers[": expected "[*]" at column 16`},
		{"spec.containers[*", `fieldpath: "spec.containers[*": expected "[*]" at column 16`},
		{"spec.containers[]", `fieldpath: "spec.containers[]": expected "[*]" at column 16`},
		{"a[*][*]", `fieldpath: "a[*][*]": unexpected character '[' at column 5`},
		{"a[*]b", `fieldpath: "a[*]b": unexpected character 'b' at column 5`},
		{"spec.na me", `fieldpath: "spec.na me": unexpected character ' ' at column 8`},
		{"a ,b", `fieldpath: "a ,b": unexpected character ' ' at column 2`},
		{"a,b ", `fieldpath: "a,b ": unexpected character ' ' at column 4`},
		{" a", `fieldpath: " a": invalid character ' ' at start of field name at column 1`},
		{"a,\tb", `fieldpath: "a,\tb": invalid character '\t' at start of field name at column 3`},
		{"spec.0x", `fieldpath: "spec.0x": invalid character '0' at start of field name at column 6`},
		{"-a", `fieldpath: "-a": invalid character '-' at start of field name at column 1`},
		{"a.b/c", `fieldpath: "a.b/c": unexpected character '/' at column 4`},
		{"a.é", `fieldpath: "a.é": invalid character 'é' at start of field name at column 3`},
		{"aé", `fieldpath: "aé": unexpected character 'é' at column 2`},
		{"a\xff", `fieldpath: "a\xff": unexpected character '�' at column 2`},
		{"a.b,a.b", `fieldpath: "a.b,a.b": duplicate path "a.b" at column 5`},
		{"x, a[*].b, a[*].b", `fieldpath: "x, a[*].b, a[*].b": duplicate path "a[*].b" at column 12`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			k, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want error %s", tt.in, k, tt.want)
			}
			if k != nil {
				t.Errorf("Parse(%q) returned key %v with error", tt.in, k)
			}
			if err.Error() != tt.want {
				t.Errorf("Parse(%q) error\n got: %s\nwant: %s", tt.in, err, tt.want)
			}
			var se *SyntaxError
			if !errors.As(err, &se) || se.Input != tt.in || se.Column < 1 || se.Column > len(tt.in)+1 {
				t.Errorf("error %#v is not a *SyntaxError for the input with a column in range", err)
			}
		})
	}
}

func TestMustParse(t *testing.T) {
	if got := MustParse("a.b").String(); got != "a.b" {
		t.Errorf("MustParse(a.b) = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustParse(a..b) did not panic")
		}
	}()
	MustParse("a..b")
}

func TestPathString(t *testing.T) {
	p := Path{{Name: "spec"}, {Name: "containers", Each: true}, {Name: "image"}}
	if got := p.String(); got != "spec.containers[*].image" {
		t.Errorf("String() = %q", got)
	}
	if !p.MultiValued() {
		t.Error("MultiValued() = false")
	}
	if (Path{{Name: "a"}}).MultiValued() {
		t.Error("MultiValued() = true for a")
	}
	if got := (Path(nil)).String(); got != "" {
		t.Errorf("nil String() = %q", got)
	}
}

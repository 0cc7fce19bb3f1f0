// Package apis_test checks the +index markers of the example API packages
// against the rules of the design (docs: /DESIGN.md, "The +index marker"),
// independently of the generator: every marker parses with gengo's
// codetags, names exactly one key source, resolves against the real Go
// types, and together the markers use every form the generator supports.
// The examples are the generator's test input, so they must stay valid and
// complete.
package apis_test

import (
	"cmp"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	kubescheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/gengo/v2/codetags"

	fleetv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/fleet/v1"
	fleetv2beta1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/fleet/v2beta1"
	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	shopv1alpha1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1alpha1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/indexing"
)

const module = "github.com/informer-gen-plus/informer-gen-plus"

// apiPackages maps the directories (relative to this one) of the API
// version packages to their scheme registration.
var apiPackages = map[string]func(*runtime.Scheme) error{
	"shop/v1":       shopv1.AddToScheme,
	"shop/v1alpha1": shopv1alpha1.AddToScheme,
	"fleet/v1":      fleetv1.AddToScheme,
	"fleet/v2beta1": fleetv2beta1.AddToScheme,
	"kubeindexes":   nil, // package-level markers only
}

// indexFuncs are the functions +index(func: ...) markers may name.
var indexFuncs = map[string]any{
	module + "/examples/indexing.ZoneOf": indexing.ZoneOf,
}

// builtinTypes are the types +index(for: ...) markers may name.
var builtinTypes = func() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	for gvk, t := range kubescheme.Scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal {
			continue
		}
		m[t.PkgPath()+"."+t.Name()] = t
	}
	return m
}()

// marker is one parsed +index marker and where it is.
type marker struct {
	pos  string       // file:line
	typ  reflect.Type // the indexed type (a struct)
	kind string       // the indexed kind, for uniqueness
	tag  codetags.Tag
	pkg  bool // declared at package level (with for:)
}

var (
	indexNameRE = regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)
	kindRE      = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	funcRefRE   = regexp.MustCompile(`^[a-z0-9.\-/_]+\.[A-Z][A-Za-z0-9_]*$`)
)

// typeComments returns, per type declared in f, the comment blocks gengo
// reads markers from: the doc comment and the block that ends one blank
// line before it (gengo's CommentLines and SecondClosestCommentLines).
func typeComments(fset *token.FileSet, f *ast.File) map[string][]*ast.CommentGroup {
	out := map[string][]*ast.CommentGroup{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			if doc == nil {
				continue
			}
			groups := []*ast.CommentGroup{doc}
			docLine := fset.Position(doc.Pos()).Line
			for _, cg := range f.Comments {
				if fset.Position(cg.End()).Line == docLine-2 {
					groups = append(groups, cg)
				}
			}
			out[ts.Name.Name] = groups
		}
	}
	return out
}

// commentLines returns the lines of a comment block without "//".
func commentLines(cg *ast.CommentGroup) []string {
	var out []string
	for _, c := range cg.List {
		out = append(out, strings.TrimSpace(strings.TrimPrefix(c.Text, "//")))
	}
	return out
}

// collect parses the Go files of dir and returns their +index markers:
// those of the package doc comment and those of each type's comments.
func collect(t *testing.T, dir string, types map[string]reflect.Type) []marker {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []marker
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		path := filepath.Join(dir, name)
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		parse := func(cg *ast.CommentGroup, typ reflect.Type, kind string, pkg bool) {
			for i, line := range commentLines(cg) {
				if !strings.HasPrefix(line, "+index") {
					continue
				}
				pos := fset.Position(cg.List[i].Pos()).String()
				if got := codetags.Extract("+", []string{line}); len(got["index"]) != 1 {
					t.Errorf("%s: %q is not an index tag to codetags.Extract (got %v)", pos, line, got)
					continue
				}
				tag, err := codetags.Parse(strings.TrimPrefix(line, "+"))
				if err != nil {
					t.Errorf("%s: %q does not parse: %v", pos, line, err)
					continue
				}
				out = append(out, marker{pos: pos, typ: typ, kind: kind, tag: tag, pkg: pkg})
			}
		}
		if f.Doc != nil {
			parse(f.Doc, nil, "", true)
		}
		for typeName, groups := range typeComments(fset, f) {
			for _, cg := range groups {
				parse(cg, types[typeName], typeName, false)
			}
		}
	}
	return out
}

// selectablePaths returns the JSONPaths (without their leading dot) of the
// +kubebuilder:selectablefield markers of each type of the Go files of dir.
func selectablePaths(t *testing.T, dir string) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for typeName, groups := range typeComments(fset, f) {
			for _, cg := range groups {
				for _, line := range commentLines(cg) {
					if v, ok := strings.CutPrefix(line, "+kubebuilder:selectablefield:JSONPath="); ok {
						out[typeName] = append(out[typeName], strings.TrimPrefix(strings.Trim(v, "\"`"), "."))
					}
				}
			}
		}
	}
	return out
}

// resolve follows a JSON path through t as the design describes, returning
// the leaf type and whether it went through a pointer, an embedded struct
// or a slice ([*]).
type resolved struct {
	leaf                     reflect.Type
	leafPtr, viaPtr, viaEmbd bool
	multi                    bool
}

func resolve(t reflect.Type, path string) (resolved, string) {
	var r resolved
	cur := t
	segs := strings.Split(path, ".")
	for i, seg := range segs {
		all := strings.HasSuffix(seg, "[*]")
		seg = strings.TrimSuffix(seg, "[*]")
		if cur.Kind() == reflect.Pointer {
			cur = cur.Elem()
			r.viaPtr = true
		}
		if cur.Kind() != reflect.Struct {
			return r, "segment " + seg + " of " + path + " is not in a struct (" + cur.String() + ")"
		}
		ft, embedded, ok := jsonField(cur, seg)
		if !ok {
			return r, "no field with JSON name " + seg + " in " + cur.String()
		}
		r.viaEmbd = r.viaEmbd || embedded
		cur = ft
		if all {
			if cur.Kind() != reflect.Slice {
				return r, seg + "[*] is not a slice"
			}
			cur = cur.Elem()
			r.multi = true
		}
		if i == len(segs)-1 {
			if cur.Kind() == reflect.Pointer {
				cur = cur.Elem()
				r.leafPtr = true
			}
			switch cur.Kind() {
			case reflect.String, reflect.Bool,
				reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
				r.leaf = cur
			default:
				return r, "leaf of " + path + " is " + cur.String() + ", not a string, bool or integer"
			}
		}
	}
	return r, ""
}

// jsonField finds the field of struct t whose JSON name is name, looking
// through embedded (inlined) structs; embedded reports that it did.
func jsonField(t reflect.Type, name string) (reflect.Type, bool, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		jsonName, opts, _ := strings.Cut(tag, ",")
		if jsonName == "-" {
			continue
		}
		if f.Anonymous && jsonName == "" && (opts == "inline" || tag == "" || strings.Contains(opts, "inline")) {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if got, _, ok := jsonField(ft, name); ok {
					return got, true, true
				}
			}
			continue
		}
		if jsonName == "" {
			jsonName = f.Name
		}
		if jsonName == name {
			return f.Type, false, true
		}
	}
	return nil, false, false
}

func TestIndexMarkers(t *testing.T) {
	knownKinds := map[string]bool{}
	for _, gvk := range kubeKinds() {
		knownKinds[gvk] = true
	}
	// knownGroupKinds are the kinds as a qualified owner names them,
	// group/Kind (core/Kind for the core group).
	knownGroupKinds := map[string]bool{}
	for gvk := range kubescheme.Scheme.AllKnownTypes() {
		knownGroupKinds[cmp.Or(gvk.Group, "core")+"/"+gvk.Kind] = true
	}

	var all []marker
	selectable := map[string][]string{} // dir/kind -> JSONPaths without the dot
	dirs := make([]string, 0, len(apiPackages))
	for d := range apiPackages {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		add := apiPackages[dir]
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		types := map[string]reflect.Type{}
		if add != nil {
			s := runtime.NewScheme()
			if err := add(s); err != nil {
				t.Fatalf("%s: AddToScheme: %v", dir, err)
			}
			for gvk, rt := range s.AllKnownTypes() {
				if gvk.Group != "" {
					types[gvk.Kind] = rt
					knownKinds[gvk.Kind] = true
					knownGroupKinds[gvk.Group+"/"+gvk.Kind] = true
				}
			}
		}
		all = append(all, collect(t, dir, types)...)
		for kind, paths := range selectablePaths(t, dir) {
			selectable[dir+"/"+kind] = paths
		}
	}
	// Every version directory is listed above, so that none is skipped.
	found, _ := filepath.Glob("*/v*")
	for _, d := range found {
		if _, ok := apiPackages[d]; !ok {
			t.Errorf("API package %s is not checked by this test: add it to apiPackages", d)
		}
	}

	forms := map[string]bool{}
	names := map[string]string{} // kind/name -> position
	for _, m := range all {
		args := map[string]codetags.Arg{}
		for _, a := range m.tag.Args {
			if a.Name == "" {
				t.Errorf("%s: positional argument %q: +index takes named arguments", m.pos, a.Value)
				continue
			}
			if _, dup := args[a.Name]; dup {
				t.Errorf("%s: argument %s given twice", m.pos, a.Name)
			}
			args[a.Name] = a
		}
		if m.tag.ValueType != codetags.ValueTypeNone {
			t.Errorf("%s: +index takes no value (=%s)", m.pos, m.tag.Value)
		}

		typ, kind := m.typ, m.kind
		if m.pkg {
			forArg, ok := args["for"]
			if !ok {
				t.Errorf("%s: a package-level +index needs for:", m.pos)
				continue
			}
			typ = builtinTypes[forArg.Value]
			if typ == nil {
				t.Errorf("%s: for: %q is not a known built-in type", m.pos, forArg.Value)
				continue
			}
			kind = forArg.Value
			forms["for"] = true
		} else {
			if _, ok := args["for"]; ok {
				t.Errorf("%s: for: is for package-level markers only", m.pos)
			}
			if typ == nil {
				t.Errorf("%s: +index on %q, which is not a registered kind", m.pos, kind)
				continue
			}
		}

		name, ok := args["name"]
		switch {
		case !ok:
			t.Errorf("%s: missing name:", m.pos)
		case !indexNameRE.MatchString(name.Value):
			t.Errorf("%s: name %q is not a lowerCamel identifier", m.pos, name.Value)
		default:
			key := filepath.Dir(m.pos) + "/" + kind + "/" + name.Value
			if prev, dup := names[key]; dup {
				t.Errorf("%s: index %s of %s already declared at %s", m.pos, name.Value, kind, prev)
			}
			names[key] = m.pos
		}

		var sources []string
		for _, s := range []string{"field", "label", "annotation", "owner", "func", "selectableField"} {
			if _, ok := args[s]; ok {
				sources = append(sources, s)
			}
		}
		for a := range args {
			if !slices.Contains([]string{"name", "for", "field", "label", "annotation", "owner", "func", "selectableField", "param", "ref"}, a) {
				t.Errorf("%s: unknown argument %s", m.pos, a)
			}
		}
		if len(sources) != 1 {
			t.Errorf("%s: want exactly one of field, label, annotation, owner, func, selectableField; got %v", m.pos, sources)
			continue
		}
		v := args[sources[0]].Value
		switch sources[0] {
		case "field":
			paths := strings.Split(v, ",")
			if len(paths) > 1 {
				forms["composite"] = true
			}
			for _, p := range paths {
				r, problem := resolve(typ, strings.TrimSpace(p))
				if problem != "" {
					t.Errorf("%s: field %q: %s", m.pos, p, problem)
					continue
				}
				forms["field"] = true
				if r.multi {
					forms["field [*]"] = true
				}
				if r.leafPtr {
					forms["pointer leaf"] = true
				}
				if r.viaPtr {
					forms["through a pointer"] = true
				}
				if r.viaEmbd {
					forms["through an embedded struct"] = true
				}
				switch k := r.leaf.Kind(); {
				case k == reflect.Bool:
					forms["bool leaf"] = true
				case k != reflect.String:
					forms["integer leaf"] = true
				case r.leaf.PkgPath() != "":
					forms["named string leaf"] = true
				}
			}
		case "label", "annotation":
			if errs := validation.IsQualifiedName(v); len(errs) > 0 {
				t.Errorf("%s: %s key %q: %v", m.pos, sources[0], v, errs)
			}
			forms[sources[0]] = true
		case "owner":
			if _, kind, qualified := strings.Cut(v, "/"); qualified {
				if !kindRE.MatchString(kind) || !knownGroupKinds[v] {
					t.Errorf("%s: owner %q is not a known group/Kind", m.pos, v)
				}
			} else if !kindRE.MatchString(v) || !knownKinds[v] {
				t.Errorf("%s: owner %q is not a known kind", m.pos, v)
			}
			forms["owner"] = true
		case "func":
			if !funcRefRE.MatchString(v) {
				t.Errorf("%s: func %q is not an import/path.Func reference", m.pos, v)
				continue
			}
			fn, ok := indexFuncs[v]
			if !ok {
				t.Errorf("%s: func %q is not in indexFuncs", m.pos, v)
				continue
			}
			want := reflect.FuncOf([]reflect.Type{reflect.PointerTo(typ)}, []reflect.Type{reflect.TypeFor[[]string]()}, false)
			if got := reflect.TypeOf(fn); got != want {
				t.Errorf("%s: func %s is %v, want %v", m.pos, v, got, want)
			}
			forms["func"] = true
		case "selectableField":
			path := strings.TrimPrefix(v, ".")
			if !slices.Contains(selectable[filepath.Dir(m.pos)+"/"+kind], path) {
				t.Errorf("%s: selectableField %q is not a +kubebuilder:selectablefield of %s", m.pos, v, kind)
				continue
			}
			if r, problem := resolve(typ, path); problem != "" || r.multi {
				t.Errorf("%s: selectableField %q: %s (multi-valued: %v)", m.pos, v, problem, r.multi)
				continue
			}
			forms["selectableField"] = true
		}
	}

	for _, f := range []string{
		"field", "field [*]", "composite", "label", "annotation", "owner", "func", "selectableField", "for",
		"pointer leaf", "through a pointer", "through an embedded struct",
		"bool leaf", "integer leaf", "named string leaf",
	} {
		if !forms[f] {
			t.Errorf("no example marker uses the form %q", f)
		}
	}
	if t.Failed() {
		return
	}
	t.Logf("%d +index markers checked", len(all))
}

// kubeKinds returns the kinds of the built-in API.
func kubeKinds() []string {
	var out []string
	for gvk := range kubescheme.Scheme.AllKnownTypes() {
		out = append(out, gvk.Kind)
	}
	return out
}

// TestOptOutMarkers pins the kinds that exercise the generators' opt-outs,
// so that an edit of the examples does not silently drop one.
func TestOptOutMarkers(t *testing.T) {
	for _, tc := range []struct{ file, kind, marker string }{
		{"fleet/v1/types.go", "Trip", "+genclient:skipVerbs=watch"},
		{"fleet/v1/types.go", "Route", "+k8s:lister-gen=false"},
		{"fleet/v2beta1/types.go", "Beacon", "+genclient:noVerbs"},
		{"shop/v1/types.go", "Shop", "+genclient:nonNamespaced"},
		{"fleet/v1/types.go", "Depot", "+genclient:nonNamespaced"},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, tc.file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		groups, ok := typeComments(fset, f)[tc.kind]
		if !ok {
			t.Errorf("%s: no documented type %s", tc.file, tc.kind)
			continue
		}
		found := false
		for _, cg := range groups {
			found = found || slices.Contains(commentLines(cg), tc.marker)
		}
		if !found {
			t.Errorf("%s: %s lost its %s marker", tc.file, tc.kind, tc.marker)
		}
	}
}

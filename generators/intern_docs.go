package generators

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/gengo/v2/types"

	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
)

// internDocs is the section of the reference on the +intern field marker:
// its values, from markers.InternValues, the fields left alone without it,
// from the generator's tables, and the walker the generator writes for an
// example struct.
func internDocs() (string, error) {
	var b strings.Builder
	b.WriteString(internIntro)
	b.WriteString("\n| value | |\n| --- | --- |\n")
	for _, v := range markers.InternValues {
		fmt.Fprintf(&b, "| `%s=%s` | %s |\n", markers.InternMarker, v.Value, escapeCell(v.Doc))
	}
	b.WriteString("\n" + wrapText("Without the marker, these fields are left alone, as unique to each object: "+
		"timestamps (`metav1.Time`, `metav1.MicroTime`); fields named `ContainerID` or `Hostname`, "+
		"or whose name ends in `IP` or `IPs`, except "+codeList(slices.Sorted(maps.Keys(repeatingFields)))+"; and "+
		codeList(slices.Sorted(maps.Keys(uniqueFields)))+". "+
		"These are interned, but make the structs holding them walked rather than shared whole, "+
		"since they differ between otherwise equal parts of different objects (every pod mounts its "+
		"service-account token volume under a name of its own): "+
		codeList(slices.Sorted(maps.Keys(varyingFields)))+".", 78))
	code, err := internDocExample()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "\nOn the fields of a type:\n\n```go\n%s```\n\ngenerates, for a kind holding parts:\n\n```go\n%s\n```\n", internDocPart, code)
	return b.String(), nil
}

// codeList formats qualified field names as code, the package path
// replaced by its usual import name: `metav1.ObjectMeta.Name`.
func codeList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		for pkg, alias := range map[string]string{metaPkg: "metav1", coreV1Pkg: "corev1"} {
			if rest, ok := strings.CutPrefix(n, pkg+"."); ok {
				n = alias + "." + rest
			}
		}
		out[i] = "`" + n + "`"
	}
	return joinWords(out)
}

// wrapText breaks text into lines of at most width bytes, between words,
// each ending in a newline.
func wrapText(text string, width int) string {
	var b strings.Builder
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}

const internIntro = `
## Field marker ` + "`+intern`" + `

With ` + "`--with-interning`" + `, informer-gen-plus writes, in each lister package,
` + "`Intern<Kind>`" + ` and ` + "`Intern<Kind>Update`" + ` for every kind with a lister
(` + "`<kind>_intern.go`" + `) and ` + "`InternTransform`" + ` (` + "`intern_generated.go`" + `, with
the functions several kinds use), a client-go transform; and, in the
informer factory's package, ` + "`Intern`" + `, which the factory's informers call on
every object they list or watch (` + "`WithoutInterning`" + ` turns it off;
` + "`--intern-kinds core/Pod,apps/*`" + ` limits all of it to some kinds). It
replaces, in each object before it enters the cache, what objects repeat
with one canonical copy (package ` + "`runtime/intern`" + `): strings are interned;
structs that hold nothing unique to an object, however deep, are shared
whole, behind a pointer or as a slice, and so are maps of strings and
resource lists; the other structs are walked, field by field, and their
slices clipped. ` + "`Intern<Kind>Update`" + ` does the same for a new version of a
cached object, first giving it the cached version's values of the parts
that are equal in both, without looking them up. Every object stays
` + "`reflect.DeepEqual`" + ` to what it was. A marker on a field's doc comment
overrides what the generator decides from the field's name and Go type:
`

// internDocPart is the example struct of the +intern section.
const internDocPart = `type Part struct {
	Name string ` + "`json:\"name\"`" + `
	// +intern=false
	Serial string ` + "`json:\"serial,omitempty\"`" + `
	// +intern=true
	SupplierIP string ` + "`json:\"supplierIP,omitempty\"`" + `
	VendorIP   string ` + "`json:\"vendorIP,omitempty\"`" + `
}
`

// internDocExample is the walker the generator writes for internDocPart.
func internDocExample() (string, error) {
	str := types.String
	part := &types.Type{
		Name: types.Name{Package: docShopPkg, Name: "Part"},
		Kind: types.Struct,
		Members: []types.Member{
			{Name: "Name", Type: str},
			{Name: "Serial", Type: str, CommentLines: []string{markers.InternMarker + "=false"}},
			{Name: "SupplierIP", Type: str, CommentLines: []string{markers.InternMarker + "=true"}},
			{Name: "VendorIP", Type: str},
		},
	}
	pkg := docOutputPkg + "/listers/shop/v1"
	g := newInternGen(pkg, nil)
	e := &emitter{g: g, raw: newPlanNamer(pkg)}
	name := e.walker(part)
	if err := errorsOf(g); err != nil {
		return "", err
	}
	return g.decls[name].code(&emitter{g: g, raw: newPlanNamer(pkg)}), nil
}

// errorsOf returns the first error the planning of g met.
func errorsOf(g *internGen) error {
	if len(g.errs) > 0 {
		return g.errs[0]
	}
	return nil
}

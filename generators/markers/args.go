package markers

import (
	"fmt"
	"go/token"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// Arg is one argument of an +index marker. Parse reads markers with these
// definitions, informer-gen-plus --help lists their summaries and
// informer-gen-plus --docs prints them in full: the grammar and its
// documentation are the same data.
type Arg struct {
	// Name is the argument's name, written before the colon.
	Name string
	// Syntax is the form of the argument's value, for the documentation.
	Syntax string
	// Summary is a one-line description, for --help.
	Summary string
	// Doc is the full description, Markdown.
	Doc string
	// Examples are markers that use the argument, each valid on a type's
	// doc comment, or on a package comment when the argument is
	// PackageOnly.
	Examples []string
	// Source says the argument is a source of index values: a marker has
	// exactly one source.
	Source bool
	// Required says every marker has the argument.
	Required bool
	// PackageOnly says the argument is required on a package comment and
	// not allowed on a type's doc comment.
	PackageOnly bool

	// check validates the argument's value; its error is the reason,
	// without the marker's position. The values of the field, label,
	// annotation and owner sources are not checked here: Parse reads them
	// with fieldpath.NewIndexSpec, the grammar of the run-time indexes too.
	check func(value string) error
	// set records the value in the marker.
	set func(m *Marker, value string)
}

// Args are the arguments a marker may have, in the order the
// documentation lists them.
var Args = []Arg{
	{
		Name:     "name",
		Syntax:   "a Go identifier starting with a lower-case letter, such as byColor",
		Summary:  "index name; byColor gives the lookups ByColor and EachByColor; unique per type",
		Required: true,
		Doc: "The name of the index, unique per type: a Go identifier starting with a lower-case letter. " +
			"It is the index's name in the indexer (the value of the generated `<Kind><Name>Index` constant), " +
			"and its exported form names the lookups: `byColor` gives `ByColor`, which returns a slice, and " +
			"`EachByColor`, which returns an iterator, on the lister and on the namespace lister of a namespaced kind.",
		Examples: []string{"+index(name: byColor, field: spec.color)"},
		check: func(v string) error {
			if !isIndexName(v) {
				return fmt.Errorf("name %q must be a Go identifier starting with a lower-case letter, such as byColor", v)
			}
			return nil
		},
		set: func(m *Marker, v string) { m.Name = v },
	},
	{
		Name:    "field",
		Syntax:  `a JSON field path, such as spec.color, or several, comma-separated, for a composite key ("status.phase,spec.color")`,
		Summary: "JSON path (json tags, inline structs, pointers); [*] indexes every element of a list; the leaf is a string, bool or integer, or a pointer to one (nil, or a zero value that omitempty or omitzero omits from the JSON, gives no value), and the lookups take its Go type; comma-separated paths make a composite key, looked up with one argument per path",
		Source:  true,
		Doc: "Indexes the value of a field, written as its JSON path (json tag names, inlined embedded structs add no segment). " +
			"`[*]` after a list indexes every element. The leaf must be a string, a bool or an integer, or a named type of one (an enum), " +
			"or a pointer to one of those: a nil pointer anywhere on the path gives no value, so lookups never find such an object. " +
			"Values are those of the object's JSON form, so a field that encoding/json omits gives no value either: " +
			"a leaf whose json tag has `omitempty` or `omitzero` gives none when it is zero (`BySize(0)` finds nothing when `spec.size` is `omitempty`), " +
			"while a zero leaf without them (a string `\"\"`) is a value; a path through an `omitzero` struct must give no value when the struct is zero (a pointer, a list or an omitted leaf under it). " +
			"Several comma-separated paths make a composite key, whose lookups take one argument per path. " +
			"A lookup's parameters have the leaf's Go type (a pointer leaf's element type) and are encoded exactly as the index function encodes the field, " +
			"so `BySize(3)` finds the objects whose `spec.size` is 3. Parameters are named after the last field of their path; `param` names them otherwise.",
		Examples: []string{
			"+index(name: bySize, field: spec.size)",
			"+index(name: byNickname, field: spec.nickname)",
			`+index(name: byImage, field: "spec.containers[*].image")`,
			`+index(name: byPhaseColor, field: "status.phase,spec.color")`,
		},
		set: func(m *Marker, v string) { m.Source, m.Value = FromField, v },
	},
	{
		Name:    "label",
		Syntax:  `a label key, such as team or "app.kubernetes.io/name" (an optional DNS subdomain prefix and a slash, then a name of at most 63 characters)`,
		Summary: "the value of that label (absent: no value)",
		Source:  true,
		Doc: "Indexes the value of a label; an object without the label is not indexed. " +
			"The key must be a valid Kubernetes label key (a qualified name: an optional DNS subdomain prefix and a slash, " +
			"then a name of at most 63 characters of letters, digits, `-`, `_` and `.` that starts and ends with a letter or digit). " +
			"The lookup's parameter is a string named after the label key's name " +
			"(`app.kubernetes.io/name` gives `name`, `example.dev/owner-team` gives `ownerTeam`). " +
			"A label index also narrows `List` with a label selector that requires one value of the label.",
		Examples: []string{`+index(name: byTeam, label: "example.dev/team")`},
		set:      func(m *Marker, v string) { m.Source, m.Value = FromLabel, v },
	},
	{
		Name:     "annotation",
		Syntax:   `an annotation key, such as "example.dev/owner-team" (the form of a label key, in any case)`,
		Summary:  "the value of that annotation (absent: no value)",
		Source:   true,
		Doc:      "Indexes the value of an annotation; an object without the annotation is not indexed. The key must be a valid Kubernetes annotation key: the form of a label key, in any case. The lookup's parameter is a string named after the annotation key's name, as for `label`.",
		Examples: []string{`+index(name: byOwnerTeam, annotation: "example.dev/owner-team")`},
		set:      func(m *Marker, v string) { m.Source, m.Value = FromAnnotation, v },
	},
	{
		Name:    "owner",
		Syntax:  `a kind, such as Shop, or a group and a kind, such as "apps/ReplicaSet" ("core/Node" for the core group)`,
		Summary: "the name of the controlling owner reference of that kind and API group, in any version of the group; group/Kind names the group (core/Kind for the core group), a Kind alone takes the group of the input package defining it (an error when none or several groups of the inputs do)",
		Source:  true,
		Doc: "Indexes the name of the object's controlling owner (the owner reference with `controller: true`) when that owner is of this kind and API group, in any version of the group, " +
			"as the runtime's controllers match owners (`cache.ControllerOf`, `WatchOwned`). " +
			"`group/Kind` names the group (`core/Node` for the core group); a kind alone takes the group of the input package that defines it, " +
			"and is an error when no input package or input packages of several groups do. The lookup's parameter is a string named after the kind (`Shop` gives `shop`).",
		Examples: []string{
			"+index(name: byShop, owner: Shop)",
			`+index(name: byReplicaSet, owner: "apps/ReplicaSet")`,
		},
		set: func(m *Marker, v string) { m.Source, m.Value = FromOwner, v },
	},
	{
		Name:    "func",
		Syntax:  `a fully qualified function, such as "example.dev/shop/indexing.ZoneOf"`,
		Summary: "a function func(*T) []string, checked at generate time",
		Source:  true,
		Doc: "Indexes the values a function of yours returns: `func(*T) []string`, where T is the indexed type, checked when generating. " +
			"The generated index function appends what your function returns to the store's slice (`return append(dst, indexing.ZoneOf(obj)...)`). " +
			"The lookup's parameter is a string named after the function (`ZoneOf` gives `zone`), or by `param`.",
		Examples: []string{`+index(name: byZone, func: "example.dev/shop/indexing.ZoneOf")`},
		check: func(v string) error {
			if _, _, ok := SplitQualified(v); !ok {
				return fmt.Errorf("func %q must be a fully qualified function, such as \"example.dev/shop/indexing.ZoneOf\"", v)
			}
			return nil
		},
		set: func(m *Marker, v string) { m.Source, m.Value = FromFunc, v },
	},
	{
		Name:    "selectableField",
		Syntax:  `the JSONPath of one of the type's +kubebuilder:selectablefield markers, such as spec.color (quoted with its leading dot: ".spec.color")`,
		Summary: "a selectable field of a custom resource (+kubebuilder:selectablefield:JSONPath), indexed as the API server's field selectors compare it (an absent field as \"\"), so lookups agree with the generated field selectors",
		Source:  true,
		Doc: "Indexes a selectable field of a custom resource: one of the type's `+kubebuilder:selectablefield:JSONPath=...` markers, " +
			"which controller-gen writes to the CRD version's `selectableFields` and which makes the API server accept field selectors on the field. " +
			"Every object has exactly one value, the one the API server compares a field selector with: the field's value in the object's JSON form " +
			"(a string as it is, an integer in decimal, a bool as `true` or `false`), and `\"\"` when the JSON has no such field " +
			"(a nil pointer on the path, or a zero value that the json tag's `omitempty` or `omitzero` omits). " +
			"So a lookup on an informer that watches every object finds the objects a LIST with the generated field selector of the same value returns: " +
			"`ByColorField(c)` agrees with `WidgetColorSelector(c)`; when `spec.size` is `omitempty`, `BySizeField(0)` finds nothing, as `spec.size=0` selects nothing on the server; " +
			"and a lookup of `\"\"` finds the objects without the field. " +
			"The path must be a simple dotted path (no `[*]`) to a string, bool or integer leaf, or a pointer to one, outside `metadata`. " +
			"The lookup's parameter has the leaf's Go type (a pointer leaf's element type) and is named after the last field, as for `field`, or by `param`. " +
			"Without an `+index` marker, a selectable field still gets its field selector functions (see [Selectable fields](#selectable-fields)).",
		Examples: []string{
			"+index(name: byColorField, selectableField: spec.color)",
			`+index(name: byNicknameField, selectableField: ".spec.nickname")`,
		},
		check: func(v string) error {
			_, err := ParseSelectablePath(v, false)
			return err
		},
		set: func(m *Marker, v string) { m.Source, m.Value = FromSelectableField, v },
	},
	{
		Name:    "param",
		Syntax:  `a parameter name, such as zone, or one per path of a composite key, comma-separated ("from, to")`,
		Summary: "optional: the names of the lookups' parameters, one per path of a composite key",
		Doc: "Names the lookups' parameters, instead of the name derived from the source. " +
			"A composite field key takes one name per path, comma-separated, in the order of the paths. " +
			"Each name is a Go identifier starting with a lower-case letter that is neither a Go keyword, a predeclared identifier, " +
			"nor one of the names the generated lookups use (" + strings.Join(reservedParams, ", ") + ").",
		Examples: []string{
			`+index(name: byRegion, func: "example.dev/shop/indexing.RegionOf", param: region)`,
			`+index(name: byRoute, field: "spec.source.name,spec.target.name", param: "from, to")`,
		},
		check: func(v string) error {
			names := ParamNames(v)
			for i, name := range names {
				if err := CheckParamName(name); err != nil {
					return err
				}
				for _, other := range names[:i] {
					if other == name {
						return fmt.Errorf("param names %s twice", name)
					}
				}
			}
			return nil
		},
		set: func(m *Marker, v string) { m.Param = v },
	},
	{
		Name:    "ref",
		Syntax:  `a kind, such as ConfigMap, or a group and a kind, such as "core/ConfigMap"`,
		Summary: "optional: the kind of the objects whose names the index's values are; with --controller-runtime-output-pkg, an event mapper from such an object to the objects that name it",
		Doc: "Says that the index's values are names of objects of another kind in the same namespace (such as a `spec.configRef` holding a ConfigMap's name). " +
			"With `--controller-runtime-output-pkg`, the index then gets an event mapper for controller-runtime, `MapTo<Plural><Name>`, " +
			"which maps an object of that kind to a request for each object whose index value is its name, " +
			"for `builder.Watches(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(...))`. " +
			"The index must take one string argument: a `field` index of one path to a string leaf, or a `label`, `annotation` or `func` index. " +
			"`owner` indexes need no `ref`: they always get a mapper from the owner to the objects it controls. " +
			"The kind is written as for `owner` and names the mapper's documentation; it is not resolved.",
		Examples: []string{`+index(name: byConfigRef, field: spec.configRef, ref: ConfigMap)`},
		check:    checkRef,
		set:      func(m *Marker, v string) { m.Ref = v },
	},
	{
		Name:        "for",
		Syntax:      `a fully qualified type, such as "k8s.io/api/core/v1.Pod"`,
		Summary:     "(package comments only) the fully qualified type the index is for",
		PackageOnly: true,
		Doc: "On a package's doc comment, where you declare indexes of types you do not own (such as Kubernetes' built-in types), names the type the index is for. " +
			"It is required there and not allowed on a type's doc comment, where the marker indexes that type. " +
			"The generator loads the type's package and generates its listers and informers too.",
		Examples: []string{`+index(for: "k8s.io/api/core/v1.Pod", name: byNode, field: spec.nodeName)`},
		check: func(v string) error {
			if _, _, ok := SplitQualified(v); !ok {
				return fmt.Errorf("for %q must be a fully qualified type, such as \"k8s.io/api/core/v1.Pod\"", v)
			}
			return nil
		},
		set: func(m *Marker, v string) { m.For = v },
	},
}

// argNamed returns the definition of the argument called name.
func argNamed(name string) (Arg, bool) {
	for _, a := range Args {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}

// argNames lists the names of the arguments for which keep is true,
// separated by commas.
func argNames(keep func(Arg) bool) string {
	var names []string
	for _, a := range Args {
		if keep(a) {
			names = append(names, a.Name)
		}
	}
	return strings.Join(names, ", ")
}

// ParamNames splits the value of a param argument into its names.
func ParamNames(value string) []string {
	if value == "" {
		return nil
	}
	names := strings.Split(value, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	return names
}

// reservedParams are the names generated lookups use in their bodies, which
// a parameter must not shadow.
var reservedParams = []string{"s", "obj", "yield", "buf", "key", "fieldpath"}

// CheckParamName reports why name cannot name a lookup's parameter, or nil
// when it can.
func CheckParamName(name string) error {
	switch {
	case !isIndexName(name):
		return fmt.Errorf("param %q must be a Go identifier starting with a lower-case letter, such as zone", name)
	case token.IsKeyword(name):
		return fmt.Errorf("param %q is a Go keyword", name)
	case isPredeclared(name):
		return fmt.Errorf("param %q is a predeclared Go identifier", name)
	}
	for _, r := range reservedParams {
		if name == r {
			return fmt.Errorf("param %q is a name the generated lookups use; the names %s are taken", name, strings.Join(reservedParams, ", "))
		}
	}
	return nil
}

// isPredeclared reports whether name is one of Go's predeclared identifiers
// (types, constants, zero value and functions).
func isPredeclared(name string) bool {
	switch name {
	case "any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32", "float64",
		"int", "int8", "int16", "int32", "int64", "rune", "string",
		"uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
		"true", "false", "iota", "nil",
		"append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make",
		"max", "min", "new", "panic", "print", "println", "real", "recover":
		return true
	}
	return false
}

// checkRef checks the value of a ref argument: Kind or group/Kind.
func checkRef(v string) error {
	group, kind, qualified := strings.Cut(v, "/")
	if !qualified {
		group, kind = "", v
	}
	switch {
	case kind == "" || !token.IsExported(kind) || !token.IsIdentifier(kind):
		return fmt.Errorf("ref %q must be a kind, such as ConfigMap, or group/Kind, such as \"core/ConfigMap\"", v)
	case qualified && group != fieldpath.CoreGroup && len(validation.IsDNS1123Subdomain(group)) > 0:
		return fmt.Errorf("ref %q: %q is not an API group name (a DNS subdomain, such as apps or example.dev; core for the core group)", v, group)
	}
	return nil
}

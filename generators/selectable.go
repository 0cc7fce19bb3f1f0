package generators

import (
	"strings"

	"github.com/informer-gen-plus/informer-gen-plus/generators/markers"
	"github.com/informer-gen-plus/informer-gen-plus/generators/resolve"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// SelectableField is one checked +kubebuilder:selectablefield marker of a
// kind: a field the API server accepts field selectors on.
type SelectableField struct {
	Marker markers.SelectableField
	// Key is the field selector's key: the JSONPath without its leading
	// dot ("spec.color").
	Key string
	// Path is the field resolved against the kind's Go type.
	Path resolve.Path
	// Param is the selector functions' parameter (and the default one of an
	// index of the field): named after the last field, with the leaf's Go
	// type.
	Param Param
}

// addSelectableFields checks the selectable field markers of k against its
// type, as the API server checks a CRD's selectableFields: each must be a
// simple path to a string, bool or integer leaf (or a pointer to one),
// named once, and a kind has at most markers.MaxSelectableFields of them.
func (b *modelBuilder) addSelectableFields(k *Kind, fs []markers.SelectableField) {
	var paths fieldpath.Key
	for _, f := range fs {
		if other := k.selectableField(f.Path); other != nil {
			b.fail(f.Errorf("selectable field %s of %s is declared twice (first at %s:%d)", f.Path, k.Type.Name.Name, markers.DisplayPath(other.Marker.Pos.Filename), other.Marker.Pos.Line))
			continue
		}
		r, err := resolve.Resolve(k.Type, f.Path)
		if err != nil {
			// Without resolve's hint to index every element of a list: a
			// selectable field has one value.
			msg, _, _ := strings.Cut(err.Error(), "; write ")
			b.fail(f.Errorf("JSONPath %s: %s", f.JSONPath, msg))
			continue
		}
		k.SelectableFields = append(k.SelectableFields, &SelectableField{Marker: f, Key: f.Path.String(), Path: r})
		paths = append(paths, f.Path)
	}
	if len(k.SelectableFields) > markers.MaxSelectableFields {
		extra := k.SelectableFields[markers.MaxSelectableFields].Marker
		b.fail(extra.Errorf("%s has %d selectable fields; the API server accepts at most %d per version", k.Type.Name.Name, len(k.SelectableFields), markers.MaxSelectableFields))
	}
	if len(paths) == 0 {
		return
	}
	names := fieldParamNames(paths)
	for i, sf := range k.SelectableFields {
		sf.Param = Param{Name: names[i], Type: importableLeafType(sf.Path), Leaf: sf.Path.Leaf}
	}
}

// selectableField returns the selectable field of k at path, or nil.
func (k *Kind) selectableField(path fieldpath.Path) *SelectableField {
	want := path.String()
	for _, sf := range k.SelectableFields {
		if sf.Key == want {
			return sf
		}
	}
	return nil
}

// addSelectableIndex fills in the index of a selectableField marker: the
// kind's selectable field it names, whose parameter the lookups take.
func (b *modelBuilder) addSelectableIndex(k *Kind, m markers.Marker, ix *Index) bool {
	sf := k.selectableField(m.Selectable)
	if sf == nil {
		b.fail(m.Errorf("selectableField %s is not a selectable field of %s: add +kubebuilder:selectablefield:JSONPath=.%s to its comment (an index of a field that is not selectable takes field: %s)",
			m.Value, k.Type.Name.Name, m.Selectable, m.Selectable))
		return false
	}
	ix.Spec.Paths = []resolve.Path{sf.Path}
	ix.Params = []Param{sf.Param}
	return true
}

// checkSelectableNames reports the indexes of k whose generated index
// function would have the name of a field selector declaration of k's
// selectable fields (an index named colorSelector, for a selectable field
// spec.color): both are package-level names of the lister package.
func (b *modelBuilder) checkSelectableNames(k *Kind) {
	taken := map[string]string{}
	for _, sf := range k.SelectableFields {
		field := upperCamel(sf.Param.Name)
		for _, name := range []string{field + "Field", field + "Selector"} {
			taken[k.Type.Name.Name+name] = sf.Key
		}
	}
	for _, ix := range k.Indexes {
		name := k.Type.Name.Name + markers.MethodName(ix.Marker.Name)
		if key, ok := taken[name]; ok {
			b.fail(ix.Marker.Errorf("index %s would generate %s, which names a field selector declaration of the selectable field %s: rename the index", ix.Marker.Name, name, key))
		}
	}
}

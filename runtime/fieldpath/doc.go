// Package fieldpath is the grammar of the field argument of +index markers,
// shared by the code generator and the runtime so that an index path means
// the same in both.
//
// # Grammar
//
// A path is a dot-separated list of JSON field names as they appear in the
// serialized object (spec.nodeName, metadata.name, status.phase). A field
// name matches [A-Za-z_][A-Za-z0-9_-]*. A name may be followed by [*], which
// means "every element of this list"; a path with at least one [*] is
// multi-valued (spec.containers[*].image, spec.containers[*].ports[*].name).
//
// A key is one or more paths separated by commas, optionally followed by
// spaces (status.phase, spec.nodeName). A key of several paths is composite:
// each index value combines one value per path, in the order written.
//
// Nothing else is accepted: no spaces other than after a comma, no numeric
// list indexes ([0]), no empty names, no duplicate paths within one key.
//
// # Index values
//
// The index values of an object are defined on its JSON form: Key.Values
// evaluated on the object as decoded into map[string]any (as apimachinery's
// unstructured package does) gives exactly the values that the generated,
// typed index function must give for the same object. In particular:
//
//   - a leaf renders as FormatString, FormatBool or FormatInt render it
//     (strings as is, "true"/"false", integers in base 10);
//   - a field that is absent, or null, gives no value for its path; for a
//     typed object this means a nil pointer, a nil or empty slice under [*],
//     and a field that encoding/json would omit (omitempty or omitzero on a
//     zero value) give no value;
//   - a leaf that is not a string, bool or integer (an object, a list not
//     followed by [*], a fractional number) gives no value;
//   - a composite key has a value only if each of its paths has one; its
//     values are the cartesian product of the values of its paths, each
//     combination encoded by JoinValues;
//   - duplicates are removed and the first occurrence is kept, so the order
//     follows the object (see Combine).
//
// # Layout
//
// The package has five parts, one file each, with different users:
//
//   - grammar.go: Parse, Key, Path and Segment: the grammar of a field path.
//     Generated code never parses a path.
//   - index.go: IndexSpec, ParseIndexSpec, NewIndexSpec and ParseOwner: the
//     grammar of an index declaration (the field, label, annotation and owner
//     arguments of an +index marker). The code generator checks markers with
//     it, and the dynamic and metadata informers declare run-time indexes
//     with it, so a declaration means the same in both.
//   - encoding.go: FormatString, FormatBool, FormatInt, JoinValues,
//     SplitValues and Combine. Generated index functions and lookups call
//     these, so this is the part whose behaviour is a compatibility contract:
//     changing an encoding changes every generated index.
//   - append.go: AppendInt and AppendValues, the same encoding written into a
//     caller's buffer, for generated lookups that allocate nothing.
//   - eval.go: Key.Values and Path.Values, the evaluator of a key on an
//     object's JSON form (map[string]any). It defines what the generated,
//     typed index functions must compute, and tests compare the two.
package fieldpath

// Package fieldindex connects the indexes informer-gen-plus generates from
// +index markers to controller-runtime: it registers them with a manager's
// cache (client.FieldIndexer) under their index names, lists objects by them
// through a client.Reader (client.MatchingFields), and maps events of one kind
// to the objects of another that an index relates them to (handler.MapFunc).
//
// Generated code calls this package; operators call the generated code
// (SetupIndexes, ListWidgetsByColor, MapShopToWidgets, ...), so no index name
// is ever written as a string in an operator. The index functions are the
// ones the generated listers use, with the same value encoding, so a value
// given to a generated List helper finds exactly what the lister's lookup
// with the same arguments finds.
//
// The field name of each index in controller-runtime is its index name (the
// name argument of its +index marker, such as byColor). controller-runtime
// keeps one namespace of field names per kind, so two kinds may both have a
// byName index.
//
// An index function that panics or returns an error does not stop the
// manager: the object is not indexed under that index and the failure is
// reported through k8s.io/apimachinery's utilruntime.HandleError.
package fieldindex

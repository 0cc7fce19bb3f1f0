// Package indexcheck checks the lookups of indexes declared at run time
// (runtime/dynamicinformer, runtime/metadatainformer) against the obvious,
// slow answer computed from a list of objects, so that tests against fake
// clients and against a real API server check them the same way; Declare
// declares the indexes such a test checks.
package indexcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// Values returns the index values of obj under spec, the slow way: a field
// key is evaluated by fieldpath.Key.Values (the definition) on the object's
// JSON form (its own map for an unstructured object, a conversion for any
// other), a label or annotation is looked up in the object's map of them,
// and an owner is runtime/cache.ControllerOf.
func Values(spec fieldpath.IndexSpec, obj metav1.Object) ([]string, error) {
	switch spec.Source() {
	case fieldpath.IndexByField:
		content, err := jsonForm(obj)
		if err != nil {
			return nil, err
		}
		return spec.Field.Values(content), nil
	case fieldpath.IndexByLabel:
		if v, ok := obj.GetLabels()[spec.Label]; ok {
			return []string{v}, nil
		}
	case fieldpath.IndexByAnnotation:
		if v, ok := obj.GetAnnotations()[spec.Annotation]; ok {
			return []string{v}, nil
		}
	case fieldpath.IndexByOwner:
		if name, ok := cache.ControllerOf(obj, spec.Owner); ok {
			return []string{name}, nil
		}
	}
	return nil, nil
}

func jsonForm(obj metav1.Object) (map[string]any, error) {
	if u, ok := obj.(runtime.Unstructured); ok {
		return u.UnstructuredContent(), nil
	}
	return runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
}

// Lookups is what Disagreements asks: the lookups of a run-time index.
//
// It is an alias of an interface literal, so that Disagreements' function
// type is the one runtime/internal/factory/gvrfactory/gvrtest.Churn takes.
type Lookups[T metav1.Object] = interface {
	ByIndex(name string, values ...string) ([]T, error)
	ByIndexInNamespace(name, namespace string, values ...string) ([]T, error)
}

// Disagreements asks l, for every index of indexes (name to spec), for every
// value that an object of list has in it and for a value none has, and in
// every namespace and each namespace of list, which objects are indexed
// under it, and compares the answer with a filter of list. Composite values
// are passed as one value per path. It returns "" when all agree, else what
// each lookup that disagrees returned and should have.
func Disagreements[T metav1.Object](l Lookups[T], indexes map[string]fieldpath.IndexSpec, list []T) string {
	var problems []string
	namespaces := map[string]bool{}
	for _, obj := range list {
		namespaces[obj.GetNamespace()] = true
	}
	for _, name := range slices.Sorted(maps.Keys(indexes)) {
		spec := indexes[name]
		want := map[string][]T{} // value -> objects
		for _, obj := range list {
			values, err := Values(spec, obj)
			if err != nil {
				return err.Error()
			}
			for _, v := range values {
				want[v] = append(want[v], obj)
			}
		}
		absent := make([]string, spec.Arity())
		for i := range absent {
			absent[i] = "no-object-has-this-value"
		}
		want[fieldpath.JoinValues(absent...)] = nil
		for _, value := range slices.Sorted(maps.Keys(want)) {
			parts, ok := fieldpath.SplitValues(value, spec.Arity())
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: value %q does not split into %d parts", name, value, spec.Arity()))
				continue
			}
			got, err := l.ByIndex(name, parts...)
			problems = compare(problems, fmt.Sprintf("ByIndex(%s, %q)", name, parts), got, err, want[value])
			for _, ns := range slices.Sorted(maps.Keys(namespaces)) {
				got, err := l.ByIndexInNamespace(name, ns, parts...)
				var inNS []T
				for _, obj := range want[value] {
					if obj.GetNamespace() == ns {
						inNS = append(inNS, obj)
					}
				}
				problems = compare(problems, fmt.Sprintf("ByIndexInNamespace(%s, %s, %q)", name, ns, parts), got, err, inNS)
			}
		}
	}
	return strings.Join(problems, "; ")
}

func compare[T metav1.Object](problems []string, what string, got []T, err error, want []T) []string {
	if err != nil {
		return append(problems, fmt.Sprintf("%s: %v", what, err))
	}
	if g, w := Keys(got), Keys(want); !slices.Equal(g, w) {
		return append(problems, fmt.Sprintf("%s = %v, the list says %v", what, g, w))
	}
	return problems
}

// Keys returns the namespace/name of objs, sorted.
func Keys[T metav1.Object](objs []T) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.GetNamespace() + "/" + o.GetName()
	}
	slices.Sort(out)
	return out
}

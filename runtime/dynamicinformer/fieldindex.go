package dynamicinformer

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// compileField returns the index function of a field key on unstructured
// objects. It gives exactly what key.Values(u.Object) gives (the definition,
// in runtime/fieldpath), values and order, but walks the map with plain
// loops and type switches: no reflection, no closure per call, and for a
// path without [*] no allocation beyond the result.
func compileField(key fieldpath.Key) cache.IndexFunc[*unstructured.Unstructured] {
	if len(key) == 1 {
		path := key[0]
		if !path.MultiValued() {
			return func(u *unstructured.Unstructured) []string {
				if v, ok := singleValue(u.Object, path); ok {
					return []string{v}
				}
				return nil
			}
		}
		return func(u *unstructured.Unstructured) []string {
			return fieldpath.Combine(appendValues(nil, u.Object, path))
		}
	}
	return func(u *unstructured.Unstructured) []string {
		parts := make([][]string, len(key))
		for i, path := range key {
			if parts[i] = appendValues(nil, u.Object, path); len(parts[i]) == 0 {
				return nil
			}
		}
		return fieldpath.Combine(parts...)
	}
}

// singleValue returns the value of a path without [*] in obj: the leaf
// rendered by fieldpath.FormatScalar, if every step is an object holding
// the next name and the leaf is a scalar.
func singleValue(obj map[string]any, path fieldpath.Path) (string, bool) {
	var v any = obj
	for _, seg := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		v = m[seg.Name]
	}
	return fieldpath.FormatScalar(v)
}

// appendValues appends the values of rest in v to dst, in the order they
// occur, duplicates included: a missing field, null or a value of the wrong
// shape gives nothing, and a segment with Each applies the rest of the path
// to every element of the list it names.
func appendValues(dst []string, v any, rest fieldpath.Path) []string {
	for len(rest) > 0 {
		m, ok := v.(map[string]any)
		if !ok {
			return dst
		}
		v = m[rest[0].Name]
		if rest[0].Each {
			list, _ := v.([]any)
			for _, elem := range list {
				dst = appendValues(dst, elem, rest[1:])
			}
			return dst
		}
		rest = rest[1:]
	}
	if s, ok := fieldpath.FormatScalar(v); ok {
		dst = append(dst, s)
	}
	return dst
}

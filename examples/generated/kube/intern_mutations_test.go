package kube_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

var quantityType = reflect.TypeFor[resource.Quantity]()

// filler sets every exported field of a value, recursively: distinct
// strings and numbers, true, two-element slices, three-entry maps, a
// quantity as a decoder leaves it.
type filler struct{ n int }

func (f *filler) fill(v reflect.Value) {
	if v.Type() == quantityType {
		// Parsed as a decoder parses it: 128Mi keeps no cached text.
		v.Set(reflect.ValueOf(resource.MustParse("128Mi")))
		return
	}
	switch v.Kind() {
	case reflect.String:
		f.n++
		v.SetString(fmt.Sprintf("s%d", f.n))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.n++
		v.SetInt(int64(f.n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.n++
		v.SetUint(uint64(f.n%100 + 1))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			f.fill(s.Index(i))
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 3 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			f.fill(k)
			f.fill(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i))
			}
		}
	}
}

// step is one step of a path from the root of a value to a part of it:
// into a struct field, a pointer's target, a slice element or a map entry.
type step struct {
	kind  reflect.Kind // Struct, Pointer, Slice or Map
	index int          // the field or the element
	key   reflect.Value
}

// mutation changes one part of a value in one way.
type mutation struct {
	path   []step
	desc   string
	mutate func(v reflect.Value) // v is the part at path, settable
}

// apply makes the mutation in v, which must be settable and hold the value
// the mutation was found in, or a copy of it. Every pointer target, slice
// and map on the way to the part it changes is copied first, shallowly, so
// v may share its parts with another value: that one stays as it was, and
// shares with v every part off the way.
func (m *mutation) apply(v reflect.Value) { applyAt(v, m.path, m.mutate) }

func applyAt(v reflect.Value, path []step, mutate func(reflect.Value)) {
	if len(path) == 0 {
		switch v.Kind() {
		case reflect.Slice, reflect.Map:
			if !v.IsNil() {
				v.Set(shallowCopy(v))
			}
		}
		mutate(v)
		return
	}
	switch s := path[0]; s.kind {
	case reflect.Struct:
		applyAt(v.Field(s.index), path[1:], mutate)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(v.Elem())
		v.Set(p)
		applyAt(p.Elem(), path[1:], mutate)
	case reflect.Slice:
		v.Set(shallowCopy(v))
		applyAt(v.Index(s.index), path[1:], mutate)
	case reflect.Map:
		v.Set(shallowCopy(v))
		// Map elements are not addressable: change a copy, store it back.
		e := reflect.New(v.Type().Elem()).Elem()
		e.Set(v.MapIndex(s.key))
		applyAt(e, path[1:], mutate)
		v.SetMapIndex(s.key, e)
	}
}

// shallowCopy returns a new slice or map holding the elements of v.
func shallowCopy(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Map {
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), it.Value())
		}
		return m
	}
	s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(s, v)
	return s
}

// partAt returns the part of v at path, to read.
func partAt(v reflect.Value, path []step) reflect.Value {
	for _, s := range path {
		switch s.kind {
		case reflect.Struct:
			v = v.Field(s.index)
		case reflect.Pointer:
			v = v.Elem()
		case reflect.Slice:
			v = v.Index(s.index)
		case reflect.Map:
			v = v.MapIndex(s.key)
		}
	}
	return v
}

// mutations returns every way of changing one part of v (a filled value)
// that changes it: a string, number or bool; a pointer to nil; a slice to
// nil, to empty, to its first element only; a map to nil, to empty, to one
// entry less, a string key renamed; a quantity to another value, to the
// same value in another form, or with its text cached. Then, recursively,
// the same in every element, entry and field.
func mutations(v reflect.Value) []mutation {
	var w mutationWalker
	w.walk(v, nil, "")
	return w.found
}

type mutationWalker struct{ found []mutation }

func (w *mutationWalker) add(path []step, desc string, mutate func(reflect.Value)) {
	w.found = append(w.found, mutation{slices.Clone(path), desc, mutate})
}

func (w *mutationWalker) walk(v reflect.Value, path []step, desc string) {
	if v.Type() == quantityType {
		cached := resource.MustParse("128Mi")
		_ = cached.String() // caches the text in the quantity
		for _, q := range []struct {
			name string
			q    resource.Quantity
		}{{"129Mi", resource.MustParse("129Mi")}, {"134217728", resource.MustParse("134217728")}, {"128Mi with its text cached", cached}} {
			w.add(path, desc+" = "+q.name, func(v reflect.Value) { v.Set(reflect.ValueOf(q.q)) })
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		w.add(path, desc+` += "x"`, func(v reflect.Value) { v.SetString(v.String() + "x") })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.add(path, desc+" += 1", func(v reflect.Value) { v.SetInt(v.Int() + 1) })
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		w.add(path, desc+" += 1", func(v reflect.Value) { v.SetUint(v.Uint() + 1) })
	case reflect.Bool:
		w.add(path, desc+" flipped", func(v reflect.Value) { v.SetBool(!v.Bool()) })
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		w.add(path, desc+" = nil", func(v reflect.Value) { v.SetZero() })
		w.walk(v.Elem(), append(path, step{kind: reflect.Pointer}), "(*"+desc+")")
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		w.add(path, desc+" = nil", func(v reflect.Value) { v.SetZero() })
		w.add(path, desc+" = empty", func(v reflect.Value) { v.Set(reflect.MakeSlice(v.Type(), 0, 0)) })
		if v.Len() > 1 {
			w.add(path, desc+" = first element only", func(v reflect.Value) { v.SetLen(1) })
		}
		for i := range v.Len() {
			w.walk(v.Index(i), append(path, step{kind: reflect.Slice, index: i}), fmt.Sprintf("%s[%d]", desc, i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		w.add(path, desc+" = nil", func(v reflect.Value) { v.SetZero() })
		w.add(path, desc+" = empty", func(v reflect.Value) { v.Set(reflect.MakeMap(v.Type())) })
		if len(keys) > 0 {
			first := keys[0]
			w.add(path, fmt.Sprintf("%s without key %v", desc, first), func(v reflect.Value) { v.SetMapIndex(first, reflect.Value{}) })
		}
		for _, k := range keys {
			if k.Kind() == reflect.String {
				w.add(path, fmt.Sprintf("%s key %v renamed", desc, k), func(v reflect.Value) {
					e := v.MapIndex(k)
					v.SetMapIndex(k, reflect.Value{})
					renamed := reflect.New(k.Type()).Elem()
					renamed.SetString(k.String() + "x")
					v.SetMapIndex(renamed, e)
				})
			}
			// Map elements are not addressable: walk a copy, so that
			// walk can look into it; apply copies it again.
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			w.walk(e, append(path, step{kind: reflect.Map, key: k}), fmt.Sprintf("%s[%v]", desc, k))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				w.walk(v.Field(i), append(path, step{kind: reflect.Struct, index: i}), desc+"."+f.Name)
			}
		}
	}
}

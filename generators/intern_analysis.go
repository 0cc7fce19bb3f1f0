package generators

import (
	"fmt"

	"k8s.io/gengo/v2/types"
)

// memo is a memoized property of struct types, computed recursively: a
// type met again while its own property is being computed (a recursive
// type) counts as not having it.
type memo map[*types.Type]int8

const (
	memoComputing int8 = iota + 1
	memoFalse
	memoTrue
)

func (m memo) get(t *types.Type, compute func() bool) bool {
	switch m[t] {
	case memoComputing, memoFalse:
		return false
	case memoTrue:
		return true
	}
	m[t] = memoComputing
	v := compute()
	m[t] = memoFalse
	if v {
		m[t] = memoTrue
	}
	return v
}

// policy returns the policy of field m of struct owner, recording a bad
// +intern marker once.
func (g *internGen) policy(owner *types.Type, m types.Member) fieldPolicy {
	p, err := fieldPolicyOf(owner, m)
	if err != nil {
		key := owner.Name.String() + "." + m.Name
		if !g.reported[key] {
			g.reported[key] = true
			g.errs = append(g.errs, fmt.Errorf("field %s of %s: %w", m.Name, owner.Name, err))
		}
	}
	return p
}

// shareable reports whether values of the struct t can be shared whole:
// none of its fields, however deep, is unique to an object, and every one
// can be encoded exactly (see encodable).
func (g *internGen) shareable(t *types.Type) bool {
	return g.shareableMemo.get(t, func() bool {
		if !isWalkable(t) {
			return false
		}
		for _, m := range t.Members {
			if g.policy(t, m) != byType || !g.encodable(m.Type) {
				return false
			}
		}
		return true
	})
}

// encodable reports whether a value of type t can be written to an
// intern.Key exactly, with nothing unique to an object in it: strings,
// booleans, integers, quantities; pointers to those or to shareable
// structs; slices of those, of bytes or of shareable structs; maps from a
// string kind to a string kind or to quantities; shareable structs.
// Floating-point numbers, interfaces, arrays and other maps are not.
func (g *internGen) encodable(t *types.Type) bool {
	switch {
	case isStringKind(t), isBoolKind(t), isIntKind(t), isQuantity(t):
		return true
	case isTimestamp(t):
		return false
	case t.Kind == types.Struct:
		return g.shareable(t)
	case t.Kind == types.Pointer:
		e := t.Elem
		return isStringKind(e) || isBoolKind(e) || isIntKind(e) || isQuantity(e) || (e.Kind == types.Struct && g.shareable(e))
	}
	switch u := unalias(t); u.Kind {
	case types.Slice:
		e := u.Elem
		return isStringKind(e) || isBoolKind(e) || isIntKind(e) || (e.Kind == types.Struct && g.shareable(e))
	case types.Map:
		return isStringKind(u.Key) && (isStringKind(u.Elem) || isQuantity(u.Elem))
	}
	return false
}

// needsWork reports whether the walker of struct t would do anything: some
// field it does not leave alone holds a string, or a part that can be
// shared.
func (g *internGen) needsWork(t *types.Type) bool {
	return g.workMemo.get(t, func() bool {
		if !isWalkable(t) {
			return false
		}
		for _, m := range t.Members {
			if p := g.policy(t, m); (p == byType || p == varies) && g.fieldNeedsWork(m.Type) {
				return true
			}
		}
		return false
	})
}

// fieldNeedsWork reports whether a field of type t gets a line in a walker
// (see fieldLines).
func (g *internGen) fieldNeedsWork(t *types.Type) bool {
	switch {
	case isStringKind(t):
		return true
	case t.Kind == types.Struct:
		return isWalkable(t) && g.needsWork(t)
	case t.Kind == types.Pointer:
		e := t.Elem
		switch {
		case isStringKind(e):
			return isNameable(e)
		case isPlain(e, "bool"), isPlain(e, "int32"), isPlain(e, "int64"):
			return true
		case e.Kind == types.Struct:
			return g.shareable(e) || g.needsWork(e)
		}
		return false
	}
	switch u := unalias(t); u.Kind {
	case types.Slice:
		e := u.Elem
		return (isStringKind(e) && isNameable(e)) || (e.Kind == types.Struct && (g.shareable(e) || g.needsWork(e)))
	case types.Map:
		return isStringKind(u.Key) && isNameable(u.Key) && isNameable(u.Elem) && (isStringKind(u.Elem) || isQuantity(u.Elem))
	}
	return false
}

package generators

import (
	"fmt"
	"strings"
	"unicode"

	"k8s.io/gengo/v2/generator"
	"k8s.io/gengo/v2/namer"
	"k8s.io/gengo/v2/types"
)

// internGen plans the interning code of one lister package: one walker per
// struct type (intern<Type>, or Intern<Kind> for a kind of the package),
// which interns, shares, walks or skips each field; one update walker per
// struct type (intern<Type>Update, Intern<Kind>Update), which does the same
// with an earlier version of the value at hand, giving back its parts where
// they are equal; one key encoder (key<Type>) and one equality function
// (equal<Type>) per shared struct type; one pool per shared type. Each is a
// declaration whose code is written with the namer of the file it goes to.
type internGen struct {
	pkg   string
	roots map[*types.Type]*Kind // the kinds of the package, by type
	// idents name types in identifiers, unique in the package: a type's
	// name, prefixed by its package's when another type has it.
	idents map[*types.Type]string
	taken  map[string]bool

	shareableMemo, workMemo memo

	decls map[string]*internDecl
	order []string // of definition

	reported map[string]bool
	errs     []error
}

// internDecl is one generated declaration: a function, or a pool (a
// variable of the pools' var block).
type internDecl struct {
	name string
	kind declKind
	code func(e *emitter) string
	deps []string // the declarations the code refers to
}

// declKind is what a declaration is; files list functions by kind, in this
// order.
type declKind int

const (
	walkerDecl declKind = iota
	updaterDecl
	keyerDecl
	equalerDecl
	helperDecl
	poolDecl
)

func newInternGen(pkg string, kinds []*Kind) *internGen {
	g := &internGen{
		pkg: pkg, roots: map[*types.Type]*Kind{},
		idents: map[*types.Type]string{}, taken: map[string]bool{},
		shareableMemo: memo{}, workMemo: memo{},
		decls: map[string]*internDecl{}, reported: map[string]bool{},
	}
	for _, k := range kinds {
		g.roots[k.Type] = k
	}
	return g
}

// define adds the declaration name unless it exists, and the declarations
// its code refers to.
func (g *internGen) define(name string, kind declKind, code func(e *emitter) string) {
	if g.decls[name] != nil {
		return
	}
	d := &internDecl{name: name, kind: kind, code: code}
	g.decls[name] = d
	g.order = append(g.order, name)
	plan := &emitter{g: g, raw: newPlanNamer(g.pkg)}
	code(plan)
	d.deps = plan.deps
}

// newPlanNamer is the namer of the code written only to find what it
// refers to: its imports are dropped.
func newPlanNamer(pkg string) namer.Namer {
	return namer.NewRawNamer(pkg, generator.NewImportTrackerForPackage(pkg))
}

// ident names t in identifiers.
func (g *internGen) ident(t *types.Type) string {
	if id, ok := g.idents[t]; ok {
		return id
	}
	id := upperFirstRune(t.Name.Name)
	if g.taken[id] {
		pkg := t.Name.Package[strings.LastIndex(t.Name.Package, "/")+1:]
		base := upperFirstRune(strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return r
			}
			return -1
		}, pkg)) + id
		id = base
		for n := 2; g.taken[id]; n++ {
			id = fmt.Sprintf("%s%d", base, n)
		}
	}
	g.taken[id] = true
	g.idents[t] = id
	return id
}

func upperFirstRune(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func lowerFirstRune(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// emitter writes the code of declarations with the raw namer of a file,
// recording the declarations it refers to.
type emitter struct {
	g    *internGen
	raw  namer.Namer
	deps []string
}

func (e *emitter) typ(t *types.Type) string { return e.raw.Name(t) }

// in names a declaration of package intern.
func (e *emitter) in(name string) string { return e.raw.Name(types.Ref(InternPkg, name)) }

func (e *emitter) use(name string) string {
	e.deps = append(e.deps, name)
	return name
}

// walker returns the name of the walker of struct t, defining it.
func (e *emitter) walker(t *types.Type) string {
	name := "intern" + e.g.ident(t)
	if k := e.g.roots[t]; k != nil {
		name = "Intern" + t.Name.Name
	}
	e.g.define(name, walkerDecl, func(e *emitter) string { return e.walkerFunc(t, name) })
	return e.use(name)
}

// updater returns the name of the update walker of struct t, defining it.
func (e *emitter) updater(t *types.Type) string {
	name := "intern" + e.g.ident(t) + "Update"
	if k := e.g.roots[t]; k != nil {
		name = "Intern" + t.Name.Name + "Update"
	}
	e.g.define(name, updaterDecl, func(e *emitter) string { return e.updaterFunc(t, name) })
	return e.use(name)
}

// equaler returns the name of the equality function of shareable struct t,
// defining it.
func (e *emitter) equaler(t *types.Type) string {
	name := "equal" + e.g.ident(t)
	e.g.define(name, equalerDecl, func(e *emitter) string { return e.equalerFunc(t, name) })
	return e.use(name)
}

// equalerIf is equaler(t) for the update form of a statement (o, a field's
// earlier version, set), and "" for the walker's, which compares nothing:
// a walker does not depend on equality functions.
func (e *emitter) equalerIf(o string, t *types.Type) string {
	if o == "" {
		return ""
	}
	return e.equaler(t)
}

// keyer returns the name of the key encoder of shareable struct t,
// defining it.
func (e *emitter) keyer(t *types.Type) string {
	name := "key" + e.g.ident(t)
	e.g.define(name, keyerDecl, func(e *emitter) string { return e.keyerFunc(t, name) })
	return e.use(name)
}

// pool returns the name of the pool of a kind (Pointers, Slices, Maps) of
// the given types, defining it.
func (e *emitter) pool(kind string, ts ...*types.Type) string {
	name := lowerFirstRune(e.g.ident(ts[0]))
	if len(ts) == 2 && ts[1] != ts[0] {
		name += e.g.ident(ts[1])
	}
	name += kind
	e.g.define(name, poolDecl, func(e *emitter) string {
		args := make([]string, len(ts))
		for i, t := range ts {
			args[i] = e.typ(t)
		}
		return fmt.Sprintf("%s %s[%s]", name, e.in(kind), strings.Join(args, ", "))
	})
	return e.use(name)
}

// stringHelpers returns the key encoder and the prepare function of the
// values of a string kind, defining them.
func (e *emitter) stringHelpers() (key, prepare string) {
	e.g.define("keyString", helperDecl, func(e *emitter) string {
		return "// keyString writes a value of a string kind (see " + e.in("Key") + ").\n" +
			"func keyString[S ~string](k *" + e.in("Key") + ", s *S) { k.String(string(*s)) }"
	})
	e.g.define("internString", helperDecl, func(e *emitter) string {
		return "// internString interns a value of a string kind in place.\n" +
			"func internString[S ~string](s *S) { *s = " + e.in("String") + "(*s) }"
	})
	return e.use("keyString"), e.use("internString")
}

// varName is the parameter name of a walker or encoder of t: its initial,
// but for the names the code uses otherwise.
func varName(t *types.Type) string {
	v := strings.ToLower(t.Name.Name[:1])
	if v == "i" || v == "k" || !unicode.IsLetter(rune(v[0])) {
		return "v"
	}
	return v
}

// walkerFunc is the walker of struct t: a line per field it interns,
// shares or walks, after a comment naming those it leaves alone.
func (e *emitter) walkerFunc(t *types.Type, name string) string {
	g := e.g
	v := varName(t)
	var b strings.Builder
	if k := g.roots[t]; k != nil {
		v = "obj"
		writeComment(&b, "", name+" interns and shares, in place, the parts of obj that repeat across objects, "+
			"and leaves alone those unique to it. obj must be a freshly decoded object that no other goroutine sees yet; "+
			"it stays reflect.DeepEqual to what it was, and is read-only afterwards, as it may share parts with other objects. "+
			"InternTransform calls it on the objects an informer caches, and "+name+"Update on an object without an earlier version.")
		fmt.Fprintf(&b, "func %s(%s *%s) {\n\tif %s == nil {\n\t\treturn\n\t}\n", name, v, e.typ(t), v)
	} else {
		writeComment(&b, "", fmt.Sprintf("%s interns and shares the parts of %s that repeat across objects.", name, article(t.Name.Name)))
		fmt.Fprintf(&b, "func %s(%s *%s) {\n", name, v, e.typ(t))
	}
	var uniques, optedOuts, lines []string
	for _, m := range t.Members {
		switch g.policy(t, m) {
		case unique:
			uniques = append(uniques, m.Name)
			continue
		case optedOut:
			optedOuts = append(optedOuts, m.Name)
			continue
		}
		lines = append(lines, e.fieldLines(m.Type, v+"."+m.Name, "")...)
	}
	if len(uniques) > 0 {
		writeComment(&b, "\t", strings.Join(uniques, ", ")+": unique to the object.")
	}
	if len(optedOuts) > 0 {
		writeComment(&b, "\t", strings.Join(optedOuts, ", ")+": left as decoded (+intern=false).")
	}
	for _, l := range lines {
		b.WriteString("\t" + strings.ReplaceAll(l, "\n", "\n\t") + "\n")
	}
	b.WriteString("}")
	return b.String()
}

// writeComment writes text as comment lines of at most about 80 columns.
func writeComment(b *strings.Builder, indent, text string) {
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > 72 {
			b.WriteString(indent + "// " + line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	b.WriteString(indent + "// " + line + "\n")
}

// fieldLines are the statements of a walker for the field x of type t:
// of the walker when o is empty, else of the update walker, o being the
// field's earlier version (the walker's work, giving x o's value where
// they are equal).
func (e *emitter) fieldLines(t *types.Type, x, o string) []string {
	g := e.g
	switch {
	case isStringKind(t):
		if o == "" {
			return []string{fmt.Sprintf("%s = %s(%s)", x, e.in("String"), x)}
		}
		return []string{fmt.Sprintf("%s = %s(%s, %s)", x, e.in("StringFrom"), x, o)}
	case t.Kind == types.Struct:
		if !isWalkable(t) || !g.needsWork(t) {
			return nil
		}
		if o == "" {
			return []string{fmt.Sprintf("%s(&%s)", e.walker(t), x)}
		}
		return []string{fmt.Sprintf("%s(&%s, &%s)", e.updater(t), x, o)}
	case t.Kind == types.Pointer:
		return e.pointerLines(t.Elem, x, o)
	}
	switch u := unalias(t); u.Kind {
	case types.Slice:
		el := u.Elem
		switch {
		case isStringKind(el) && isNameable(el):
			key, prepare := e.stringHelpers()
			return []string{e.share(e.pool("Slices", el), x, o, e.in("Equal"), key, prepare)}
		case el.Kind == types.Struct && g.shareable(el):
			return []string{e.share(e.pool("Slices", el), x, o, e.equalerIf(o, el), e.keyer(el), e.prepare(el))}
		case el.Kind == types.Struct && isWalkable(el) && g.needsWork(el):
			if o == "" {
				return []string{
					fmt.Sprintf("%s = %s(%s)", x, e.in("Clip"), x),
					fmt.Sprintf("for i := range %s {\n\t%s(&%s[i])\n}", x, e.walker(el), x),
				}
			}
			return []string{
				fmt.Sprintf("for i := range %s {\n\t%s(&%s[i], %s(%s, i))\n}", x, e.updater(el), x, e.in("At"), o),
				fmt.Sprintf("%s = %s(%s, %s)", x, e.in("ClipFrom"), x, o),
			}
		}
	case types.Map:
		if !isStringKind(u.Key) || !isNameable(u.Key) || !isNameable(u.Elem) {
			return nil
		}
		switch {
		case isStringKind(u.Elem):
			return []string{e.share(e.pool("Maps", u.Key, u.Elem), x, o, e.in("EqualMap"), e.in("StringMap"), e.in("StringEntry"))}
		case isQuantity(u.Elem):
			return []string{e.share(e.pool("Maps", u.Key, u.Elem), x, o, e.in("EqualQuantityMap"), e.in("QuantityMap"), e.in("StringKey"))}
		}
	}
	return nil
}

// pointerLines are fieldLines for the pointer field x to a value of type el.
func (e *emitter) pointerLines(el *types.Type, x, o string) []string {
	g := e.g
	switch {
	case isStringKind(el) && isNameable(el):
		key, prepare := e.stringHelpers()
		return []string{e.share(e.pool("Pointers", el), x, o, e.in("Equal"), key, prepare)}
	case isPlain(el, "bool"):
		return []string{fmt.Sprintf("%s = %s(%s)", x, e.in("Bool"), x)}
	case isPlain(el, "int32"), isPlain(el, "int64"):
		fn := "Int32"
		if isPlain(el, "int64") {
			fn = "Int64"
		}
		if o == "" {
			return []string{fmt.Sprintf("%s = %s(%s)", x, e.in(fn), x)}
		}
		return []string{fmt.Sprintf("%s = %s(%s, %s)", x, e.in(fn+"From"), x, o)}
	case el.Kind == types.Struct && g.shareable(el):
		return []string{e.share(e.pool("Pointers", el), x, o, e.equalerIf(o, el), e.keyer(el), e.prepare(el))}
	case el.Kind == types.Struct && isWalkable(el) && g.needsWork(el):
		if o == "" {
			return []string{fmt.Sprintf("if %s != nil {\n\t%s(%s)\n}", x, e.walker(el), x)}
		}
		return []string{fmt.Sprintf("if %s != nil {\n\t%s(%s, %s)\n}", x, e.updater(el), x, o)}
	}
	return nil
}

// share is the statement that shares x through pool: Share with the key
// encoder and prepare function, or, with x's earlier version o, ShareFrom,
// which first compares x with o by equal.
func (e *emitter) share(pool, x, o, equal, key, prepare string) string {
	if o == "" {
		return fmt.Sprintf("%s = %s.Share(%s, %s, %s)", x, pool, x, key, prepare)
	}
	return fmt.Sprintf("%s = %s.ShareFrom(%s, %s, %s, %s, %s)", x, pool, x, o, equal, key, prepare)
}

// prepare is the prepare function of the pool of shareable struct t: its
// walker, or nil when it has nothing to do.
func (e *emitter) prepare(t *types.Type) string {
	if e.g.needsWork(t) {
		return e.walker(t)
	}
	return "nil"
}

// keyerFunc is the key encoder of shareable struct t: every field, in
// declaration order, with the intern.Key method of its kind. A FieldsV1's one
// field, Raw, is read through GetRawBytes (see isFieldsV1).
func (e *emitter) keyerFunc(t *types.Type, name string) string {
	v := varName(t)
	what := "every field of %s, in declaration order"
	var body []string
	if isFieldsV1(t) {
		what = "the raw bytes of %s, nil when unset"
		body = append([]string{fmt.Sprintf("raw := %s.GetRawBytes()", v)}, e.encodeLines(t.Members[0].Type, "raw")...)
	} else {
		for _, m := range t.Members {
			body = append(body, e.encodeLines(m.Type, v+"."+m.Name)...)
		}
	}
	var b strings.Builder
	writeComment(&b, "", fmt.Sprintf("%s writes "+what+" (see %s).", name, article(t.Name.Name), e.in("Key")))
	fmt.Fprintf(&b, "func %s(k *%s, %s *%s) {\n", name, e.in("Key"), v, e.typ(t))
	for _, l := range body {
		b.WriteString("\t" + strings.ReplaceAll(l, "\n", "\n\t") + "\n")
	}
	b.WriteString("}")
	return b.String()
}

// encodeLines are the statements of an encoder writing x, of type t, which
// encodable accepts.
func (e *emitter) encodeLines(t *types.Type, x string) []string {
	switch {
	case isStringKind(t):
		if isPlain(t, "string") {
			return []string{fmt.Sprintf("k.String(%s)", x)}
		}
		return []string{fmt.Sprintf("k.String(string(%s))", x)}
	case isBoolKind(t):
		if isPlain(t, "bool") {
			return []string{fmt.Sprintf("k.Bool(%s)", x)}
		}
		return []string{fmt.Sprintf("k.Bool(bool(%s))", x)}
	case isIntKind(t):
		if isPlain(t, "int64") {
			return []string{fmt.Sprintf("k.Int(%s)", x)}
		}
		return []string{fmt.Sprintf("k.Int(int64(%s))", x)}
	case isQuantity(t):
		return []string{fmt.Sprintf("k.Quantity(%s)", x)}
	case t.Kind == types.Struct:
		return []string{fmt.Sprintf("%s(k, &%s)", e.keyer(t), x)}
	case t.Kind == types.Pointer:
		el := t.Elem
		switch {
		case isStringKind(el):
			return []string{fmt.Sprintf("%s(k, %s)", e.in("StringPtr"), x)}
		case isPlain(el, "int32"):
			return []string{fmt.Sprintf("k.Int32Ptr(%s)", x)}
		case isPlain(el, "int64"):
			return []string{fmt.Sprintf("k.Int64Ptr(%s)", x)}
		case isPlain(el, "bool"):
			return []string{fmt.Sprintf("k.BoolPtr(%s)", x)}
		case isQuantity(el):
			return []string{fmt.Sprintf("if k.Ptr(%s != nil) {\n\tk.Quantity(*%s)\n}", x, x)}
		case el.Kind == types.Struct:
			return []string{fmt.Sprintf("if k.Ptr(%s != nil) {\n\t%s(k, %s)\n}", x, e.keyer(el), x)}
		}
		inner := e.encodeLines(el, "*"+x)
		return []string{fmt.Sprintf("if k.Ptr(%s != nil) {\n\t%s\n}", x, strings.Join(inner, "\n\t"))}
	}
	switch u := unalias(t); u.Kind {
	case types.Slice:
		el := u.Elem
		switch {
		case isPlain(el, "byte"):
			return []string{fmt.Sprintf("if k.Len(len(%s), %s == nil) {\n\tk.String(string(%s))\n}", x, x, x)}
		case isStringKind(el):
			return []string{fmt.Sprintf("%s(k, %s)", e.in("StringSlice"), x)}
		}
		inner := e.encodeLines(el, x+"[i]")
		return []string{fmt.Sprintf("if k.Len(len(%s), %s == nil) {\n\tfor i := range %s {\n\t\t%s\n\t}\n}", x, x, x, strings.Join(inner, "\n\t\t"))}
	case types.Map:
		if isQuantity(u.Elem) {
			return []string{fmt.Sprintf("%s(k, %s)", e.in("QuantityMap"), x)}
		}
		return []string{fmt.Sprintf("%s(k, %s)", e.in("StringMap"), x)}
	}
	// Not reached for the types encodable accepts.
	e.g.errs = append(e.g.errs, fmt.Errorf("interning: no encoding for %s", t.Name))
	return nil
}

// updaterFunc is the update walker of struct t: the walker's work, with the
// value's earlier version old at hand; a nil old calls the walker.
func (e *emitter) updaterFunc(t *types.Type, name string) string {
	g := e.g
	v := varName(t)
	walker := e.walker(t)
	var b strings.Builder
	if k := g.roots[t]; k != nil {
		v = "obj"
		writeComment(&b, "", fmt.Sprintf("%s is %s for a new version of an object whose earlier version, old, "+
			"went through %s or %s already (the object an informer's store holds under obj's key): "+
			"the parts of obj equal to old's are given old's values without being looked up, "+
			"and the others are interned and shared as %s does. old is only read, and may be read "+
			"by other goroutines at the same time; when it is nil, %s is %s. "+
			"A generated factory's informers call it through the factory's Intern.",
			name, walker, walker, name, walker, name, walker))
		fmt.Fprintf(&b, "func %s(%s, old *%s) {\n\tif %s == nil {\n\t\treturn\n\t}\n", name, v, e.typ(t), v)
	} else {
		writeComment(&b, "", fmt.Sprintf("%s is %s for a new version of %s whose earlier version, old, "+
			"may give it equal parts.", name, walker, article(t.Name.Name)))
		fmt.Fprintf(&b, "func %s(%s, old *%s) {\n", name, v, e.typ(t))
	}
	fmt.Fprintf(&b, "\tif old == nil {\n\t\t%s(%s)\n\t\treturn\n\t}\n", walker, v)
	for _, m := range t.Members {
		if p := g.policy(t, m); p == unique || p == optedOut {
			continue
		}
		for _, l := range e.fieldLines(m.Type, v+"."+m.Name, "old."+m.Name) {
			b.WriteString("\t" + strings.ReplaceAll(l, "\n", "\n\t") + "\n")
		}
	}
	b.WriteString("}")
	return b.String()
}

// equalerFunc is the equality function of shareable struct t: every field,
// in declaration order, compared as its kind is (see intern.Equal). A
// FieldsV1's one field, Raw, is read through GetRawBytes (see isFieldsV1).
func (e *emitter) equalerFunc(t *types.Type, name string) string {
	var terms []string
	if isFieldsV1(t) {
		terms = []string{fmt.Sprintf("%s(a.GetRawBytes(), b.GetRawBytes())", e.in("EqualBytes"))}
	} else {
		for _, m := range t.Members {
			terms = append(terms, e.equalExpr(m.Type, "a."+m.Name, "b."+m.Name))
		}
	}
	if len(terms) == 0 {
		terms = []string{"true"}
	}
	var b strings.Builder
	writeComment(&b, "", fmt.Sprintf("%s reports whether two %s are equal, field by field: only if they are "+
		"reflect.DeepEqual (see %s).", name, plural(t.Name.Name), e.in("Equal")))
	fmt.Fprintf(&b, "func %s(a, b *%s) bool {\n\treturn %s\n}", name, e.typ(t), strings.Join(terms, " &&\n\t\t"))
	return b.String()
}

// plural names more than one value of a type: "Probes", "LocalObjectReferences".
func plural(name string) string {
	switch {
	case strings.HasSuffix(name, "s"), strings.HasSuffix(name, "x"), strings.HasSuffix(name, "sh"), strings.HasSuffix(name, "ch"):
		return name + "es"
	case strings.HasSuffix(name, "y") && len(name) > 1 && !strings.ContainsRune("aeiou", rune(name[len(name)-2])):
		return name[:len(name)-1] + "ies"
	}
	return name + "s"
}

// equalExpr is the expression an equality function compares a and b, of
// type t, which encodable accepts, with: encodeLines' counterpart.
func (e *emitter) equalExpr(t *types.Type, a, b string) string {
	switch {
	case isStringKind(t), isBoolKind(t), isIntKind(t):
		return fmt.Sprintf("%s == %s", a, b)
	case isQuantity(t):
		return fmt.Sprintf("%s(&%s, &%s)", e.in("EqualQuantity"), a, b)
	case t.Kind == types.Struct:
		return fmt.Sprintf("%s(&%s, &%s)", e.equaler(t), a, b)
	case t.Kind == types.Pointer:
		el := t.Elem
		switch {
		case isStringKind(el), isBoolKind(el), isIntKind(el):
			return fmt.Sprintf("%s(%s, %s)", e.in("EqualPtr"), a, b)
		case isQuantity(el):
			return fmt.Sprintf("%s(%s, %s, %s)", e.in("EqualPtrFunc"), a, b, e.in("EqualQuantity"))
		case el.Kind == types.Struct:
			return fmt.Sprintf("%s(%s, %s, %s)", e.in("EqualPtrFunc"), a, b, e.equaler(el))
		}
	}
	switch u := unalias(t); u.Kind {
	case types.Slice:
		el := u.Elem
		switch {
		case isPlain(el, "byte"):
			return fmt.Sprintf("%s(%s, %s)", e.in("EqualBytes"), a, b)
		case isStringKind(el), isBoolKind(el), isIntKind(el):
			return fmt.Sprintf("%s(%s, %s)", e.in("EqualSlice"), a, b)
		case el.Kind == types.Struct:
			return fmt.Sprintf("%s(%s, %s, %s)", e.in("EqualSliceFunc"), a, b, e.equaler(el))
		}
	case types.Map:
		if isQuantity(u.Elem) {
			return fmt.Sprintf("%s(%s, %s)", e.in("EqualQuantityMap"), a, b)
		}
		return fmt.Sprintf("%s(%s, %s)", e.in("EqualMap"), a, b)
	}
	// Not reached for the types encodable accepts.
	e.g.errs = append(e.g.errs, fmt.Errorf("interning: no equality for %s", t.Name))
	return "false"
}

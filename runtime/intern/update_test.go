package intern

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
)

// updEqualPort is the generated equality a transform would use for port
// (see equal.go): every field, pointers compared by value.
func updEqualPort(a, b *port) bool {
	return a.Name == b.Name && a.Number == b.Number && EqualPtr(a.Protocol, b.Protocol)
}

// mapData is the pointer a map value is, for identity checks.
func mapData[K comparable, V any](m map[K]V) unsafe.Pointer {
	return reflect.ValueOf(m).UnsafePointer()
}

// StringFrom gives back old itself (its bytes, not a copy) when the new
// string equals it, and String's canonical copy when it does not: never
// the caller's own bytes, and never old's bytes for another content.
func TestStringFrom(t *testing.T) {
	old := fresh("update-path-namespace")
	s := fresh("update-path-namespace")
	if unsafe.StringData(s) == unsafe.StringData(old) {
		t.Fatal("test strings share their bytes")
	}
	if got := StringFrom(s, old); got != old || unsafe.StringData(got) != unsafe.StringData(old) {
		t.Errorf("StringFrom(equal) did not return old's bytes (%p, want %p)", unsafe.StringData(got), unsafe.StringData(old))
	}

	changed := fresh("update-path-namespace-changed")
	got := StringFrom(changed, old)
	if got != changed {
		t.Fatalf("StringFrom(%q, %q) = %q", changed, old, got)
	}
	if unsafe.StringData(got) == unsafe.StringData(changed) {
		t.Error("StringFrom(different) returned the caller's bytes, not an interned copy")
	}
	if canon := String(fresh("update-path-namespace-changed")); unsafe.StringData(got) != unsafe.StringData(canon) {
		t.Error("StringFrom(different) did not return String's canonical copy")
	}

	// A different string of the same length is not old either.
	if got := StringFrom(fresh("update-path-namespacf"), old); got != "update-path-namespacf" {
		t.Errorf("StringFrom(%q, %q) = %q", "update-path-namespacf", old, got)
	}

	// A string kind keeps its type and the same behaviour.
	type name string
	oldName := name(fresh("update-path-kind"))
	if n := StringFrom(name(fresh("update-path-kind")), oldName); unsafe.StringData(string(n)) != unsafe.StringData(string(oldName)) {
		t.Error("StringFrom on a string kind did not return old")
	}
	if StringFrom("", "") != "" || StringFrom("", fresh("x")) != "" || StringFrom(fresh("x"), "") != "x" {
		t.Error("StringFrom with empty strings changed a value")
	}
	runtime.KeepAlive(got)
}

// Int32From and Int64From give back old when both point to equal values,
// and otherwise the canonical pointer of Int32/Int64 (nil for nil).
func TestIntFrom(t *testing.T) {
	old32, p32 := ptr(int32(731_001)), ptr(int32(731_001))
	if got := Int32From(p32, old32); got != old32 {
		t.Error("Int32From(equal) did not return old")
	}
	canon32 := Int32(ptr(int32(731_002)))
	if got := Int32From(ptr(int32(731_002)), old32); got != canon32 || *got != 731_002 {
		t.Errorf("Int32From(different) = %p (%d), want the canonical %p", got, *got, canon32)
	}
	if got := Int32From(ptr(int32(731_002)), nil); got != canon32 {
		t.Error("Int32From(p, nil) is not Int32(p)")
	}
	if Int32From(nil, old32) != nil || Int32From(nil, nil) != nil {
		t.Error("Int32From(nil, ...) is not nil")
	}

	old64, p64 := ptr(int64(-731_001)), ptr(int64(-731_001))
	if got := Int64From(p64, old64); got != old64 {
		t.Error("Int64From(equal) did not return old")
	}
	canon64 := Int64(ptr(int64(1 << 40)))
	if got := Int64From(ptr(int64(1<<40)), old64); got != canon64 || *got != 1<<40 {
		t.Errorf("Int64From(different) = %p (%d), want the canonical %p", got, *got, canon64)
	}
	if got := Int64From(ptr(int64(1<<40)), nil); got != canon64 {
		t.Error("Int64From(p, nil) is not Int64(p)")
	}
	if Int64From(nil, old64) != nil || Int64From(nil, nil) != nil {
		t.Error("Int64From(nil, ...) is not nil")
	}
	runtime.KeepAlive(canon32)
	runtime.KeepAlive(canon64)
}

// At points into the slice for an index it has, and is nil past its end
// (and for a nil slice).
func TestAt(t *testing.T) {
	s := []port{{Name: "a"}, {Name: "b"}}
	for i := range s {
		if p := At(s, i); p != &s[i] {
			t.Errorf("At(s, %d) = %p, want &s[%d] = %p", i, p, i, &s[i])
		}
	}
	if At(s, len(s)) != nil || At(s, len(s)+5) != nil {
		t.Error("At past the end is not nil")
	}
	if At(s[:1:2], 1) != nil {
		t.Error("At reads into spare capacity")
	}
	if At[port](nil, 0) != nil || At([]port{}, 0) != nil {
		t.Error("At of an empty slice is not nil")
	}
}

// Pointers.ShareFrom returns old when the values are equal (no lookup), and
// Share's canonical pointer when they differ or there is no old; nil stays
// nil.
func TestPointersShareFrom(t *testing.T) {
	var pool Pointers[port]
	canon := pool.Share(&port{Name: fresh("http"), Number: 80, Protocol: ptr("TCP")}, keyPort, internPort)

	old := &port{Name: fresh("http"), Number: 8080, Protocol: ptr("TCP")} // not canonical
	if got := pool.ShareFrom(&port{Name: fresh("http"), Number: 8080, Protocol: ptr("TCP")}, old, updEqualPort, keyPort, internPort); got != old {
		t.Errorf("ShareFrom(equal) = %p, want old %p", got, old)
	}
	if n := pool.Len(); n != 1 {
		t.Errorf("ShareFrom(equal) stored a value: the pool holds %d, want 1", n)
	}

	p := &port{Name: fresh("http"), Number: 80, Protocol: ptr("TCP")}
	want := *p
	if got := pool.ShareFrom(p, old, updEqualPort, keyPort, internPort); got != canon {
		t.Errorf("ShareFrom(different) = %p, want the canonical %p", got, canon)
	} else if !reflect.DeepEqual(*got, want) {
		t.Errorf("ShareFrom(different) = %+v, want %+v", *got, want)
	}
	if got := pool.ShareFrom(&port{Name: fresh("http"), Number: 80, Protocol: ptr("TCP")}, nil, updEqualPort, keyPort, internPort); got != canon {
		t.Errorf("ShareFrom(p, nil) = %p, want the canonical %p", got, canon)
	}
	// Equal except for a nil against a set pointer: different.
	if got := pool.ShareFrom(&port{Name: fresh("http"), Number: 80}, canon, updEqualPort, keyPort, internPort); got == canon || got.Protocol != nil {
		t.Error("ShareFrom gave a value with Protocol set for one without")
	}
	if pool.ShareFrom(nil, old, updEqualPort, keyPort, internPort) != nil {
		t.Error("ShareFrom(nil, old) is not nil")
	}
	// A new value (nothing canonical yet) becomes canonical itself, after
	// prepare.
	q := &port{Name: fresh("grpc"), Number: 9090}
	if got := pool.ShareFrom(q, old, updEqualPort, keyPort, internPort); got != q {
		t.Error("ShareFrom(new value) did not make it canonical")
	} else if unsafe.StringData(q.Name) != unsafe.StringData(String("grpc")) {
		t.Error("prepare did not run on the value ShareFrom made canonical")
	}
	runtime.KeepAlive(canon)
}

// Slices.ShareFrom returns old when it has the length of s and equal
// elements, and Share's canonical slice when an element differs, the
// lengths differ or old is nil; nil and empty slices come back as they are.
func TestSlicesShareFrom(t *testing.T) {
	var pool Slices[port]
	mk := func(numbers ...int32) []port {
		s := make([]port, len(numbers), len(numbers)+2) // spare capacity, as a decoder leaves
		for i, n := range numbers {
			s[i] = port{Name: fresh(fmt.Sprint("p", n)), Number: n}
		}
		return s
	}
	canon := pool.Share(mk(1, 2), keyPort, internPort)

	old := mk(3, 4)
	if got := pool.ShareFrom(mk(3, 4), old, updEqualPort, keyPort, internPort); len(got) != 2 || &got[0] != &old[0] {
		t.Error("ShareFrom(equal) did not return old")
	}
	for _, tc := range []struct {
		name string
		old  []port
	}{
		{"an element differs", mk(1, 3)},
		{"old is shorter", mk(1)},
		{"old is longer", mk(1, 2, 3)},
		{"old is nil", nil},
		{"old is empty", []port{}},
	} {
		s := mk(1, 2)
		want := slices.Clone(s)
		got := pool.ShareFrom(s, tc.old, updEqualPort, keyPort, internPort)
		if len(got) != 2 || &got[0] != &canon[0] {
			t.Errorf("%s: ShareFrom did not return the canonical slice", tc.name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ShareFrom = %+v, want %+v", tc.name, got, want)
		}
	}
	// A prefix of old is not old.
	if got := pool.ShareFrom(mk(3), old, updEqualPort, keyPort, internPort); len(got) != 1 || got[0].Number != 3 || &got[0] == &old[0] {
		t.Errorf("ShareFrom(prefix of old) = %+v sharing old's array", got)
	}
	if got := pool.ShareFrom(nil, old, updEqualPort, keyPort, internPort); got != nil {
		t.Errorf("ShareFrom(nil, old) = %#v, want nil", got)
	}
	if got := pool.ShareFrom([]port{}, old, updEqualPort, keyPort, internPort); got == nil || len(got) != 0 {
		t.Errorf("ShareFrom(empty, old) = %#v, want an empty, non-nil slice", got)
	}
	if got := pool.ShareFrom(nil, []port{}, updEqualPort, keyPort, internPort); got != nil {
		t.Errorf("ShareFrom(nil, empty) = %#v, want nil", got)
	}
	runtime.KeepAlive(canon)
}

// Maps.ShareFrom returns old when equal reports it equal, and Share's
// canonical map when an entry differs, the sizes differ or old is nil; nil
// and empty maps come back as they are.
func TestMapsShareFrom(t *testing.T) {
	var pool Maps[string, string]
	prepare := StringEntry[string, string]
	equal := EqualMap[map[string]string]
	mk := func(kv ...string) map[string]string {
		m := make(map[string]string, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			m[fresh(kv[i])] = fresh(kv[i+1])
		}
		return m
	}
	canon := pool.Share(mk("app", "web", "tier", "front"), StringMap, prepare)

	old := mk("app", "db")
	if got := pool.ShareFrom(mk("app", "db"), old, equal, StringMap, prepare); mapData(got) != mapData(old) {
		t.Error("ShareFrom(equal) did not return old")
	}
	for _, tc := range []struct {
		name string
		old  map[string]string
	}{
		{"a value differs", mk("app", "web", "tier", "back")},
		{"a key differs", mk("app", "web", "layer", "front")},
		{"old is smaller", mk("app", "web")},
		{"old is larger", mk("app", "web", "tier", "front", "x", "y")},
		{"old is nil", nil},
		{"old is empty", map[string]string{}},
	} {
		m := mk("app", "web", "tier", "front")
		want := maps.Clone(m)
		got := pool.ShareFrom(m, tc.old, equal, StringMap, prepare)
		if mapData(got) != mapData(canon) {
			t.Errorf("%s: ShareFrom did not return the canonical map", tc.name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ShareFrom = %v, want %v", tc.name, got, want)
		}
	}
	if got := pool.ShareFrom(nil, old, equal, StringMap, prepare); got != nil {
		t.Errorf("ShareFrom(nil, old) = %#v, want nil", got)
	}
	if got := pool.ShareFrom(map[string]string{}, old, equal, StringMap, prepare); got == nil || len(got) != 0 {
		t.Errorf("ShareFrom(empty, old) = %#v, want an empty, non-nil map", got)
	}
	if got := pool.ShareFrom(nil, map[string]string{}, equal, StringMap, prepare); got != nil {
		t.Errorf("ShareFrom(nil, empty) = %#v, want nil", got)
	}

	// Quantities: "1" and "1000m" are not DeepEqual, so a map holding one
	// must not be given old holding the other.
	var rl Maps[string, resource.Quantity]
	oldRL := map[string]resource.Quantity{"cpu": resource.MustParse("1000m")}
	newRL := map[string]resource.Quantity{"cpu": resource.MustParse("1")}
	want := maps.Clone(newRL)
	if got := rl.ShareFrom(newRL, oldRL, EqualQuantityMap[map[string]resource.Quantity], QuantityMap[string], StringKey[string, resource.Quantity]); mapData(got) == mapData(oldRL) || !reflect.DeepEqual(got, want) {
		t.Errorf(`ShareFrom({cpu: "1"}, {cpu: "1000m"}) = %v, want %v and not old`, got, want)
	}
	runtime.KeepAlive(canon)
}

// Random small values through every ShareFrom, against random earlier
// versions (often equal, sometimes DeepEqual copies, sometimes results of
// earlier calls): the result is always reflect.DeepEqual to the input, nil
// and empty slices and maps keep their nil-ness, and an input DeepEqual to
// a non-empty old gives back old itself.
func TestShareFromProperty(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0x5eed))

	names := []string{"http", "https", "metrics", ""}
	protocols := []string{"TCP", "UDP"}
	quantities := []string{"1", "1000m", "500m", "0.5", "128Mi", "134217728", "12345678901234567890"}
	randPort := func() port {
		p := port{Name: fresh(names[r.IntN(len(names))]), Number: int32(r.IntN(3))}
		if r.IntN(2) == 0 {
			p.Protocol = ptr(fresh(protocols[r.IntN(len(protocols))]))
		}
		return p
	}
	randSlice := func() []port {
		switch n := r.IntN(5); n {
		case 0:
			return nil
		default:
			s := make([]port, n-1, n+r.IntN(3))
			for i := range s {
				s[i] = randPort()
			}
			return s
		}
	}
	randLabels := func() map[string]string {
		switch n := r.IntN(4); n {
		case 0:
			return nil
		default:
			m := make(map[string]string)
			for range n - 1 {
				m[fresh(names[r.IntN(len(names))])] = fresh(protocols[r.IntN(len(protocols))])
			}
			return m
		}
	}
	randQuantity := func() resource.Quantity {
		q := resource.MustParse(quantities[r.IntN(len(quantities))])
		if r.IntN(3) == 0 {
			_ = q.String() // caches the text in some copies
		}
		return q
	}
	randResources := func() map[string]resource.Quantity {
		switch n := r.IntN(4); n {
		case 0:
			return nil
		default:
			m := make(map[string]resource.Quantity)
			for range n - 1 {
				m[fresh([]string{"cpu", "memory"}[r.IntN(2)])] = randQuantity()
			}
			return m
		}
	}
	clonePort := func(p port) port {
		if p.Protocol != nil {
			p.Protocol = ptr(fresh(*p.Protocol))
		}
		p.Name = fresh(p.Name)
		return p
	}
	cloneSlice := func(s []port) []port {
		if s == nil {
			return nil
		}
		c := make([]port, len(s))
		for i := range s {
			c[i] = clonePort(s[i])
		}
		return c
	}

	var (
		ptrs   Pointers[port]
		slcs   Slices[port]
		labels Maps[string, string]
		res    Maps[string, resource.Quantity]
	)
	var lastP *port
	var lastS []port
	var lastL map[string]string
	var lastR map[string]resource.Quantity
	const rounds = 3000
	for i := range rounds {
		// Pointers.
		var p *port
		if r.IntN(8) > 0 {
			v := randPort()
			p = &v
		}
		copyP := func() *port {
			if p == nil {
				return nil
			}
			c := clonePort(*p)
			return &c
		}
		oldP := pickOld(r, copyP, lastP, func() *port { v := randPort(); return &v })
		wantP := copyP()
		gotP := ptrs.ShareFrom(p, oldP, updEqualPort, keyPort, internPort)
		if !reflect.DeepEqual(gotP, wantP) {
			t.Fatalf("round %d: Pointers.ShareFrom(%+v, %+v) = %+v", i, wantP, oldP, gotP)
		}
		if p != nil && oldP != nil && reflect.DeepEqual(wantP, oldP) && gotP != oldP {
			t.Fatalf("round %d: Pointers.ShareFrom of a value DeepEqual to old did not return old", i)
		}
		lastP = gotP

		// Slices.
		s := randSlice()
		oldS := pickOld(r, func() []port { return cloneSlice(s) }, lastS, randSlice)
		wantS := cloneSlice(s)
		gotS := slcs.ShareFrom(s, oldS, updEqualPort, keyPort, internPort)
		if !reflect.DeepEqual(gotS, wantS) {
			t.Fatalf("round %d: Slices.ShareFrom(%#v, %#v) = %#v", i, wantS, oldS, gotS)
		}
		if len(s) > 0 && reflect.DeepEqual(wantS, oldS) && &gotS[0] != &oldS[0] {
			t.Fatalf("round %d: Slices.ShareFrom of a slice DeepEqual to old did not return old", i)
		}
		lastS = gotS

		// Maps of strings.
		l := randLabels()
		oldL := pickOld(r, func() map[string]string { return maps.Clone(l) }, lastL, randLabels)
		wantL := maps.Clone(l)
		gotL := labels.ShareFrom(l, oldL, EqualMap[map[string]string], StringMap, StringEntry[string, string])
		if !reflect.DeepEqual(gotL, wantL) {
			t.Fatalf("round %d: Maps.ShareFrom(%#v, %#v) = %#v", i, wantL, oldL, gotL)
		}
		if len(l) > 0 && reflect.DeepEqual(wantL, oldL) && mapData(gotL) != mapData(oldL) {
			t.Fatalf("round %d: Maps.ShareFrom of a map DeepEqual to old did not return old", i)
		}
		lastL = gotL

		// Maps of quantities: EqualQuantityMap may call DeepEqual maps
		// unequal (big decimals), so old is not required back.
		m := randResources()
		oldR := pickOld(r, func() map[string]resource.Quantity { return maps.Clone(m) }, lastR, randResources)
		wantR := maps.Clone(m)
		gotR := res.ShareFrom(m, oldR, EqualQuantityMap[map[string]resource.Quantity], QuantityMap[string], StringKey[string, resource.Quantity])
		if !reflect.DeepEqual(gotR, wantR) {
			t.Fatalf("round %d: Maps.ShareFrom(%v, %v) = %v", i, wantR, oldR, gotR)
		}
		lastR = gotR
	}
}

// pickOld draws the earlier version a round of TestShareFromProperty gives
// ShareFrom: an equal copy of the new value, the last round's result,
// another random value, or none (the zero value), a quarter of the time
// each.
func pickOld[T any](r *rand.Rand, equalCopy func() T, last T, other func() T) T {
	switch r.IntN(4) {
	case 0:
		return equalCopy()
	case 1:
		return last
	case 2:
		return other()
	}
	var none T
	return none
}

// ClipFrom gives back old only when the elements are the same bit for bit:
// the same string bytes, the same pointers; an equal element holding a
// string of its own, a different element or another length gives Clip(s),
// a copy without spare capacity, and nil and empty slices come back as
// they are.
func TestClipFrom(t *testing.T) {
	proto := ptr("TCP")
	old := []port{{Name: String(fresh("http")), Number: 80, Protocol: proto}, {Name: String(fresh("dns")), Number: 53, Protocol: proto}}
	same := make([]port, 2, 4)
	copy(same, old)
	if got := ClipFrom(same, old); &got[0] != &old[0] {
		t.Error("bit-identical elements did not give old's array")
	}
	ownString := make([]port, 2, 4)
	copy(ownString, old)
	ownString[1].Name = fresh("dns")
	got := ClipFrom(ownString, old)
	if &got[0] == &old[0] || &got[0] == &ownString[0] || cap(got) != 2 || !reflect.DeepEqual(got, ownString) {
		t.Errorf("an element with its own string: got %p cap %d, want a clipped copy of s", &got[0], cap(got))
	}
	otherPointer := make([]port, 2, 2)
	copy(otherPointer, old)
	otherPointer[0].Protocol = ptr("TCP")
	if got := ClipFrom(otherPointer, old); &got[0] != &otherPointer[0] {
		t.Error("an element with its own pointer and no spare capacity was not returned as it is")
	}
	if got := ClipFrom(same[:1], old); &got[0] == &old[0] || len(got) != 1 {
		t.Error("a shorter slice was given old's array")
	}
	if got := ClipFrom([]port(nil), old); got != nil {
		t.Error("nil did not stay nil")
	}
	if got := ClipFrom([]port{}, old); got == nil || len(got) != 0 {
		t.Error("an empty slice did not stay empty and not nil")
	}
	if got := ClipFrom(same, nil); &got[0] == &same[0] || cap(got) != 2 {
		t.Error("without old, the result is not Clip(s)")
	}
}

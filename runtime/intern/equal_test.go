package intern

import (
	"reflect"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
)

// equalCase is one comparison of an Equal* function. exact is set for
// ordinary values, where the function must report exactly
// reflect.DeepEqual(a, b); when it is not (quantities held as big decimals)
// the function may report false for DeepEqual values, and want says what it
// reports. In every case, true must imply DeepEqual.
type equalCase struct {
	name  string
	a, b  any
	got   bool
	exact bool
	want  bool
}

// checkEqualCases checks cases against reflect.DeepEqual.
func checkEqualCases(t *testing.T, fn string, cases []equalCase) {
	t.Helper()
	for _, c := range cases {
		deep := reflect.DeepEqual(c.a, c.b)
		switch {
		case c.got && !deep:
			t.Errorf("%s(%s) = true, but the values are not DeepEqual: %#v, %#v", fn, c.name, c.a, c.b)
		case c.exact && c.got != deep:
			t.Errorf("%s(%s) = %v, DeepEqual = %v", fn, c.name, c.got, deep)
		case !c.exact && c.got != c.want:
			t.Errorf("%s(%s) = %v, want %v (DeepEqual = %v)", fn, c.name, c.got, c.want, deep)
		}
	}
}

// exact returns the case of an ordinary comparison.
func exactCase(name string, a, b any, got bool) equalCase {
	return equalCase{name: name, a: a, b: b, got: got, exact: true}
}

type equalKey struct {
	Name  string
	Port  int32
	Ready bool
}

type eqLabels map[string]string

type eqNames []string

// Equal reports DeepEqual for comparable pointed-to values.
func TestEqual(t *testing.T) {
	a, b := equalKey{"x", 1, true}, equalKey{"x", 1, true}
	c := equalKey{"x", 1, false}
	i1, i2, i3 := 7, 7, 8
	s1, s2, s3 := fresh("abc"), fresh("abc"), fresh("abd")
	checkEqualCases(t, "Equal", []equalCase{
		exactCase("equal structs", &a, &b, Equal(&a, &b)),
		exactCase("structs differing in a bool", &a, &c, Equal(&a, &c)),
		exactCase("same pointer", &a, &a, Equal(&a, &a)),
		exactCase("equal ints", &i1, &i2, Equal(&i1, &i2)),
		exactCase("different ints", &i1, &i3, Equal(&i1, &i3)),
		exactCase("equal strings", &s1, &s2, Equal(&s1, &s2)),
		exactCase("different strings", &s1, &s3, Equal(&s1, &s3)),
	})
}

// EqualPtr reports DeepEqual for pointers, nil ones included.
func TestEqualPtr(t *testing.T) {
	var none *string
	x, y, z := ptr(fresh("TCP")), ptr(fresh("TCP")), ptr(fresh("UDP"))
	empty := ptr("")
	n1, n2 := ptr(int32(0)), ptr(int32(0))
	checkEqualCases(t, "EqualPtr", []equalCase{
		exactCase("nil, nil", none, none, EqualPtr(none, none)),
		exactCase("nil, set", none, x, EqualPtr(none, x)),
		exactCase("set, nil", x, none, EqualPtr(x, none)),
		exactCase("nil, pointer to empty", none, empty, EqualPtr(none, empty)),
		exactCase("same pointer", x, x, EqualPtr(x, x)),
		exactCase("equal values", x, y, EqualPtr(x, y)),
		exactCase("different values", x, z, EqualPtr(x, z)),
		exactCase("zero ints", n1, n2, EqualPtr(n1, n2)),
		exactCase("nil int, zero int", (*int32)(nil), n1, EqualPtr(nil, n1)),
	})
}

// probeLike is a pointed-to type that is not comparable, compared by a
// function as a generated one would.
type probeLike struct {
	Command []string
	Period  int32
}

func equalProbeLike(a, b *probeLike) bool {
	return EqualSlice(a.Command, b.Command) && a.Period == b.Period
}

// EqualPtrFunc reports DeepEqual for pointers to values the function
// compares, nil ones included.
func TestEqualPtrFunc(t *testing.T) {
	var none *probeLike
	a := &probeLike{Command: []string{"cat", "/tmp/ready"}, Period: 10}
	b := &probeLike{Command: []string{"cat", "/tmp/ready"}, Period: 10}
	c := &probeLike{Command: []string{"cat", "/tmp/live"}, Period: 10}
	d := &probeLike{Period: 10}
	e := &probeLike{Command: []string{}, Period: 10}
	calls := 0
	counting := func(x, y *probeLike) bool { calls++; return equalProbeLike(x, y) }
	checkEqualCases(t, "EqualPtrFunc", []equalCase{
		exactCase("nil, nil", none, none, EqualPtrFunc(none, none, counting)),
		exactCase("nil, set", none, a, EqualPtrFunc(none, a, counting)),
		exactCase("set, nil", a, none, EqualPtrFunc(a, none, counting)),
		exactCase("same pointer", a, a, EqualPtrFunc(a, a, counting)),
		exactCase("equal values", a, b, EqualPtrFunc(a, b, counting)),
		exactCase("different values", a, c, EqualPtrFunc(a, c, counting)),
		exactCase("nil slice, empty slice", d, e, EqualPtrFunc(d, e, counting)),
	})
	if calls != 3 {
		t.Errorf("the equality function was called %d times, want 3 (only for two different non-nil pointers)", calls)
	}
}

// EqualSlice reports DeepEqual, which tells a nil slice from an empty one.
func TestEqualSlice(t *testing.T) {
	a, b := []string{"a", "b"}, []string{fresh("a"), fresh("b")}
	checkEqualCases(t, "EqualSlice", []equalCase{
		exactCase("nil, nil", []string(nil), []string(nil), EqualSlice([]string(nil), nil)),
		exactCase("nil, empty", []string(nil), []string{}, EqualSlice(nil, []string{})),
		exactCase("empty, nil", []string{}, []string(nil), EqualSlice([]string{}, nil)),
		exactCase("empty, empty", []string{}, []string{}, EqualSlice([]string{}, []string{})),
		exactCase("equal", a, b, EqualSlice(a, b)),
		exactCase("same", a, a, EqualSlice(a, a)),
		exactCase("other order", a, []string{"b", "a"}, EqualSlice(a, []string{"b", "a"})),
		exactCase("prefix", a, a[:1], EqualSlice(a, a[:1])),
		exactCase("longer", a, append(b, ""), EqualSlice(a, append(b, ""))),
		exactCase("nil, one empty string", []string(nil), []string{""}, EqualSlice(nil, []string{""})),
		exactCase("named type, nil, empty", eqNames(nil), eqNames{}, EqualSlice(eqNames(nil), eqNames{})),
		exactCase("named type, equal", eqNames{"x"}, eqNames{"x"}, EqualSlice(eqNames{"x"}, eqNames{"x"})),
		exactCase("ints", []int32{1, 2}, []int32{1, 2}, EqualSlice([]int32{1, 2}, []int32{1, 2})),
		exactCase("ints differ", []int32{1, 2}, []int32{1, 3}, EqualSlice([]int32{1, 2}, []int32{1, 3})),
	})
}

// EqualBytes reports DeepEqual for byte slices.
func TestEqualBytes(t *testing.T) {
	checkEqualCases(t, "EqualBytes", []equalCase{
		exactCase("nil, nil", []byte(nil), []byte(nil), EqualBytes(nil, nil)),
		exactCase("nil, empty", []byte(nil), []byte{}, EqualBytes(nil, []byte{})),
		exactCase("empty, nil", []byte{}, []byte(nil), EqualBytes([]byte{}, nil)),
		exactCase("empty, empty", []byte{}, []byte{}, EqualBytes([]byte{}, []byte{})),
		exactCase("equal", []byte("ca.crt"), []byte("ca.crt"), EqualBytes([]byte("ca.crt"), []byte("ca.crt"))),
		exactCase("different", []byte("ca.crt"), []byte("ca.key"), EqualBytes([]byte("ca.crt"), []byte("ca.key"))),
		exactCase("prefix", []byte("ca"), []byte("ca.crt"), EqualBytes([]byte("ca"), []byte("ca.crt"))),
		exactCase("nil, zero byte", []byte(nil), []byte{0}, EqualBytes(nil, []byte{0})),
	})
}

// EqualSliceFunc reports DeepEqual for slices of values the function
// compares.
func TestEqualSliceFunc(t *testing.T) {
	eq := equalProbeLike
	a := []probeLike{{Command: []string{"a"}, Period: 1}, {Period: 2}}
	b := []probeLike{{Command: []string{fresh("a")}, Period: 1}, {Period: 2}}
	c := []probeLike{{Command: []string{"a"}, Period: 1}, {Command: []string{}, Period: 2}}
	checkEqualCases(t, "EqualSliceFunc", []equalCase{
		exactCase("nil, nil", []probeLike(nil), []probeLike(nil), EqualSliceFunc([]probeLike(nil), nil, eq)),
		exactCase("nil, empty", []probeLike(nil), []probeLike{}, EqualSliceFunc(nil, []probeLike{}, eq)),
		exactCase("empty, nil", []probeLike{}, []probeLike(nil), EqualSliceFunc([]probeLike{}, nil, eq)),
		exactCase("empty, empty", []probeLike{}, []probeLike{}, EqualSliceFunc([]probeLike{}, []probeLike{}, eq)),
		exactCase("equal", a, b, EqualSliceFunc(a, b, eq)),
		exactCase("nil against empty inside an element", a, c, EqualSliceFunc(a, c, eq)),
		exactCase("prefix", a, a[:1], EqualSliceFunc(a, a[:1], eq)),
		exactCase("longer", a[:1], a, EqualSliceFunc(a[:1], a, eq)),
	})
}

// EqualMap reports DeepEqual for maps, which tells a nil map from an empty
// one.
func TestEqualMap(t *testing.T) {
	a := map[string]string{"app": "web", "tier": "front"}
	b := map[string]string{fresh("tier"): fresh("front"), fresh("app"): fresh("web")}
	checkEqualCases(t, "EqualMap", []equalCase{
		exactCase("nil, nil", map[string]string(nil), map[string]string(nil), EqualMap(map[string]string(nil), nil)),
		exactCase("nil, empty", map[string]string(nil), map[string]string{}, EqualMap(nil, map[string]string{})),
		exactCase("empty, nil", map[string]string{}, map[string]string(nil), EqualMap(map[string]string{}, nil)),
		exactCase("empty, empty", map[string]string{}, map[string]string{}, EqualMap(map[string]string{}, map[string]string{})),
		exactCase("equal", a, b, EqualMap(a, b)),
		exactCase("same", a, a, EqualMap(a, a)),
		exactCase("a value differs", a, map[string]string{"app": "web", "tier": "back"}, EqualMap(a, map[string]string{"app": "web", "tier": "back"})),
		exactCase("a key differs", a, map[string]string{"app": "web", "layer": "front"}, EqualMap(a, map[string]string{"app": "web", "layer": "front"})),
		exactCase("subset", a, map[string]string{"app": "web"}, EqualMap(a, map[string]string{"app": "web"})),
		exactCase("superset", map[string]string{"app": "web"}, a, EqualMap(map[string]string{"app": "web"}, a)),
		exactCase("empty value against missing key", map[string]string{"a": ""}, map[string]string{"b": ""}, EqualMap(map[string]string{"a": ""}, map[string]string{"b": ""})),
		exactCase("nil, one empty entry", map[string]string(nil), map[string]string{"": ""}, EqualMap(nil, map[string]string{"": ""})),
		exactCase("named type, nil, empty", eqLabels(nil), eqLabels{}, EqualMap(eqLabels(nil), eqLabels{})),
		exactCase("named type, equal", eqLabels{"a": "b"}, eqLabels{"a": "b"}, EqualMap(eqLabels{"a": "b"}, eqLabels{"a": "b"})),
		exactCase("ints", map[string]int32{"a": 1}, map[string]int32{"a": 1}, EqualMap(map[string]int32{"a": 1}, map[string]int32{"a": 1})),
		exactCase("ints differ", map[string]int32{"a": 1}, map[string]int32{"a": 0}, EqualMap(map[string]int32{"a": 1}, map[string]int32{"a": 0})),
	})
}

// bigQuantity returns a quantity parsed from s that holds an
// arbitrary-precision decimal (inf.Dec), failing the test if it does not.
func bigQuantity(t *testing.T, s string) resource.Quantity {
	t.Helper()
	q := resource.MustParse(s)
	if (*quantityLayout)(unsafe.Pointer(&q)).d.Dec == nil {
		t.Fatalf("%q is not held as an inf.Dec: the test does not cover big decimals", s)
	}
	return q
}

// withText returns q after caching its text (String).
func withText(q resource.Quantity) resource.Quantity {
	_ = q.String()
	return q
}

// EqualQuantity reports DeepEqual for quantities held as int64 amounts:
// value and scale ("1" is not "1000m"), cached text and format. Quantities
// held as big decimals compare unequal, even when DeepEqual.
func TestEqualQuantity(t *testing.T) {
	if !quantityLayoutOK {
		t.Fatal("resource.Quantity does not have the expected layout: EqualQuantity is always false")
	}
	eq := func(name string, a, b resource.Quantity) equalCase {
		return exactCase(name, a, b, EqualQuantity(&a, &b))
	}
	uncached := resource.MustParse("0.5")
	cached := withText(resource.MustParse("0.5"))
	if reflect.DeepEqual(uncached, cached) {
		t.Fatal(`String() did not change a parsed "0.5": the test does not cover cached texts`)
	}
	bigA, bigB := bigQuantity(t, "12345678901234567890"), bigQuantity(t, "12345678901234567890")
	bigBinary := bigQuantity(t, "100Ei")
	small := resource.MustParse("1")
	cases := []equalCase{
		eq(`"1", "1000m"`, resource.MustParse("1"), resource.MustParse("1000m")),
		eq(`"1000m", "1"`, resource.MustParse("1000m"), resource.MustParse("1")),
		eq(`"1", "1"`, resource.MustParse("1"), resource.MustParse("1")),
		eq(`"128Mi", "128Mi"`, resource.MustParse("128Mi"), resource.MustParse("128Mi")),
		eq(`"128Mi", "134217728"`, resource.MustParse("128Mi"), resource.MustParse("134217728")),
		eq(`"1e3", "1k"`, resource.MustParse("1e3"), resource.MustParse("1k")),
		eq(`"1e100", "1e100"`, resource.MustParse("1e100"), resource.MustParse("1e100")),
		eq("text cached, not", cached, uncached),
		eq("text not cached, cached", uncached, cached),
		eq("both texts cached", cached, withText(resource.MustParse("0.5"))),
		eq(`"0.5", "500m"`, resource.MustParse("0.5"), resource.MustParse("500m")),
		eq("DecimalSI, BinarySI", *resource.NewQuantity(1, resource.DecimalSI), *resource.NewQuantity(1, resource.BinarySI)),
		eq("same value, other scale", *resource.NewScaledQuantity(1, resource.Kilo), *resource.NewScaledQuantity(1, resource.Mega)),
		eq("other value, same scale", *resource.NewScaledQuantity(1, resource.Kilo), *resource.NewScaledQuantity(2, resource.Kilo)),
		eq("same value and scale", *resource.NewScaledQuantity(1, resource.Kilo), *resource.NewScaledQuantity(1, resource.Kilo)),
		eq("scaled, unscaled", *resource.NewScaledQuantity(1, resource.Kilo), *resource.NewQuantity(1000, resource.DecimalSI)),
		eq("zero value, zero value", resource.Quantity{}, resource.Quantity{}),
		eq(`zero value, "0"`, resource.Quantity{}, resource.MustParse("0")),
		{name: "big, equal big", a: bigA, b: bigB, got: EqualQuantity(&bigA, &bigB), want: false},
		{name: "big, itself", a: bigA, b: bigA, got: EqualQuantity(&bigA, &bigA), want: false},
		{name: "big, big binary", a: bigA, b: bigBinary, got: EqualQuantity(&bigA, &bigBinary), want: false},
		{name: "big, small", a: bigA, b: small, got: EqualQuantity(&bigA, &small), want: false},
		{name: "small, big", a: small, b: bigA, got: EqualQuantity(&small, &bigA), want: false},
	}
	if !reflect.DeepEqual(bigA, bigB) {
		t.Error("two parses of a big decimal are not DeepEqual: the case does not test what it says")
	}
	checkEqualCases(t, "EqualQuantity", cases)
}

// EqualQuantityMap reports DeepEqual for maps of quantities (nil and empty
// maps told apart), and false for any map holding a big decimal.
func TestEqualQuantityMap(t *testing.T) {
	type rl = map[string]resource.Quantity
	eq := func(name string, a, b rl) equalCase {
		return exactCase(name, a, b, EqualQuantityMap(a, b))
	}
	mk := func(kv ...string) rl {
		m := rl{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = resource.MustParse(kv[i+1])
		}
		return m
	}
	cachedCPU := mk("cpu", "0.5")
	cachedCPU["cpu"] = withText(cachedCPU["cpu"])
	if reflect.DeepEqual(cachedCPU, mk("cpu", "0.5")) {
		t.Fatal("caching a quantity's text did not change it: the test does not cover cached texts")
	}
	big := mk("memory", "1Gi")
	big["huge"] = bigQuantity(t, "12345678901234567890")
	big2 := mk("memory", "1Gi")
	big2["huge"] = bigQuantity(t, "12345678901234567890")
	cases := []equalCase{
		eq("nil, nil", nil, nil),
		eq("nil, empty", nil, rl{}),
		eq("empty, nil", rl{}, nil),
		eq("empty, empty", rl{}, rl{}),
		eq("equal", mk("cpu", "500m", "memory", "128Mi"), mk("memory", "128Mi", "cpu", "500m")),
		eq(`"1", "1000m"`, mk("cpu", "1"), mk("cpu", "1000m")),
		eq("text cached, not", cachedCPU, mk("cpu", "0.5")),
		eq("a key differs", mk("cpu", "1"), mk("memory", "1")),
		eq("subset", mk("cpu", "1"), mk("cpu", "1", "memory", "1Gi")),
		eq("superset", mk("cpu", "1", "memory", "1Gi"), mk("cpu", "1")),
		eq("zero quantity against missing key", rl{"a": {}}, rl{"b": {}}),
		{name: "big decimals", a: big, b: big2, got: EqualQuantityMap(big, big2), want: false},
		{name: "big decimal, same map", a: big, b: big, got: EqualQuantityMap(big, big), want: false},
	}
	checkEqualCases(t, "EqualQuantityMap", cases)

	// A named map type such as corev1.ResourceList.
	type resourceList map[string]resource.Quantity
	a, b := resourceList{"cpu": resource.MustParse("2")}, resourceList{"cpu": resource.MustParse("2")}
	if !EqualQuantityMap(a, b) || EqualQuantityMap(a, resourceList(nil)) {
		t.Error("EqualQuantityMap on a named map type does not report DeepEqual")
	}
}

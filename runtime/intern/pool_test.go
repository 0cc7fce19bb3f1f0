package intern

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
)

type port struct {
	Name     string
	Number   int32
	Protocol *string
}

func keyPort(k *Key, p *port) {
	k.String(p.Name)
	k.Int(int64(p.Number))
	StringPtr(k, p.Protocol)
}

func internPort(p *port) { p.Name = String(p.Name) }

func ptr[T any](v T) *T { return &v }

func TestPointersShare(t *testing.T) {
	var pool Pointers[port]
	a := &port{Name: fresh("http"), Number: 8080, Protocol: ptr("TCP")}
	b := &port{Name: fresh("http"), Number: 8080, Protocol: ptr("TCP")}
	c := &port{Name: fresh("http"), Number: 8080}
	ca, cb, cc := pool.Share(a, keyPort, internPort), pool.Share(b, keyPort, internPort), pool.Share(c, keyPort, internPort)
	if ca != a || cb != a {
		t.Errorf("equal values were not given the first pointer: %p %p, want %p", ca, cb, a)
	}
	if cc != c {
		t.Error("a value with a nil field was shared with one whose field is set")
	}
	if !reflect.DeepEqual(cb, b) || !reflect.DeepEqual(cc, c) {
		t.Error("a shared value is not DeepEqual to the one it replaces")
	}
	if pool.Share(nil, keyPort, internPort) != nil {
		t.Error("Share(nil) is not nil")
	}
	invalid := func(k *Key, p *port) { keyPort(k, p); k.Invalidate() }
	d := &port{Name: fresh("http"), Number: 8080, Protocol: ptr("TCP")}
	if pool.Share(d, invalid, internPort) != d {
		t.Error("a value whose key is invalid was shared")
	}
	if unsafe.StringData(d.Name) != unsafe.StringData(a.Name) {
		t.Error("prepare did not run on a value whose key is invalid")
	}
}

func TestSlicesShare(t *testing.T) {
	var pool Slices[port]
	mk := func() []port {
		s := make([]port, 2, 4)
		s[0] = port{Name: fresh("http"), Number: 80}
		s[1] = port{Name: fresh("metrics"), Number: 9090}
		return s
	}
	a, b := mk(), mk()
	ca, cb := pool.Share(a, keyPort, internPort), pool.Share(b, keyPort, internPort)
	if &ca[0] != &cb[0] {
		t.Error("equal slices were not shared")
	}
	if &ca[0] == &a[0] || cap(ca) != len(ca) {
		t.Errorf("the canonical slice is not a copy without spare capacity (cap %d)", cap(ca))
	}
	if !reflect.DeepEqual(ca, a) || !reflect.DeepEqual(cb, b) {
		t.Error("a shared slice is not DeepEqual to the one it replaces")
	}
	if unsafe.StringData(ca[0].Name) != unsafe.StringData(String("http")) {
		t.Error("prepare did not run on the canonical slice's elements")
	}
	if s := pool.Share(a[:1], keyPort, internPort); &s[0] == &ca[0] || len(s) != 1 {
		t.Error("a prefix was shared with the whole slice")
	}
	if pool.Share(nil, keyPort, internPort) != nil {
		t.Error("Share(nil) is not nil")
	}
	if e := pool.Share([]port{}, keyPort, internPort); e == nil {
		t.Error("an empty slice became nil")
	}
}

func TestMapsShare(t *testing.T) {
	var pool Maps[string, string]
	prepare := StringEntry[string, string]
	mk := func() map[string]string {
		return map[string]string{fresh("app"): fresh("checkout"), fresh("team"): fresh("payments")}
	}
	a, b := mk(), mk()
	ca, cb := pool.Share(a, StringMap, prepare), pool.Share(b, StringMap, prepare)
	if reflect.ValueOf(ca).UnsafePointer() != reflect.ValueOf(cb).UnsafePointer() {
		t.Error("equal maps were not shared")
	}
	if !reflect.DeepEqual(ca, a) || !reflect.DeepEqual(cb, b) {
		t.Error("a shared map is not DeepEqual to the one it replaces")
	}
	c := map[string]string{"app": "checkout"}
	if cc := pool.Share(c, StringMap, prepare); !reflect.DeepEqual(cc, c) {
		t.Errorf("Share(%v) = %v", c, cc)
	}
	if pool.Share(nil, StringMap, prepare) != nil {
		t.Error("Share(nil) is not nil")
	}
	if e := pool.Share(map[string]string{}, StringMap, prepare); e == nil {
		t.Error("an empty map became nil")
	}
	// A key of the encoding that crosses entries must not collide:
	// {"ab": "c"} and {"a": "bc"}.
	x := pool.Share(map[string]string{"ab": "c"}, StringMap, prepare)
	y := pool.Share(map[string]string{"a": "bc"}, StringMap, prepare)
	if x["ab"] != "c" || y["a"] != "bc" {
		t.Errorf("maps with the same concatenation were shared: %v, %v", x, y)
	}
}

func TestMapPointerRoundTrip(t *testing.T) {
	m := map[string]int{"a": 1}
	if got := mapOf[string, int](mapPointer(m)); reflect.ValueOf(got).UnsafePointer() != reflect.ValueOf(m).UnsafePointer() || got["a"] != 1 {
		t.Error("mapOf(mapPointer(m)) is not m")
	}
	if !mapsArePointers {
		t.Error("maps are not pointers on this platform: Maps shares nothing")
	}
}

// Canonical values no longer in use are collected: the next equal value
// becomes canonical in their place.
func TestPoolsHoldWeakly(t *testing.T) {
	var ptrs Pointers[port]
	var slices Slices[port]
	var maps Maps[string, string]
	share := func() (p, s, m uintptr) {
		cp := ptrs.Share(&port{Name: "weak", Number: 1}, keyPort, nil)
		cs := slices.Share([]port{{Name: "weak", Number: 1}}, keyPort, nil)
		cm := maps.Share(map[string]string{"weak": "1"}, StringMap, nil)
		return uintptr(unsafe.Pointer(cp)), uintptr(unsafe.Pointer(&cs[0])), reflect.ValueOf(cm).Pointer()
	}
	share()
	runtime.GC()
	runtime.GC()
	for _, n := range []int{ptrs.Len(), slices.Len(), maps.Len()} {
		if n != 1 {
			t.Fatalf("pool holds %d entries, want 1", n)
		}
	}
	if p, _ := ptrs.t.load(keyOf(&port{Name: "weak", Number: 1}, keyPort)); p != nil {
		t.Error("a canonical pointer no longer in use was not collected")
	}
	if p, _ := slices.t.load(append([]byte{2}, keyOf(&port{Name: "weak", Number: 1}, keyPort)...)); p != nil {
		t.Error("a canonical slice no longer in use was not collected")
	}
	mk := map[string]string{"weak": "1"}
	if p, _ := maps.t.load(keyOf(&mk, func(k *Key, m *map[string]string) { StringMap(k, *m) })); p != nil {
		t.Error("a canonical map no longer in use was not collected")
	}
}

// encodeKey returns the encoding encode writes for *v, and false if encode
// invalidated it (the value would not be shared).
func encodeKey[T any](v *T, encode func(*Key, *T)) (key string, ok bool) {
	k := getKey()
	defer putKey(k)
	encode(k, v)
	return string(k.b), !k.invalid
}

func keyOf[T any](v *T, encode func(*Key, *T)) []byte {
	s, _ := encodeKey(v, encode)
	return []byte(s)
}

func TestQuantityKeys(t *testing.T) {
	if !quantityLayoutOK {
		t.Fatal("resource.Quantity does not have the expected layout: quantities are never shared")
	}
	key := func(q resource.Quantity) (string, bool) {
		return encodeKey(&q, func(k *Key, q *resource.Quantity) { k.Quantity(*q) })
	}
	one, _ := key(resource.MustParse("1"))
	milli, _ := key(resource.MustParse("1000m"))
	if one == milli {
		t.Error(`"1" and "1000m" have the same key but are not DeepEqual`)
	}
	a, _ := key(resource.MustParse("128Mi"))
	b, _ := key(resource.MustParse("128Mi"))
	if a != b {
		t.Error("two parses of 128Mi have different keys")
	}
	q := resource.MustParse("128Mi")
	_ = q.String() // caches the text in q
	if c, _ := key(q); c == a {
		t.Error("a quantity with its text cached has the key of one without, but they are not DeepEqual")
	}
	if _, ok := key(resource.MustParse("12345678901234567890")); ok {
		t.Error("a quantity held as a big decimal did not invalidate the key")
	}
}

// Many goroutines interning and sharing the same values get the same
// canonical values (run with -race). Every worker keeps what it got, so no
// canonical value can be collected during the test.
func TestConcurrentUse(t *testing.T) {
	var ptrs Pointers[port]
	var slices Slices[port]
	var maps Maps[string, string]
	const workers, values = 8, 50
	type result struct {
		p   *port
		s   []port
		m   map[string]string
		str string
	}
	results := make([][values]result, workers)
	prepare := func(k, v string) (string, string) { return String(k), String(v) }
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for r := range 4 * values {
				i := (r*7 + w) % values // each worker in its own order
				name := fmt.Sprintf("value-%d", i)
				results[w][i] = result{
					p:   ptrs.Share(&port{Name: fresh(name), Number: int32(i)}, keyPort, internPort),
					s:   slices.Share([]port{{Name: fresh(name)}}, keyPort, internPort),
					m:   maps.Share(map[string]string{fresh("name"): fresh(name)}, StringMap, prepare),
					str: String(fresh(name)),
				}
			}
		})
	}
	wg.Wait()
	for i := range values {
		want := results[0][i]
		if name := fmt.Sprintf("value-%d", i); want.p.Name != name || want.s[0].Name != name || want.m["name"] != name || want.str != name {
			t.Fatalf("value %d: got %q %q %q %q", i, want.p.Name, want.s[0].Name, want.m["name"], want.str)
		}
		for w := 1; w < workers; w++ {
			got := results[w][i]
			if got.p != want.p || &got.s[0] != &want.s[0] ||
				reflect.ValueOf(got.m).Pointer() != reflect.ValueOf(want.m).Pointer() ||
				unsafe.StringData(got.str) != unsafe.StringData(want.str) {
				t.Errorf("value %d: worker %d got other canonical values than worker 0", i, w)
			}
		}
	}
}

package intern

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
)

// The pools of these tests hold types no other test of the package shares,
// so that Sizes' counts for them are the tests' own.

// sizesValue is the type of the pools TestSizesCountsPoolsOfATypeTogether
// shares.
type sizesValue struct{ N int }

func keySizesValue(k *Key, v *sizesValue) { k.Int(int64(v.N)) }

// sizesGone is the type of the pool TestSizesForgetsCollectedPools lets
// go.
type sizesGone struct{ N int }

func keySizesGone(k *Key, v *sizesGone) { k.Int(int64(v.N)) }

// sizesMetric is the type of the pool TestCollector reports.
type sizesMetric struct{ N int }

func keySizesMetric(k *Key, v *sizesMetric) { k.Int(int64(v.N)) }

const internPkg = "github.com/informer-gen-plus/informer-gen-plus/runtime/intern"

// sizeOf returns the Values Sizes reports for typ, and whether it lists typ.
func sizeOf(typ string) (int, bool) {
	for _, s := range Sizes() {
		if s.Type == typ {
			return s.Values, true
		}
	}
	return 0, false
}

// collectDeadPools collects garbage so that pools of earlier tests (or runs
// of -count) that are no longer referenced leave the registry.
func collectDeadPools() {
	runtime.GC()
	runtime.GC()
	Sizes()
}

func keyProbe(k *Key, p *corev1.Probe) {
	k.Int(int64(p.PeriodSeconds))
	k.Int(int64(p.TimeoutSeconds))
	if k.Ptr(p.HTTPGet != nil) {
		k.String(p.HTTPGet.Path)
	}
}

func keyToleration(k *Key, t *corev1.Toleration) {
	k.String(t.Key)
	k.String(string(t.Operator))
	k.String(t.Value)
	k.String(string(t.Effect))
	k.Int64Ptr(t.TolerationSeconds)
}

// Sizes names a pool by its values' type, with the package path (a
// pointed-to struct, a slice type, a map type, built-in types by name), and
// counts the values each pool stored; the strings' table is under "string".
func TestSizesNamesAndCountsPools(t *testing.T) {
	collectDeadPools()
	const (
		probeType      = "k8s.io/api/core/v1.Probe"
		tolerationType = "[]k8s.io/api/core/v1.Toleration"
		resourcesType  = "map[k8s.io/api/core/v1.ResourceName]k8s.io/apimachinery/pkg/api/resource.Quantity"
		int32SliceType = "[]int32"
	)
	before := map[string]int{}
	for _, typ := range []string{probeType, tolerationType, resourcesType, int32SliceType} {
		before[typ], _ = sizeOf(typ)
	}

	var probes Pointers[corev1.Probe]
	var tolerations Slices[corev1.Toleration]
	var resources Maps[corev1.ResourceName, resource.Quantity]
	var ints Slices[int32]
	var keep []any
	for i := range 3 {
		keep = append(keep, probes.Share(&corev1.Probe{PeriodSeconds: int32(i + 1)}, keyProbe, nil))
	}
	keep = append(keep, probes.Share(&corev1.Probe{PeriodSeconds: 1}, keyProbe, nil)) // shared: no new value
	for i := range 2 {
		keep = append(keep, tolerations.Share([]corev1.Toleration{{Key: fmt.Sprint("node.kubernetes.io/t", i)}}, keyToleration, nil))
	}
	keep = append(keep, resources.Share(corev1.ResourceList{"cpu": resource.MustParse("1")}, QuantityMap[corev1.ResourceName], nil))
	keep = append(keep, ints.Share([]int32{1, 2}, func(k *Key, v *int32) { k.Int(int64(*v)) }, nil))

	const strs = 64
	var held []string
	for i := range strs {
		held = append(held, String(fmt.Sprintf("sizes-test-string-%03d-%d", i, time.Now().UnixNano())))
	}

	sizes := Sizes()
	if !slices.IsSortedFunc(sizes, func(a, b PoolSize) int { return strings.Compare(a.Type, b.Type) }) {
		t.Errorf("Sizes is not sorted by type: %v", sizes)
	}
	got := map[string]int{}
	for _, s := range sizes {
		if _, dup := got[s.Type]; dup {
			t.Errorf("Sizes lists %q twice", s.Type)
		}
		got[s.Type] = s.Values
	}
	for typ, want := range map[string]int{probeType: 3, tolerationType: 2, resourcesType: 1, int32SliceType: 1} {
		if n, ok := got[typ]; !ok {
			t.Errorf("Sizes does not list %q: %v", typ, sizes)
		} else if n-before[typ] != want {
			t.Errorf("Sizes lists %d values of %q, want %d more than %d", n, typ, want, before[typ])
		}
	}
	if n, ok := got["string"]; !ok || n < strs {
		t.Errorf(`Sizes lists %d strings (listed: %v), want at least the %d held`, n, ok, strs)
	}
	runtime.KeepAlive(keep)
	runtime.KeepAlive(held)
}

// A pool that has stored nothing is not listed; pools of the same type
// count together.
func TestSizesCountsPoolsOfATypeTogether(t *testing.T) {
	collectDeadPools()
	typ := internPkg + ".sizesValue"
	before, _ := sizeOf(typ)

	var empty Pointers[sizesValue]
	empty.Share(nil, keySizesValue, nil)
	invalid := func(k *Key, v *sizesValue) { k.Invalidate() }
	empty.Share(&sizesValue{N: 1}, invalid, nil)
	if n, ok := sizeOf(typ); ok && n != before {
		t.Errorf("a pool that stored nothing changed the size of %q to %d", typ, n)
	}

	var a, b Pointers[sizesValue]
	va := []*sizesValue{a.Share(&sizesValue{N: 1}, keySizesValue, nil), a.Share(&sizesValue{N: 2}, keySizesValue, nil)}
	vb := []*sizesValue{b.Share(&sizesValue{N: 1}, keySizesValue, nil), b.Share(&sizesValue{N: 2}, keySizesValue, nil), b.Share(&sizesValue{N: 3}, keySizesValue, nil)}
	if n, ok := sizeOf(typ); !ok || n-before != 5 {
		t.Errorf("Sizes lists %d values of %q (listed: %v), want 5 more than %d", n, typ, ok, before)
	}
	runtime.KeepAlive(&empty)
	runtime.KeepAlive(&a)
	runtime.KeepAlive(&b)
	runtime.KeepAlive(va)
	runtime.KeepAlive(vb)
}

// fillGonePool shares n values of sizesGone in a pool, checks that Sizes
// and the registry list it while it is referenced, and lets it go: nothing
// refers to the pool once it returns.
//
//go:noinline
func fillGonePool(t *testing.T, typ string, n int) {
	t.Helper()
	pool := new(Pointers[sizesGone])
	for i := range n {
		pool.Share(&sizesGone{N: i}, keySizesGone, nil)
	}
	runtime.GC() // the pool is referenced: it stays
	if got, ok := sizeOf(typ); !ok || got != n {
		t.Fatalf("a live pool of %q is listed %v with %d values, want %d", typ, ok, got, n)
	}
	if !registeredPool(typ) {
		t.Fatal("a live pool is not in the registry")
	}
	runtime.KeepAlive(pool)
}

// registeredPool reports whether a pool of typ is in the registry.
func registeredPool(typ string) bool {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	return slices.ContainsFunc(registry.pools, func(p registered) bool { return p.name == typ })
}

// The registry holds pools weakly: a pool no longer referenced leaves Sizes
// (and the registry) once it is collected.
func TestSizesForgetsCollectedPools(t *testing.T) {
	typ := internPkg + ".sizesGone"
	collectDeadPools()
	fillGonePool(t, typ, 4)
	testwait.Until(t, 10*time.Second, "the collected pool to leave Sizes", func() bool {
		runtime.GC()
		_, listed := sizeOf(typ)
		return !listed
	})
	if registeredPool(typ) {
		t.Error("Sizes no longer lists a collected pool, but the registry still holds it")
	}

	// A live pool of the same type is listed again.
	var live Pointers[sizesGone]
	v := live.Share(&sizesGone{N: 1}, keySizesGone, nil)
	runtime.GC()
	runtime.GC()
	if n, ok := sizeOf(typ); !ok || n != 1 {
		t.Errorf("a live pool of %q is listed %v with %d values, want 1", typ, ok, n)
	}
	runtime.KeepAlive(v)
	runtime.KeepAlive(&live)
}

// Collector reports intern_pool_values{type} as a gauge per type of Sizes,
// passes the registry's lint, registers on a fresh registry, and only once.
func TestCollector(t *testing.T) {
	collectDeadPools()
	var pool Pointers[sizesMetric]
	keep := []*sizesMetric{pool.Share(&sizesMetric{N: 1}, keySizesMetric, nil), pool.Share(&sizesMetric{N: 2}, keySizesMetric, nil)}

	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(Collector{}); err != nil {
		t.Fatalf("Register(Collector{}) on a fresh registry: %v", err)
	}
	var already prometheus.AlreadyRegisteredError
	if err := reg.Register(Collector{}); err == nil {
		t.Error("a second Collector registered on the same registry")
	} else if !errors.As(err, &already) {
		t.Errorf("a second Register returned %v, want an AlreadyRegisteredError", err)
	}

	if n := testutil.CollectAndCount(Collector{}, "intern_pool_values"); n < 2 {
		t.Errorf("Collector reports %d series, want at least 2 (strings and %s)", n, "sizesMetric")
	}
	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}

	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	i := -1 // the family's index (its type, dto.MetricFamily, is client_model's)
	for j := range families {
		if families[j].GetName() == "intern_pool_values" {
			i = j
		}
	}
	if i < 0 {
		t.Fatalf("the registry gathered no intern_pool_values: %v", families)
	}
	family := families[i]
	if family.GetType().String() != "GAUGE" {
		t.Errorf("intern_pool_values is a %v, want a gauge", family.GetType())
	}
	values := map[string]float64{}
	for _, m := range family.GetMetric() {
		if len(m.GetLabel()) != 1 || m.GetLabel()[0].GetName() != "type" {
			t.Errorf("a series has labels %v, want only type", m.GetLabel())
			continue
		}
		values[m.GetLabel()[0].GetValue()] = m.GetGauge().GetValue()
	}
	if got, ok := values[internPkg+".sizesMetric"]; !ok || got != 2 {
		t.Errorf("intern_pool_values{type=%q} = %v (reported: %v), want 2", internPkg+".sizesMetric", got, ok)
	}
	if _, ok := values["string"]; !ok {
		t.Error(`intern_pool_values{type="string"} is not reported`)
	}
	for _, s := range Sizes() {
		if s.Type == internPkg+".sizesMetric" {
			continue // checked above
		}
		if _, ok := values[s.Type]; !ok {
			t.Errorf("Sizes lists %q, which the collector did not report", s.Type)
		}
	}
	runtime.KeepAlive(keep)
	runtime.KeepAlive(&pool)
}

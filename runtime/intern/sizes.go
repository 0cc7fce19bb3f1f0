package intern

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"weak"

	"github.com/prometheus/client_golang/prometheus"
)

// Every table registers itself here when it stores its first canonical
// value, weakly: a pool that is no longer referenced (one declared in a
// function) leaves the registry at the next call of Sizes after its
// collection.
var registry struct {
	mu    sync.Mutex
	pools []registered
}

type registered struct {
	name  string
	len   func() (int, bool) // the table's size; false once it is collected
	alive func() bool        // whether the table is not collected yet
}

// register adds t to the registry under name.
func register(name string, t *table) {
	w := weak.Make(t)
	size := func() (int, bool) {
		if t := w.Value(); t != nil {
			return t.len(), true
		}
		return 0, false
	}
	alive := func() bool { return w.Value() != nil }
	registry.mu.Lock()
	registry.pools = append(registry.pools, registered{name: name, len: size, alive: alive})
	registry.mu.Unlock()
}

// poolName names the pools of values of type T by T: a type's package path
// and name, or its literal ("[]k8s.io/api/core/v1.Toleration").
func poolName[T any]() string { return typeString(reflect.TypeFor[T]()) }

func typeString(t reflect.Type) string {
	switch {
	case t.Name() != "" && t.PkgPath() != "":
		return t.PkgPath() + "." + t.Name()
	case t.Kind() == reflect.Slice:
		return "[]" + typeString(t.Elem())
	case t.Kind() == reflect.Map:
		return "map[" + typeString(t.Key()) + "]" + typeString(t.Elem())
	}
	return t.String()
}

// PoolSize is the size of the pools of one type.
type PoolSize struct {
	// Type is the type of the shared values: "string" for String's table,
	// "int32" and "int64" for those of Int32 and Int64, the pointed-to type
	// of a Pointers, the slice type of a Slices, the map type of a Maps,
	// each named by its package path ("k8s.io/api/core/v1.Probe",
	// "[]k8s.io/api/core/v1.Toleration").
	Type string
	// Values is the number of canonical values in the tables of the pools
	// of Type (a generated package has one per type, so several packages
	// have several), including values collected and not yet swept out: the
	// memory the tables themselves hold is about proportional to it.
	Values int
}

// Sizes returns the sizes of every pool that has stored a value and is
// still referenced, by type, sorted by type. Pools of the same type (the
// Pointers[corev1.Probe] of two generated packages) count together.
func Sizes() []PoolSize {
	registry.mu.Lock()
	pools := slices.Clone(registry.pools)
	registry.mu.Unlock()
	sizes := map[string]int{"string": internedStrings()}
	var gone bool
	for _, p := range pools {
		n, ok := p.len()
		if !ok {
			gone = true
			continue
		}
		sizes[p.name] += n
	}
	if gone {
		registry.mu.Lock()
		registry.pools = slices.DeleteFunc(registry.pools, func(p registered) bool { return !p.alive() })
		registry.mu.Unlock()
	}
	out := make([]PoolSize, 0, len(sizes))
	for typ, n := range sizes {
		out = append(out, PoolSize{Type: typ, Values: n})
	}
	slices.SortFunc(out, func(a, b PoolSize) int { return strings.Compare(a.Type, b.Type) })
	return out
}

// poolValuesDesc describes the metric of Collector.
var poolValuesDesc = prometheus.NewDesc("intern_pool_values",
	"Canonical values in the interning pools of a type (strings, shared pointers, slices and maps), including collected values not yet swept out.",
	[]string{"type"}, nil)

// Collector is a Prometheus collector of the metric intern_pool_values{type}:
// the Values of Sizes, read when the registry is scraped. Register it once
// per registry (for example controller-runtime's metrics.Registry); it
// reports the pools of the whole process.
type Collector struct{}

// Describe implements prometheus.Collector.
func (Collector) Describe(ch chan<- *prometheus.Desc) { ch <- poolValuesDesc }

// Collect implements prometheus.Collector.
func (Collector) Collect(ch chan<- prometheus.Metric) {
	for _, s := range Sizes() {
		ch <- prometheus.MustNewConstMetric(poolValuesDesc, prometheus.GaugeValue, float64(s.Values), s.Type)
	}
}

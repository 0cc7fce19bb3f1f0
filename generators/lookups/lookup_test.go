// Package lookups_test checks the lookups of the golden listers of
// generators/testdata at run time: it is a package of its own so that the
// golden files can be regenerated (go test ./generators/ -update) while
// it does not compile against them.
package lookups_test

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	toysv1 "github.com/informer-gen-plus/informer-gen-plus/generators/testdata/apis/toys/v1"
	toyslisters "github.com/informer-gen-plus/informer-gen-plus/generators/testdata/golden/listers/toys/v1"
	runtimecache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// sensors returns Sensors whose indexed fields take, between them, every
// value of the lists below: zero values, negative numbers and the extremes
// of each integer type, nil pointers and pointers to zero values, empty and
// repeating lists, absent labels and annotations. Each field cycles through
// its list at its own pace, so that the combinations vary too.
func sensors() []*toysv1.Sensor {
	models := []string{"", "a/x", "b/y", "a/z"}
	modes := []toysv1.SensorMode{"", "Auto", "Manual"}
	offsets := []int32{0, -1, 5, math.MinInt32, math.MaxInt32}
	readings := []int64{0, math.MinInt64, 42, 1_000_000}
	channels := []uint8{0, math.MaxUint8, 7}
	serials := []uint64{0, math.MaxUint64, 12}
	priorities := []toysv1.Priority{0, -3, 100}
	aliases := []*string{nil, ptr.To(""), ptr.To("al")}
	thresholds := []*int64{nil, ptr.To[int64](0), ptr.To[int64](-5), ptr.To[int64](150)}
	calibrated := []*bool{nil, ptr.To(false), ptr.To(true)}
	fallbacks := []*toysv1.SensorMode{nil, ptr.To[toysv1.SensorMode](""), ptr.To[toysv1.SensorMode]("Auto")}
	tags := [][]string{nil, {}, {"a"}, {"a", "b"}, {"b", "b"}}
	allowed := [][]toysv1.SensorMode{nil, {"Auto"}, {"Auto", "Manual"}}
	ends := []string{"", "p", "q"}
	var out []*toysv1.Sensor
	for i := range 60 {
		s := &toysv1.Sensor{ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprint("ns", i%2), Name: fmt.Sprint("s", i)}}
		s.Spec = toysv1.SensorSpec{
			Model:        models[i%len(models)],
			Mode:         modes[i%len(modes)],
			Offset:       offsets[i%len(offsets)],
			Channel:      channels[(i/2)%len(channels)],
			Serial:       serials[(i/3)%len(serials)],
			Active:       i%7 < 3,
			Priority:     priorities[(i/4)%len(priorities)],
			Alias:        aliases[(i/5)%len(aliases)],
			Threshold:    thresholds[i%len(thresholds)],
			Calibrated:   calibrated[(i/2)%len(calibrated)],
			Fallback:     fallbacks[(i/3)%len(fallbacks)],
			Tags:         tags[i%len(tags)],
			AllowedModes: allowed[(i/2)%len(allowed)],
			Source:       toysv1.Endpoint{Name: ends[i%len(ends)]},
			Target:       toysv1.Endpoint{Name: ends[(i/3)%len(ends)]},
		}
		s.Status.Reading = readings[i%len(readings)]
		switch i % 3 {
		case 1:
			s.Labels = map[string]string{"toys.example.dev/room-name": "", "floor": "2"}
		case 2:
			s.Labels = map[string]string{"toys.example.dev/room-name": "kitchen"}
			s.Annotations = map[string]string{"toys.example.dev/vendor": "acme"}
		}
		switch i % 4 {
		case 1:
			s.OwnerReferences = []metav1.OwnerReference{{APIVersion: "toys.example.dev/v1", Kind: "Robot", Name: "r1", Controller: ptr.To(true)}}
		case 2: // not the controller: not indexed
			s.OwnerReferences = []metav1.OwnerReference{{APIVersion: "toys.example.dev/v1", Kind: "Robot", Name: "r1"}}
		case 3: // another group's Robot: not indexed
			s.OwnerReferences = []metav1.OwnerReference{{APIVersion: "other.example.dev/v1", Kind: "Robot", Name: "r1", Controller: ptr.To(true)}}
		}
		out = append(out, s)
	}
	return out
}

// sensorListers are the generated lister over an informer's typed store
// and over client-go's indexer (where the iterator lookups take their other
// path), both holding the same Sensors.
func sensorListers(t *testing.T, objs []*toysv1.Sensor) map[string]toyslisters.SensorLister {
	t.Helper()
	store, err := runtimecache.NewIndexer(runtimecache.Indexers[*toysv1.Sensor]{})
	if err != nil {
		t.Fatal(err)
	}
	if err := toyslisters.AddSensorIndexes(store.AsIndexer()); err != nil {
		t.Fatal(err)
	}
	clientgo := cache.NewIndexer(cache.MetaNamespaceKeyFunc, toyslisters.SensorIndexers())
	for _, s := range objs {
		store.Add(s)
		if err := clientgo.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]toyslisters.SensorLister{
		"typed store":       toyslisters.NewSensorLister(store.AsIndexer()),
		"client-go indexer": toyslisters.NewSensorLister(clientgo),
	}
}

// lookup is one index's lookups, for one argument.
type lookup struct {
	by   func() ([]*toysv1.Sensor, error)
	each func() iter.Seq[*toysv1.Sensor]
}

// checkLookups checks that the lookups of an index, of the lister and of
// the namespace lister of ns0, find exactly the Sensors that match arg, for
// every arg: typed arguments need no formatting, and are encoded as the
// index function encodes the field.
func checkLookups[V any](t *testing.T, name string, objs []*toysv1.Sensor, args []V, matches func(*toysv1.Sensor, V) bool,
	lookups func(l toyslisters.SensorLister, ns toyslisters.SensorNamespaceLister, arg V) (cluster, namespaced lookup)) {
	t.Helper()
	for listerName, l := range sensorListers(t, objs) {
		for _, arg := range args {
			var want, wantNS []string
			for _, s := range objs {
				if matches(s, arg) {
					want = append(want, s.Name)
					if s.Namespace == "ns0" {
						wantNS = append(wantNS, s.Name)
					}
				}
			}
			cluster, namespaced := lookups(l, l.Sensors("ns0"), arg)
			for _, c := range []struct {
				what string
				l    lookup
				want []string
			}{{"By" + name, cluster, want}, {"Sensors(ns0).By" + name, namespaced, wantNS}} {
				got, err := c.l.by()
				if err != nil {
					t.Errorf("%s: %s(%#v): %v", listerName, c.what, arg, err)
				}
				if names := sortedNames(slices.Values(got)); !slices.Equal(names, c.want) {
					t.Errorf("%s: %s(%#v) = %v, want %v", listerName, c.what, arg, names, c.want)
				}
				if names := sortedNames(c.l.each()); !slices.Equal(names, c.want) {
					t.Errorf("%s: Each%s(%#v) yields %v, want %v", listerName, c.what, arg, names, c.want)
				}
			}
		}
	}
}

func sortedNames(objs iter.Seq[*toysv1.Sensor]) []string {
	var names []string
	for s := range objs {
		names = append(names, s.Name)
	}
	slices.SortFunc(names, func(a, b string) int {
		var x, y int
		fmt.Sscanf(a, "s%d", &x)
		fmt.Sscanf(b, "s%d", &y)
		return x - y
	})
	return names
}

// lookupsOf builds the two lookups of an index from its method values.
func lookupsOf[V any](by, nsBy func(V) ([]*toysv1.Sensor, error), each, nsEach func(V) iter.Seq[*toysv1.Sensor]) func(V) (lookup, lookup) {
	return func(v V) (lookup, lookup) {
		return lookup{func() ([]*toysv1.Sensor, error) { return by(v) }, func() iter.Seq[*toysv1.Sensor] { return each(v) }},
			lookup{func() ([]*toysv1.Sensor, error) { return nsBy(v) }, func() iter.Seq[*toysv1.Sensor] { return nsEach(v) }}
	}
}

// Every lookup takes its argument in the Go type of its field's leaf (the
// element type of a pointer or a list) and finds exactly the Sensors whose
// field holds it, on both paths of the iterator form.
func TestLookupsTakeTheLeafsGoType(t *testing.T) {
	objs := sensors()
	type L = toyslisters.SensorLister
	type NL = toyslisters.SensorNamespaceLister

	t.Run("string", func(t *testing.T) {
		checkLookups(t, "Model", objs, []string{"", "a/x", "b/y", "none"},
			func(s *toysv1.Sensor, v string) bool { return s.Spec.Model == v },
			func(l L, ns NL, v string) (lookup, lookup) {
				return lookupsOf(l.ByModel, ns.ByModel, l.EachByModel, ns.EachByModel)(v)
			})
	})
	t.Run("named string (enum)", func(t *testing.T) {
		checkLookups(t, "Mode", objs, []toysv1.SensorMode{"", "Auto", "Manual", "Off"},
			func(s *toysv1.Sensor, v toysv1.SensorMode) bool { return s.Spec.Mode == v },
			func(l L, ns NL, v toysv1.SensorMode) (lookup, lookup) {
				return lookupsOf(l.ByMode, ns.ByMode, l.EachByMode, ns.EachByMode)(v)
			})
	})
	t.Run("int32", func(t *testing.T) {
		checkLookups(t, "Offset", objs, []int32{0, -1, 5, math.MinInt32, math.MaxInt32, 3},
			func(s *toysv1.Sensor, v int32) bool { return s.Spec.Offset == v },
			func(l L, ns NL, v int32) (lookup, lookup) {
				return lookupsOf(l.ByOffset, ns.ByOffset, l.EachByOffset, ns.EachByOffset)(v)
			})
	})
	t.Run("int64", func(t *testing.T) {
		checkLookups(t, "Reading", objs, []int64{0, math.MinInt64, 42, 1_000_000, -42},
			func(s *toysv1.Sensor, v int64) bool { return s.Status.Reading == v },
			func(l L, ns NL, v int64) (lookup, lookup) {
				return lookupsOf(l.ByReading, ns.ByReading, l.EachByReading, ns.EachByReading)(v)
			})
	})
	// gengo reads uint8 and int8 alike (as byte), so their lookups take an
	// int, which holds the values of both.
	t.Run("uint8", func(t *testing.T) {
		checkLookups(t, "Channel", objs, []int{0, math.MaxUint8, 7, 8, -1},
			func(s *toysv1.Sensor, v int) bool { return int(s.Spec.Channel) == v },
			func(l L, ns NL, v int) (lookup, lookup) {
				return lookupsOf(l.ByChannel, ns.ByChannel, l.EachByChannel, ns.EachByChannel)(v)
			})
	})
	t.Run("uint64", func(t *testing.T) {
		checkLookups(t, "Serial", objs, []uint64{0, math.MaxUint64, 12, 13},
			func(s *toysv1.Sensor, v uint64) bool { return s.Spec.Serial == v },
			func(l L, ns NL, v uint64) (lookup, lookup) {
				return lookupsOf(l.BySerial, ns.BySerial, l.EachBySerial, ns.EachBySerial)(v)
			})
	})
	t.Run("bool", func(t *testing.T) {
		checkLookups(t, "Active", objs, []bool{false, true},
			func(s *toysv1.Sensor, v bool) bool { return s.Spec.Active == v },
			func(l L, ns NL, v bool) (lookup, lookup) {
				return lookupsOf(l.ByActive, ns.ByActive, l.EachByActive, ns.EachByActive)(v)
			})
	})
	t.Run("named integer", func(t *testing.T) {
		checkLookups(t, "Priority", objs, []toysv1.Priority{0, -3, 100, 1},
			func(s *toysv1.Sensor, v toysv1.Priority) bool { return s.Spec.Priority == v },
			func(l L, ns NL, v toysv1.Priority) (lookup, lookup) {
				return lookupsOf(l.ByPriority, ns.ByPriority, l.EachByPriority, ns.EachByPriority)(v)
			})
	})
	// A nil pointer gives no value: no argument finds it, not even the zero
	// value, which finds only the pointers to a zero value.
	t.Run("pointer to string", func(t *testing.T) {
		checkLookups(t, "Alias", objs, []string{"", "al", "other"},
			func(s *toysv1.Sensor, v string) bool { return s.Spec.Alias != nil && *s.Spec.Alias == v },
			func(l L, ns NL, v string) (lookup, lookup) {
				return lookupsOf(l.ByAlias, ns.ByAlias, l.EachByAlias, ns.EachByAlias)(v)
			})
	})
	t.Run("pointer to int64", func(t *testing.T) {
		checkLookups(t, "Threshold", objs, []int64{0, -5, 150, 1},
			func(s *toysv1.Sensor, v int64) bool { return s.Spec.Threshold != nil && *s.Spec.Threshold == v },
			func(l L, ns NL, v int64) (lookup, lookup) {
				return lookupsOf(l.ByThreshold, ns.ByThreshold, l.EachByThreshold, ns.EachByThreshold)(v)
			})
	})
	t.Run("pointer to bool", func(t *testing.T) {
		checkLookups(t, "Calibrated", objs, []bool{false, true},
			func(s *toysv1.Sensor, v bool) bool { return s.Spec.Calibrated != nil && *s.Spec.Calibrated == v },
			func(l L, ns NL, v bool) (lookup, lookup) {
				return lookupsOf(l.ByCalibrated, ns.ByCalibrated, l.EachByCalibrated, ns.EachByCalibrated)(v)
			})
	})
	t.Run("pointer to enum", func(t *testing.T) {
		checkLookups(t, "Fallback", objs, []toysv1.SensorMode{"", "Auto", "Manual"},
			func(s *toysv1.Sensor, v toysv1.SensorMode) bool {
				return s.Spec.Fallback != nil && *s.Spec.Fallback == v
			},
			func(l L, ns NL, v toysv1.SensorMode) (lookup, lookup) {
				return lookupsOf(l.ByFallback, ns.ByFallback, l.EachByFallback, ns.EachByFallback)(v)
			})
	})
	t.Run("list elements", func(t *testing.T) {
		checkLookups(t, "Tag", objs, []string{"a", "b", ""},
			func(s *toysv1.Sensor, v string) bool { return slices.Contains(s.Spec.Tags, v) },
			func(l L, ns NL, v string) (lookup, lookup) {
				return lookupsOf(l.ByTag, ns.ByTag, l.EachByTag, ns.EachByTag)(v)
			})
	})
	t.Run("enum list elements", func(t *testing.T) {
		checkLookups(t, "AllowedMode", objs, []toysv1.SensorMode{"Auto", "Manual", ""},
			func(s *toysv1.Sensor, v toysv1.SensorMode) bool { return slices.Contains(s.Spec.AllowedModes, v) },
			func(l L, ns NL, v toysv1.SensorMode) (lookup, lookup) {
				return lookupsOf(l.ByAllowedMode, ns.ByAllowedMode, l.EachByAllowedMode, ns.EachByAllowedMode)(v)
			})
	})

	type modeOffset struct {
		mode   toysv1.SensorMode
		offset int32
	}
	t.Run("composite enum and int32", func(t *testing.T) {
		var args []modeOffset
		for _, m := range []toysv1.SensorMode{"", "Auto", "Manual"} {
			for _, o := range []int32{0, -1, 5, math.MinInt32, math.MaxInt32} {
				args = append(args, modeOffset{m, o})
			}
		}
		checkLookups(t, "ModeOffset", objs, args,
			func(s *toysv1.Sensor, v modeOffset) bool { return s.Spec.Mode == v.mode && s.Spec.Offset == v.offset },
			func(l L, ns NL, v modeOffset) (lookup, lookup) {
				by := func(v modeOffset) ([]*toysv1.Sensor, error) { return l.ByModeOffset(v.mode, v.offset) }
				nsBy := func(v modeOffset) ([]*toysv1.Sensor, error) { return ns.ByModeOffset(v.mode, v.offset) }
				each := func(v modeOffset) iter.Seq[*toysv1.Sensor] { return l.EachByModeOffset(v.mode, v.offset) }
				nsEach := func(v modeOffset) iter.Seq[*toysv1.Sensor] { return ns.EachByModeOffset(v.mode, v.offset) }
				return lookupsOf(by, nsBy, each, nsEach)(v)
			})
	})
	type fallbackThreshold struct {
		fallback  toysv1.SensorMode
		threshold int64
		active    bool
	}
	// A composite key has a value only when every path has one: a nil
	// pointer in any of them leaves the object out.
	t.Run("composite of pointers", func(t *testing.T) {
		var args []fallbackThreshold
		for _, f := range []toysv1.SensorMode{"", "Auto"} {
			for _, th := range []int64{0, -5, 150} {
				args = append(args, fallbackThreshold{f, th, false}, fallbackThreshold{f, th, true})
			}
		}
		checkLookups(t, "FallbackThreshold", objs, args,
			func(s *toysv1.Sensor, v fallbackThreshold) bool {
				return s.Spec.Fallback != nil && *s.Spec.Fallback == v.fallback &&
					s.Spec.Threshold != nil && *s.Spec.Threshold == v.threshold && s.Spec.Active == v.active
			},
			func(l L, ns NL, v fallbackThreshold) (lookup, lookup) {
				by := func(v fallbackThreshold) ([]*toysv1.Sensor, error) {
					return l.ByFallbackThreshold(v.fallback, v.threshold, v.active)
				}
				nsBy := func(v fallbackThreshold) ([]*toysv1.Sensor, error) {
					return ns.ByFallbackThreshold(v.fallback, v.threshold, v.active)
				}
				each := func(v fallbackThreshold) iter.Seq[*toysv1.Sensor] {
					return l.EachByFallbackThreshold(v.fallback, v.threshold, v.active)
				}
				nsEach := func(v fallbackThreshold) iter.Seq[*toysv1.Sensor] {
					return ns.EachByFallbackThreshold(v.fallback, v.threshold, v.active)
				}
				return lookupsOf(by, nsBy, each, nsEach)(v)
			})
	})
	t.Run("composite with param names", func(t *testing.T) {
		var args [][2]string
		for _, from := range []string{"", "p", "q"} {
			for _, to := range []string{"", "p", "q"} {
				args = append(args, [2]string{from, to})
			}
		}
		checkLookups(t, "Ends", objs, args,
			func(s *toysv1.Sensor, v [2]string) bool {
				return s.Spec.Source.Name == v[0] && s.Spec.Target.Name == v[1]
			},
			func(l L, ns NL, v [2]string) (lookup, lookup) {
				by := func(v [2]string) ([]*toysv1.Sensor, error) { return l.ByEnds(v[0], v[1]) }
				nsBy := func(v [2]string) ([]*toysv1.Sensor, error) { return ns.ByEnds(v[0], v[1]) }
				each := func(v [2]string) iter.Seq[*toysv1.Sensor] { return l.EachByEnds(v[0], v[1]) }
				nsEach := func(v [2]string) iter.Seq[*toysv1.Sensor] { return ns.EachByEnds(v[0], v[1]) }
				return lookupsOf(by, nsBy, each, nsEach)(v)
			})
	})

	t.Run("label", func(t *testing.T) {
		checkLookups(t, "Room", objs, []string{"", "kitchen", "attic"},
			func(s *toysv1.Sensor, v string) bool {
				room, ok := s.Labels["toys.example.dev/room-name"]
				return ok && room == v
			},
			func(l L, ns NL, v string) (lookup, lookup) {
				return lookupsOf(l.ByRoom, ns.ByRoom, l.EachByRoom, ns.EachByRoom)(v)
			})
	})
	t.Run("annotation", func(t *testing.T) {
		checkLookups(t, "Vendor", objs, []string{"", "acme"},
			func(s *toysv1.Sensor, v string) bool {
				vendor, ok := s.Annotations["toys.example.dev/vendor"]
				return ok && vendor == v
			},
			func(l L, ns NL, v string) (lookup, lookup) {
				return lookupsOf(l.ByVendor, ns.ByVendor, l.EachByVendor, ns.EachByVendor)(v)
			})
	})
	t.Run("owner", func(t *testing.T) {
		checkLookups(t, "Robot", objs, []string{"r1", "r2", ""},
			func(s *toysv1.Sensor, v string) bool {
				ref := metav1.GetControllerOf(s)
				return ref != nil && ref.APIVersion == "toys.example.dev/v1" && ref.Kind == "Robot" && ref.Name == v
			},
			func(l L, ns NL, v string) (lookup, lookup) {
				return lookupsOf(l.ByRobot, ns.ByRobot, l.EachByRobot, ns.EachByRobot)(v)
			})
	})
	t.Run("func", func(t *testing.T) {
		checkLookups(t, "Zone", objs, []string{"a", "b", ""},
			func(s *toysv1.Sensor, v string) bool { return slices.Contains(toysv1.ZoneOf(s), v) },
			func(l L, ns NL, v string) (lookup, lookup) {
				return lookupsOf(l.ByZone, ns.ByZone, l.EachByZone, ns.EachByZone)(v)
			})
	})
}

// An iterator lookup stops when the loop breaks, on both paths.
func TestEachLookupsStopWhenTheLoopBreaks(t *testing.T) {
	for name, l := range sensorListers(t, sensors()) {
		seen := 0
		for range l.EachByActive(false) {
			seen++
			if seen == 2 {
				break
			}
		}
		if seen != 2 {
			t.Errorf("%s: the loop ran %d times, want 2", name, seen)
		}
	}
}

package podexample

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/intern"
)

// keyCase is an encoder of a shared type, applied to an addressable value of
// that type.
type keyCase struct {
	name string
	typ  reflect.Type
	key  func(v reflect.Value) (string, bool)
}

func caseOf[T any](encode func(*intern.Key, *T)) keyCase {
	return keyCase{reflect.TypeFor[T]().String(), reflect.TypeFor[T](), func(v reflect.Value) (string, bool) {
		return intern.Encode(v.Addr().Interface().(*T), encode)
	}}
}

func mapCaseOf[M any](encode func(*intern.Key, M)) keyCase {
	return caseOf(func(k *intern.Key, m *M) { encode(k, *m) })
}

// keyCases are the encoders PodTransform shares values by.
var keyCases = []keyCase{
	mapCaseOf(intern.StringMap[string, string]),
	mapCaseOf(intern.QuantityMap[corev1.ResourceName]),
	caseOf(keyString),
	caseOf(keyStringPointee[corev1.PreemptionPolicy]),
	caseOf(keyOwnerReference),
	caseOf(keyFieldsV1),
	caseOf(keyContainerPort),
	caseOf(keyEnvVar),
	caseOf(keyEnvFromSource),
	caseOf(keyResourceClaim),
	caseOf(keyResourceRequirements),
	caseOf(keyContainerResizePolicy),
	caseOf(keyVolumeDevice),
	caseOf(keyProbe),
	caseOf(keySecurityContext),
	caseOf(keyPodSecurityContext),
	caseOf(keyLocalObjectReference),
	caseOf(keyToleration),
	caseOf(keyPodReadinessGate),
	caseOf(keyHostPathVolumeSource),
	caseOf(keyEmptyDirVolumeSource),
	caseOf(keySecretVolumeSource),
	caseOf(keyConfigMapVolumeSource),
	caseOf(keyDownwardAPIVolumeSource),
	caseOf(keyProjectedVolumeSource),
	caseOf(keyAffinity),
	caseOf(keyTopologySpreadConstraint),
	caseOf(keyLifecycle),
	caseOf(keyPodDNSConfig),
}

// TestKeysAreInjective checks every encoder against its type by reflection:
// equal values get equal keys, and changing any one field anywhere in the
// value (a scalar, a pointer to nil, a slice or map to nil, to empty or to
// fewer elements, a quantity to another representation) changes the key.
// A field an encoder forgets fails here.
func TestKeysAreInjective(t *testing.T) {
	for _, c := range keyCases {
		t.Run(c.name, func(t *testing.T) {
			filled := func() reflect.Value {
				v := reflect.New(c.typ).Elem()
				(&filler{}).fill(v)
				return v
			}
			base, ok := c.key(filled())
			if !ok {
				t.Fatal("the key of a filled value is invalid")
			}
			if again, _ := c.key(filled()); again != base {
				t.Fatal("two equal values have different keys")
			}
			sites := 0
			for target := 0; ; target++ {
				v := filled()
				m := mutator{target: target}
				m.walk(v, "")
				if !m.done {
					break
				}
				sites++
				if reflect.DeepEqual(v.Interface(), filled().Interface()) {
					t.Fatalf("mutation %s left the value DeepEqual", m.desc)
				}
				if key, ok := c.key(v); ok && key == base {
					t.Errorf("mutation %s does not change the key", m.desc)
				}
			}
			t.Logf("%d mutations", sites)
		})
	}
}

var quantityType = reflect.TypeFor[resource.Quantity]()

// filler sets every exported field of a value, recursively: distinct
// strings and numbers, true, two-element slices, three-entry maps.
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

// mutator applies the target-th of the mutations walk finds in a value.
type mutator struct {
	target, count int
	done          bool
	desc          string
}

// site reports whether the next mutation site is the target.
func (m *mutator) site(desc string) bool {
	if m.done {
		return false
	}
	hit := m.count == m.target
	m.count++
	if hit {
		m.done, m.desc = true, desc
	}
	return hit
}

func (m *mutator) walk(v reflect.Value, path string) {
	if m.done {
		return
	}
	if v.Type() == quantityType {
		cached := resource.MustParse("128Mi")
		_ = cached.String()
		for _, q := range []struct {
			name string
			q    resource.Quantity
		}{{"129Mi", resource.MustParse("129Mi")}, {"134217728", resource.MustParse("134217728")}, {"128Mi with its text cached", cached}} {
			if m.site(path + " = " + q.name) {
				v.Set(reflect.ValueOf(q.q))
			}
		}
		return
	}
	switch v.Kind() {
	case reflect.String:
		if m.site(path + " += x") {
			v.SetString(v.String() + "x")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if m.site(path + " += 1") {
			v.SetInt(v.Int() + 1)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if m.site(path + " += 1") {
			v.SetUint(v.Uint() + 1)
		}
	case reflect.Bool:
		if m.site(path + " flipped") {
			v.SetBool(!v.Bool())
		}
	case reflect.Pointer:
		if m.site(path + " = nil") {
			v.SetZero()
			return
		}
		m.walk(v.Elem(), "(*"+path+")")
	case reflect.Slice:
		switch {
		case m.site(path + " = nil"):
			v.SetZero()
		case m.site(path + " = empty"):
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		case m.site(path + " = first element only"):
			v.SetLen(1)
		default:
			for i := range v.Len() {
				m.walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return compareStrings(fmt.Sprint(a), fmt.Sprint(b)) })
		switch {
		case m.site(path + " = nil"):
			v.SetZero()
		case m.site(path + " = empty"):
			v.Set(reflect.MakeMap(v.Type()))
		case m.site(path + " without one entry"):
			v.SetMapIndex(keys[0], reflect.Value{})
		default:
			for _, k := range keys {
				if k.Kind() == reflect.String && m.site(fmt.Sprintf("%s key %v += x", path, k)) {
					e := v.MapIndex(k)
					v.SetMapIndex(k, reflect.Value{})
					nk := reflect.New(k.Type()).Elem()
					nk.SetString(k.String() + "x")
					v.SetMapIndex(nk, e)
					return
				}
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(v.MapIndex(k))
				m.walk(e, fmt.Sprintf("%s[%v]", path, k))
				if m.done {
					v.SetMapIndex(k, e)
					return
				}
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				m.walk(v.Field(i), path+"."+f.Name)
			}
		}
	}
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

package cache

import (
	"strings"
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The key map's keys hold, for the name, the stored object's own string.
// After an update it must be the new object's, so that the map keeps nothing
// of the object it replaced; for the namespace, one string for all keys of
// the namespace, whatever strings the objects carry. Lookups by ObjectName
// and by client-go key find the object whatever strings the caller holds.
func TestStoreKeysAreTheStoredObjectsStrings(t *testing.T) {
	s := must(NewIndexer[*corev1.Pod](nil))
	pod := func(name, rv string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Namespace: strings.Clone("team-a"), Name: strings.Clone(name), ResourceVersion: rv,
		}}
	}
	first, second, other := pod("web-1", "1"), pod("web-1", "2"), pod("web-2", "3")
	s.Add(first)
	s.Add(other)
	s.Update(second)
	if len(s.keys) != 2 {
		t.Fatalf("%d keys for two objects", len(s.keys))
	}
	namespaces := map[*byte]bool{}
	for key, k := range s.keys {
		if unsafe.StringData(key.Name) != unsafe.StringData(k.obj.Name) {
			t.Errorf("the key of %s does not hold the stored object's name", key)
		}
		namespaces[unsafe.StringData(key.Namespace)] = true
	}
	if len(namespaces) != 1 {
		t.Errorf("the keys of one namespace hold %d copies of its name", len(namespaces))
	}
	if got, ok := s.Get(ObjectName{Namespace: strings.Clone("team-a"), Name: strings.Clone("web-1")}); !ok || got != second {
		t.Errorf("Get = %v, %v; want the second object", got, ok)
	}
	if got, ok, err := s.GetByKey(strings.Clone("team-a/web-1")); err != nil || !ok || got != second {
		t.Errorf("GetByKey = %v, %v, %v; want the second object", got, ok, err)
	}
	for _, bad := range []string{"/web-1", "team-a/web/1"} {
		if _, _, err := s.GetByKey(bad); err == nil {
			t.Errorf("GetByKey(%q): no error", bad)
		}
	}
	if old, ok := s.Remove(KeyOf(second)); !ok || old != second || len(s.keys) != 1 {
		t.Errorf("Remove = %v, %v with %d keys left", old, ok, len(s.keys))
	}
}

package cache

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

func ownedConfigMap(refs ...metav1.OwnerReference) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm", OwnerReferences: refs}}
}

func ownerReference(apiVersion, kind, name string, controller bool) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: types.UID("uid-" + name), Controller: &controller}
}

func TestControllerOfMatchesTheControllingOwnerByGroupAndKind(t *testing.T) {
	widgets := schema.GroupKind{Group: "shop.example.dev", Kind: "Widget"}
	tests := []struct {
		name     string
		obj      *corev1.ConfigMap
		owner    schema.GroupKind
		wantName string
		wantOK   bool
	}{
		{"controller of the group and kind", ownedConfigMap(ownerReference("shop.example.dev/v1", "Widget", "w", true)), widgets, "w", true},
		{"any version of the group", ownedConfigMap(ownerReference("shop.example.dev/v1alpha1", "Widget", "w", true)), widgets, "w", true},
		{"same kind in another group", ownedConfigMap(ownerReference("other.example.dev/v1", "Widget", "w", true)), widgets, "", false},
		{"another kind of the group", ownedConfigMap(ownerReference("shop.example.dev/v1", "Shop", "w", true)), widgets, "", false},
		{"owner that is not the controller", ownedConfigMap(ownerReference("shop.example.dev/v1", "Widget", "w", false)), widgets, "", false},
		{"no owner", ownedConfigMap(), widgets, "", false},
		{"controller among other owners", ownedConfigMap(
			ownerReference("shop.example.dev/v1", "Widget", "other", false),
			ownerReference("shop.example.dev/v1", "Widget", "w", true)), widgets, "w", true},
		{"apiVersion that does not parse", ownedConfigMap(ownerReference("shop.example.dev/v1/extra", "Widget", "w", true)), widgets, "", false},
		{"core group", ownedConfigMap(ownerReference("v1", "Node", "n", true)), schema.GroupKind{Kind: "Node"}, "n", true},
		{"core kind asked, named group given", ownedConfigMap(ownerReference("example.dev/v1", "Node", "n", true)), schema.GroupKind{Kind: "Node"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, ok := ControllerOf(tt.obj, tt.owner)
			if name != tt.wantName || ok != tt.wantOK {
				t.Errorf("ControllerOf = (%q, %v), want (%q, %v)", name, ok, tt.wantName, tt.wantOK)
			}
		})
	}
}

// Generated owner index functions call ControllerOf for every object they
// index.
func TestControllerOfAllocatesNothing(t *testing.T) {
	if cachetest.RaceEnabled {
		t.Skip("allocation counts are meaningless under -race; make test runs this without it")
	}
	cm := ownedConfigMap(ownerReference("v1", "Secret", "s", false), ownerReference("shop.example.dev/v1", "Widget", "w", true))
	widgets := schema.GroupKind{Group: "shop.example.dev", Kind: "Widget"}
	found := 0
	allocs := testing.AllocsPerRun(100, func() {
		if _, ok := ControllerOf(cm, widgets); ok {
			found++
		}
	})
	if allocs != 0 {
		t.Errorf("ControllerOf allocates %v times per call, want 0", allocs)
	}
}

package controller

import (
	"context"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

func secret(namespace, name string, owners ...metav1.OwnerReference) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, OwnerReferences: owners}}
}

func ownerRef(apiVersion, kind, name string, controller bool) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: types.UID("uid-" + name), Controller: &controller}
}

func TestMapToControllerOwnerFollowsOnlyTheControllingOwnerOfTheKind(t *testing.T) {
	widgets := schema.GroupKind{Group: "shop.example.dev", Kind: "Widget"}
	tests := []struct {
		name       string
		obj        *corev1.Secret
		namespaced bool
		want       []cache.ObjectName
	}{
		{"controller of the kind", secret("ns", "s", ownerRef("shop.example.dev/v1", "Widget", "w", true)), true, []cache.ObjectName{key("ns", "w")}},
		{"any version of the group", secret("ns", "s", ownerRef("shop.example.dev/v1alpha1", "Widget", "w", true)), true, []cache.ObjectName{key("ns", "w")}},
		{"cluster-scoped owner", secret("ns", "s", ownerRef("shop.example.dev/v1", "Widget", "w", true)), false, []cache.ObjectName{key("", "w")}},
		{"owner but not controller", secret("ns", "s", ownerRef("shop.example.dev/v1", "Widget", "w", false)), true, nil},
		{"controller of another kind", secret("ns", "s", ownerRef("shop.example.dev/v1", "Shop", "w", true)), true, nil},
		{"controller of another group", secret("ns", "s", ownerRef("other.example.dev/v1", "Widget", "w", true)), true, nil},
		{"no owner", secret("ns", "s"), true, nil},
		{"controller among several owners", secret("ns", "s",
			ownerRef("v1", "ConfigMap", "cm", false), ownerRef("shop.example.dev/v1", "Widget", "w", true)), true, []cache.ObjectName{key("ns", "w")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MapToControllerOwner[*corev1.Secret](widgets, tt.namespaced)(context.Background(), tt.obj)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPredicates(t *testing.T) {
	withGen := func(gen int64, rv string, lbls map[string]string) *corev1.ConfigMap {
		cm := configMap("ns", "p", lbls, nil)
		cm.Generation, cm.ResourceVersion = gen, rv
		return cm
	}
	team := labels.SelectorFromSet(labels.Set{"team": "a"})
	tests := []struct {
		name             string
		pred             Predicate[*corev1.ConfigMap]
		oldObj, newObj   *corev1.ConfigMap
		add, update, del bool
	}{
		{"generation changed", GenerationChanged[*corev1.ConfigMap](), withGen(1, "1", nil), withGen(2, "2", nil), true, true, true},
		{"generation unchanged", GenerationChanged[*corev1.ConfigMap](), withGen(1, "1", nil), withGen(1, "2", nil), true, false, true},
		{"resync", ResourceVersionChanged[*corev1.ConfigMap](), withGen(1, "1", nil), withGen(1, "1", nil), true, false, true},
		{"resource version changed", ResourceVersionChanged[*corev1.ConfigMap](), withGen(1, "1", nil), withGen(1, "2", nil), true, true, true},
		{"labels match", LabelsMatch[*corev1.ConfigMap](team), withGen(1, "1", map[string]string{"team": "a"}), withGen(1, "2", map[string]string{"team": "a"}), true, true, true},
		{"labels never match", LabelsMatch[*corev1.ConfigMap](team), withGen(1, "1", map[string]string{"team": "b"}), withGen(1, "2", nil), false, false, false},
		{"leaving the selection", LabelsMatch[*corev1.ConfigMap](team), withGen(1, "1", map[string]string{"team": "a"}), withGen(1, "2", map[string]string{"team": "b"}), true, true, true},
		{"custom on the new object", NewPredicate(func(cm *corev1.ConfigMap) bool { return cm.Generation > 1 }), withGen(1, "1", nil), withGen(2, "2", nil), false, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.pred.Add(tt.oldObj); got != tt.add {
				t.Errorf("Add = %v, want %v", got, tt.add)
			}
			if got := tt.pred.Update(tt.oldObj, tt.newObj); got != tt.update {
				t.Errorf("Update = %v, want %v", got, tt.update)
			}
			if got := tt.pred.Delete(tt.oldObj, false); got != tt.del {
				t.Errorf("Delete = %v, want %v", got, tt.del)
			}
		})
	}
}

func TestPrimaryPredicatesFilterEventsBeforeTheyAreQueued(t *testing.T) {
	env := newTestEnv(t)
	rec := newRecorder(nil)
	c, err := New(env.primary(LabelsMatch[*corev1.ConfigMap](labels.SelectorFromSet(labels.Set{"team": "a"}))), rec, Options{Name: "predicates", SkipNameValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	env.run(c)
	env.create(configMap("ns", "other-team", map[string]string{"team": "b"}, nil))
	env.create(configMap("ns", "no-team", nil, nil))
	env.create(configMap("ns", "team-a", map[string]string{"team": "a"}, nil))
	// One handler, one informer and one worker keep the events in order:
	// had the first two been queued, they would have been reconciled first.
	rec.waitFor(t, key("ns", "team-a"), 1)
	if got := rec.keys(); !slices.Equal(got, []cache.ObjectName{key("ns", "team-a")}) {
		t.Errorf("reconciled %v, want only ns/team-a", got)
	}
}

func TestSecondarySourcesEnqueueTheirOwnerAndTheObjectsAnIndexNames(t *testing.T) {
	env := newTestEnv(t,
		configMap("ns", "owner", nil, nil),
		configMap("ns", "uses-creds", nil, map[string]string{"secret": "creds"}),
		configMap("ns", "also-uses-creds", nil, map[string]string{"secret": "creds"}),
		configMap("other", "uses-creds", nil, map[string]string{"secret": "creds"}),
	)
	rec := newRecorder(nil)
	c, err := New(env.primary(), rec, Options{Name: "secondary", SkipNameValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := WatchOwned(c, env.secrets); err != nil {
		t.Fatal(err)
	}
	indexer := env.configMaps.TypedStore()
	byLookup := MapByLookup(func(s *corev1.Secret) ([]*corev1.ConfigMap, error) {
		return indexer.ByIndexInNamespace(secretIndex, s.Namespace, s.Name)
	})
	if err := Watch(c, env.secrets, byLookup); err != nil {
		t.Fatal(err)
	}
	env.run(c)
	for _, name := range []string{"owner", "uses-creds", "also-uses-creds"} {
		rec.waitFor(t, key("ns", name), 1)
	}
	rec.waitFor(t, key("other", "uses-creds"), 1)

	ctx := context.Background()
	if _, err := env.client.CoreV1().Secrets("ns").Create(ctx, secret("ns", "owned", ownerRef("v1", "ConfigMap", "owner", true)), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, key("ns", "owner"), 2)
	if _, err := env.client.CoreV1().Secrets("ns").Create(ctx, secret("ns", "creds"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, key("ns", "uses-creds"), 2)
	rec.waitFor(t, key("ns", "also-uses-creds"), 2)
	if n := len(rec.times(key("other", "uses-creds"))); n != 1 {
		t.Errorf("a ConfigMap of another namespace was reconciled %d times, want 1", n)
	}
}

func TestAnUpdateEnqueuesTheOldAndTheNewOwner(t *testing.T) {
	env := newTestEnv(t, configMap("ns", "first", nil, nil), configMap("ns", "second", nil, nil))
	rec := newRecorder(nil)
	c, err := New(env.primary(), rec, Options{Name: "moved", SkipNameValidation: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := WatchOwned(c, env.secrets); err != nil {
		t.Fatal(err)
	}
	env.run(c)
	rec.waitFor(t, key("ns", "first"), 1)
	rec.waitFor(t, key("ns", "second"), 1)
	ctx := context.Background()
	s, err := env.client.CoreV1().Secrets("ns").Create(ctx, secret("ns", "s", ownerRef("v1", "ConfigMap", "first", true)), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, key("ns", "first"), 2)
	s.OwnerReferences = []metav1.OwnerReference{ownerRef("v1", "ConfigMap", "second", true)}
	if _, err := env.client.CoreV1().Secrets("ns").Update(ctx, s, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, key("ns", "second"), 2)
	rec.waitFor(t, key("ns", "first"), 3)
}

package gvrtest

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// Churn is a fake client's objects of one resource, written at random by
// CheckIndexesAgreeWithBruteForce.
type Churn[T cache.Object] struct {
	// Tracker is the fake's object tracker, and GVR the resource.
	Tracker clienttesting.ObjectTracker
	GVR     schema.GroupVersionResource
	// Random returns an object called name in namespace with random values
	// (absent ones included) for every index the check declares.
	Random func(rng *rand.Rand, namespace, name string) T
	// Watching is closed once a watch of GVR is registered with the fake.
	Watching <-chan struct{}
	// Disagreements compares the lookups of indexes (index name to spec)
	// with a filter of objs: "" when every lookup agrees, else what each
	// that disagrees answered and should have. Tests pass the brute-force
	// check of internal/testing/indexcheck.
	Disagreements func(lookups Lookups[T], indexes map[string]fieldpath.IndexSpec, objs []T) string
}

// Lookups is what Churn.Disagreements asks: the lookups of the run-time
// indexes of an informer. It is an alias of an interface literal, so that
// internal/testing/indexcheck's Disagreements, whose Lookups is the same
// literal, is a Churn.Disagreements as it is.
type Lookups[T cache.Object] = interface {
	ByIndex(name string, values ...string) ([]T, error)
	ByIndexInNamespace(name, namespace string, values ...string) ([]T, error)
}

// churnNamespaces and churnNames are where the objects of a Churn are.
var (
	churnNamespaces = []string{"a", "b", "c"}
	churnNames      = 30
)

// CheckIndexesAgreeWithBruteForce fills the fake with 20 random objects,
// starts f, whose informer of c.GVR has indexes (index name to spec)
// declared, and checks that every lookup of every index, in every namespace and in
// each, answers what a filter of the fake's objects answers
// (c.Disagreements): after the sync, after each of five rounds of
// random creates, updates (which move indexed values) and deletes, and
// after declaring late while the informer runs.
func CheckIndexesAgreeWithBruteForce[T cache.Object, N any](t *testing.T, f *gvrfactory.Factory[T, N], c Churn[T], rng *rand.Rand, indexes map[string]fieldpath.IndexSpec, late fieldpath.IndexSpec) {
	t.Helper()
	for i := range 20 {
		ns, name := churnNamespaces[i%3], fmt.Sprint("o", i)
		if err := c.Tracker.Create(c.GVR, c.Random(rng, ns, name), ns); err != nil {
			t.Fatal(err)
		}
	}
	r := f.Resource(c.GVR)
	parsed := maps.Clone(indexes)
	Start(t, f)
	WaitFor(t, "the watch of "+c.GVR.Resource, c.Watching)
	agree := func() string {
		objs, err := trackedObjects(c)
		if err != nil {
			return err.Error()
		}
		if got, want := len(r.Informer().GetStore().ListKeys()), len(objs); got != want {
			return fmt.Sprintf("the store holds %d objects, the fake %d", got, want)
		}
		return c.Disagreements(r, parsed, objs)
	}
	Eventually(t, "after sync", agree)
	for round := range 5 {
		for range 15 {
			if err := writeAtRandom(c, rng); err != nil {
				t.Fatal(err)
			}
		}
		Eventually(t, fmt.Sprint("after round ", round), agree)
	}
	if err := r.AddIndexSpec("late", late); err != nil {
		t.Fatal(err)
	}
	parsed["late"] = late
	Eventually(t, "after a late index", agree)
}

// writeAtRandom creates, updates or deletes an object of c at random.
func writeAtRandom[T cache.Object](c Churn[T], rng *rand.Rand) error {
	ns, name := churnNamespaces[rng.IntN(3)], fmt.Sprint("o", rng.IntN(churnNames))
	_, err := c.Tracker.Get(c.GVR, ns, name)
	switch {
	case err != nil:
		return c.Tracker.Create(c.GVR, c.Random(rng, ns, name), ns)
	case rng.IntN(3) == 0:
		return c.Tracker.Delete(c.GVR, ns, name)
	default:
		return c.Tracker.Update(c.GVR, c.Random(rng, ns, name), ns)
	}
}

// trackedObjects returns every object of c the fake holds.
func trackedObjects[T cache.Object](c Churn[T]) ([]T, error) {
	var objs []T
	for _, ns := range churnNamespaces {
		for i := range churnNames {
			obj, err := c.Tracker.Get(c.GVR, ns, fmt.Sprint("o", i))
			if apierrors.IsNotFound(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			typed, ok := obj.(T)
			if !ok {
				return nil, fmt.Errorf("the fake holds a %T", obj)
			}
			objs = append(objs, typed)
		}
	}
	return objs, nil
}

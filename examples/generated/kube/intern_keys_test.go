package kube_test

import (
	"reflect"
	"testing"

	appsv1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/apps/v1"
	corev1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
)

// deepCopier is a pointer to an API type with its generated DeepCopy.
type deepCopier[T any] interface {
	*T
	DeepCopy() *T
}

// raceStride is the fraction of the mutations checked under the race
// detector, which slows this single-goroutine test tenfold and has nothing
// to find in it: every raceStride-th.
const raceStride = 8

// testInternKeepsEveryMutation checks the generated Intern<Kind> of one kind
// against every field of the kind, without naming the key encoders it
// calls. An object A with every field set goes through internKind, and
// stays alive, so that its parts are the canonical ones of their keys; then
// for each of its mutations, a deep copy B of A changed by that mutation
// goes through internKind and must stay DeepEqual to what it was. A key
// encoder that forgets a field gives the part of B that holds the mutation
// the key of A's part, and the pool then hands B A's part, which is not
// equal: the test fails, naming the mutation.
//
// What B must equal is A with the mutation applied, copying only the parts
// on the way to it: what B shares correctly is then the very part the
// expected object holds, which reflect.DeepEqual does not descend into.
// Every mutation is checked on a whole object all the same, in about a
// third of the time two full copies compared would take.
func testInternKeepsEveryMutation[T any, PT deepCopier[T]](t *testing.T, internKind func(PT)) {
	filled := PT(new(T))
	(&filler{}).fill(reflect.ValueOf(filled).Elem())
	muts := mutations(reflect.ValueOf(filled).Elem())
	if len(muts) < 100 {
		t.Fatalf("only %d mutations", len(muts))
	}
	a := filled.DeepCopy()
	internKind(a)
	if !reflect.DeepEqual(a, filled) {
		t.Fatal("the transform changed the filled object")
	}
	stride := 1
	if raceEnabled {
		stride = raceStride
	}
	checked, failures := 0, 0
	for i := 0; i < len(muts); i += stride {
		m := &muts[i]
		want := PT(new(T))
		*want = *a
		m.apply(reflect.ValueOf(want).Elem())
		if reflect.DeepEqual(partAt(reflect.ValueOf(a).Elem(), m.path).Interface(), partAt(reflect.ValueOf(want).Elem(), m.path).Interface()) {
			t.Fatalf("mutation %s left the object DeepEqual", m.desc)
		}
		b := filled.DeepCopy()
		m.apply(reflect.ValueOf(b).Elem())
		internKind(b)
		checked++
		if !reflect.DeepEqual(b, want) {
			t.Errorf("after mutation %s, the transform changed the object: a key encoder ignores the field", m.desc)
			if failures++; failures == 10 {
				t.Fatal("too many failures")
			}
		}
	}
	if !reflect.DeepEqual(a, filled) {
		t.Fatal("the mutations changed the filled object")
	}
	t.Logf("%d of %d mutations checked", checked, len(muts))
}

// InternPod keeps every mutation of a filled pod: its key encoders read
// every field of every type they share.
func TestInternPodKeepsEveryMutation(t *testing.T) {
	testInternKeepsEveryMutation(t, corev1listers.InternPod)
}

// InternDeployment, for the pod template and the rest of a Deployment.
func TestInternDeploymentKeepsEveryMutation(t *testing.T) {
	testInternKeepsEveryMutation(t, appsv1listers.InternDeployment)
}

// InternConfigMap, for its data and metadata.
func TestInternConfigMapKeepsEveryMutation(t *testing.T) {
	testInternKeepsEveryMutation(t, corev1listers.InternConfigMap)
}

package kube_test

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	appsv1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/apps/v1"
	corev1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
)

// testInternUpdateKeepsEveryMutation checks the generated
// Intern<Kind>Update of one kind against every field of the kind, with the
// mutations of testInternKeepsEveryMutation, in both directions, as an
// informer sees three versions of an object: A, with every field set,
// goes through internKind and is the cached version; then, for each
// mutation:
//
//   - forward: a deep copy B of A's source, changed by the mutation (fresh:
//     it shares no memory with A), goes through update(B, A). B must stay
//     DeepEqual to what it was: an equality function that ignores the
//     mutated field gives B A's part, which is not equal. A must stay
//     DeepEqual to its source: the update path only reads the old version.
//   - reverse: B, cached now (interned by the update path, as an informer
//     interns it), is the old version of C, an unmutated fresh copy of A's
//     source, which goes through update(C, B). C must stay DeepEqual to A's
//     source, and B to the mutated object.
//
// What B must equal is A with the mutation applied, copying only the parts
// on the way to it (see testInternKeepsEveryMutation): the parts B shares
// correctly with A are the very parts the expected object holds, which
// reflect.DeepEqual does not descend into. A's part at the mutation's path
// is compared with its source's after each forward update (an update that
// writes to the old version most likely writes what it compares), and the
// whole of A with its source, which shares nothing with it, every 32nd
// mutation and at the end (a full comparison costs more than the rest); B's
// own parts are covered by the comparison after the reverse update, and
// those it shares with A by A's.
func testInternUpdateKeepsEveryMutation[T any, PT deepCopier[T]](t *testing.T, internKind func(PT), update func(obj, old PT), stride int) {
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
	if raceEnabled {
		stride *= raceStride
	}
	// An unchanged new version, as a resync or a no-op update sends it:
	// everything is old's.
	same := filled.DeepCopy()
	update(same, a)
	if !reflect.DeepEqual(same, filled) {
		t.Fatal("the update of an unchanged object changed it")
	}
	checked, failures := 0, 0
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
		if failures++; failures == 10 {
			t.Fatal("too many failures")
		}
	}
	for i := 0; i < len(muts); i += stride {
		m := &muts[i]
		want := PT(new(T))
		*want = *a
		m.apply(reflect.ValueOf(want).Elem())
		if reflect.DeepEqual(partAt(reflect.ValueOf(a).Elem(), m.path).Interface(), partAt(reflect.ValueOf(want).Elem(), m.path).Interface()) {
			t.Fatalf("mutation %s left the object DeepEqual", m.desc)
		}

		// Forward: the new version holds the mutation.
		b := filled.DeepCopy()
		m.apply(reflect.ValueOf(b).Elem())
		update(b, a)
		checked++
		if !reflect.DeepEqual(b, want) {
			fail("forward, after mutation %s, the update changed the new version: an equality function ignores the field, or the update walker gave it the old version's part", m.desc)
			continue
		}
		if !samePart(a, filled, m.path) {
			t.Fatalf("forward, with mutation %s, the update changed the old version's part there", m.desc)
		}
		if checked%32 == 0 && !reflect.DeepEqual(a, filled) {
			t.Fatalf("forward, by mutation %s or one of the 31 before, the update changed the old version", m.desc)
		}

		// Reverse: the old version holds the mutation.
		c := filled.DeepCopy()
		update(c, b)
		if !reflect.DeepEqual(c, a) {
			fail("reverse, after mutation %s of the old version, the update changed the new version: an equality function ignores the field, or the update walker gave it the old version's part", m.desc)
		}
		if !reflect.DeepEqual(b, want) {
			fail("reverse, with mutation %s in the old version, the update changed the old version", m.desc)
		}
	}
	if !reflect.DeepEqual(a, filled) {
		t.Fatal("the updates changed the old version")
	}
	t.Logf("%d of %d mutations checked, both ways", checked, len(muts))

	// Nil and empty: reflect.DeepEqual tells a nil slice or map from an
	// empty one, which have the same length. For every slice and map, a
	// version holding it nil is the old version of one holding it empty,
	// and the other way round (mutations lists "= nil" and "= empty" of one
	// part one after the other).
	pairs := 0
	for i := 0; i+1 < len(muts); i += stride {
		mnil, mempty := &muts[i], &muts[i+1]
		part, isNil := strings.CutSuffix(mnil.desc, " = nil")
		if !isNil || mempty.desc != part+" = empty" {
			continue
		}
		pairs++
		for _, dir := range []struct {
			name     string
			old, obj *mutation
		}{{"nil to empty", mnil, mempty}, {"empty to nil", mempty, mnil}} {
			old := filled.DeepCopy()
			dir.old.apply(reflect.ValueOf(old).Elem())
			update(old, a)
			want, oldWant := PT(new(T)), PT(new(T))
			*want, *oldWant = *a, *a
			dir.obj.apply(reflect.ValueOf(want).Elem())
			dir.old.apply(reflect.ValueOf(oldWant).Elem())
			obj := filled.DeepCopy()
			dir.obj.apply(reflect.ValueOf(obj).Elem())
			update(obj, old)
			if !reflect.DeepEqual(obj, want) {
				fail("%s, %s: the update changed the new version (an equality function takes a nil slice or map for an empty one)", part, dir.name)
			}
			if !reflect.DeepEqual(old, oldWant) {
				fail("%s, %s: the update changed the old version", part, dir.name)
			}
		}
	}
	if pairs == 0 {
		t.Fatal("no slice or map to set nil and empty")
	}
	if !reflect.DeepEqual(a, filled) {
		t.Fatal("the updates changed the old version")
	}
	t.Logf("%d slices and maps checked nil against empty, both ways", pairs)
}

// samePart reports whether x and y (pointers to values of one type) hold
// DeepEqual parts at path, or neither holds one.
func samePart(x, y any, path []step) bool {
	px, okx := safePartAt(reflect.ValueOf(x).Elem(), path)
	py, oky := safePartAt(reflect.ValueOf(y).Elem(), path)
	if !okx || !oky {
		return okx == oky
	}
	return reflect.DeepEqual(px.Interface(), py.Interface())
}

// safePartAt is partAt, reporting false when a nil pointer or a missing
// map entry or slice element is on the way.
func safePartAt(v reflect.Value, path []step) (reflect.Value, bool) {
	for _, s := range path {
		switch s.kind {
		case reflect.Struct:
			v = v.Field(s.index)
		case reflect.Pointer:
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		case reflect.Slice:
			if s.index >= v.Len() {
				return reflect.Value{}, false
			}
			v = v.Index(s.index)
		case reflect.Map:
			if v = v.MapIndex(s.key); !v.IsValid() {
				return reflect.Value{}, false
			}
		}
	}
	return v, true
}

// InternPodUpdate keeps every mutation of a filled pod, whichever version
// holds it, and never writes to the old version.
func TestInternPodUpdateKeepsEveryMutation(t *testing.T) {
	testInternUpdateKeepsEveryMutation(t, corev1listers.InternPod, corev1listers.InternPodUpdate, 1)
}

// InternDeploymentUpdate, over one mutation in 8 of a Deployment's (its pod
// template's walker is Pod's, checked above in full).
func TestInternDeploymentUpdateKeepsMutations(t *testing.T) {
	testInternUpdateKeepsEveryMutation(t, appsv1listers.InternDeployment, appsv1listers.InternDeploymentUpdate, 8)
}

// InternConfigMapUpdate, over every mutation of a ConfigMap.
func TestInternConfigMapUpdateKeepsEveryMutation(t *testing.T) {
	testInternUpdateKeepsEveryMutation(t, corev1listers.InternConfigMap, corev1listers.InternConfigMapUpdate, 1)
}

// shareWalker compares, node by node, how a value x shares its parts with
// a value y to how a reference r1 shares its parts with a reference r2: at
// every string, pointer, slice and map that the four hold at the same path
// (not empty, not nil), x and y must hold one copy exactly where r1 and r2
// do. With r1 and r2 two copies of an object through Intern<Kind>, that is
// "x shares with y what the transform shares, and nothing else".
type shareWalker struct {
	// onlyEqual restricts the comparison to the nodes where x and y are
	// reflect.DeepEqual (the walk goes through the others), and allows a
	// slice that InternPod walks (the references do not share it) to be
	// shared by x and y when its elements are the same bit for bit: the
	// update path then keeps the old version's array (intern.ClipFrom).
	onlyEqual bool
	nodes     int      // nodes compared
	reused    int      // walked slices x and y share, bit for bit the same
	diffs     []string // the paths where x and y share otherwise than r1 and r2
}

// identity reports whether a and b are one copy, and whether the question
// applies (both set).
func identity(a, b reflect.Value) (same, applies bool) {
	switch a.Kind() {
	case reflect.String:
		if a.Len() == 0 || b.Len() == 0 {
			return false, false
		}
		return unsafe.StringData(a.String()) == unsafe.StringData(b.String()), true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return false, false
		}
		return a.Pointer() == b.Pointer(), true
	case reflect.Slice, reflect.Map:
		if a.Len() == 0 || b.Len() == 0 {
			return false, false
		}
		return a.Pointer() == b.Pointer(), true
	}
	return false, false
}

func (w *shareWalker) compare(x, y, r1, r2 reflect.Value, path string) {
	sx, okx := identity(x, y)
	sr, okr := identity(r1, r2)
	if !okx || !okr {
		return
	}
	if w.onlyEqual && !reflect.DeepEqual(x.Interface(), y.Interface()) {
		return
	}
	w.nodes++
	if sx != sr {
		w.diffs = append(w.diffs, fmt.Sprintf("%s: shared %v, the references %v", path, sx, sr))
	}
}

// reusedArray reports, counting it, whether slice x is old's array y where
// the references hold arrays of their own: allowed only in onlyEqual mode.
func (w *shareWalker) reusedArray(x, y, r1, r2 reflect.Value) bool {
	sx, okx := identity(x, y)
	sr, okr := identity(r1, r2)
	if !w.onlyEqual || !okx || !okr || !sx || sr {
		return false
	}
	w.reused++
	return true
}

func (w *shareWalker) walk(x, y, r1, r2 reflect.Value, path string) {
	switch x.Kind() {
	case reflect.String:
		w.compare(x, y, r1, r2, path)
	case reflect.Pointer:
		w.compare(x, y, r1, r2, path)
		if !x.IsNil() && !y.IsNil() && !r1.IsNil() && !r2.IsNil() {
			w.walk(x.Elem(), y.Elem(), r1.Elem(), r2.Elem(), "(*"+path+")")
		}
	case reflect.Slice:
		if w.reusedArray(x, y, r1, r2) {
			return // its elements are old's, all of them
		}
		w.compare(x, y, r1, r2, path)
		for i := range min(x.Len(), y.Len(), r1.Len(), r2.Len()) {
			w.walk(x.Index(i), y.Index(i), r1.Index(i), r2.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		w.compare(x, y, r1, r2, path)
		if x.Len() == 0 || y.Len() == 0 || r1.Len() == 0 || r2.Len() == 0 {
			return
		}
		keysOf := func(m reflect.Value) map[any]reflect.Value {
			out := map[any]reflect.Value{}
			for it := m.MapRange(); it.Next(); {
				out[it.Key().Interface()] = it.Key()
			}
			return out
		}
		ky, k1, k2 := keysOf(y), keysOf(r1), keysOf(r2)
		for it := x.MapRange(); it.Next(); {
			k := it.Key().Interface()
			if _, ok := ky[k]; !ok {
				continue
			}
			if _, ok := k1[k]; !ok {
				continue
			}
			if _, ok := k2[k]; !ok {
				continue
			}
			kpath := fmt.Sprintf("%s[%v]", path, k)
			if it.Key().Kind() == reflect.String {
				w.compare(it.Key(), ky[k], k1[k], k2[k], kpath+" (key)")
			}
			w.walk(it.Value(), y.MapIndex(ky[k]), r1.MapIndex(k1[k]), r2.MapIndex(k2[k]), kpath)
		}
	case reflect.Struct:
		for i := range x.NumField() {
			if f := x.Type().Field(i); f.IsExported() {
				w.walk(x.Field(i), y.Field(i), r1.Field(i), r2.Field(i), path+"."+f.Name)
			}
		}
	}
}

// checkSharing runs a shareWalker over x, y, r1 and r2 and reports its
// differences, at least min nodes compared.
func checkSharing(t *testing.T, what string, x, y, r1, r2 any, onlyEqual bool, minNodes int) {
	t.Helper()
	w := &shareWalker{onlyEqual: onlyEqual}
	w.walk(reflect.ValueOf(x), reflect.ValueOf(y), reflect.ValueOf(r1), reflect.ValueOf(r2), "pod")
	for i, d := range w.diffs {
		if i == 10 {
			t.Errorf("%s: %d more", what, len(w.diffs)-i)
			break
		}
		t.Errorf("%s: %s", what, d)
	}
	if w.nodes < minNodes {
		t.Errorf("%s: only %d nodes compared, want at least %d", what, w.nodes, minNodes)
	}
}

// statusUpdate changes p as the kubelet's status update after a crash
// does: a new resourceVersion, the Ready condition false since a minute
// later, the app container waiting in CrashLoopBackOff after an OOM kill.
// The new strings are fresh copies, as a decoder gives them.
func statusUpdate(p *corev1.Pod) {
	p.ResourceVersion += "1"
	for i := range p.Status.Conditions {
		if c := &p.Status.Conditions[i]; c.Type == corev1.PodReady {
			c.Status = corev1.ConditionStatus(strings.Clone(string(corev1.ConditionFalse)))
			c.Reason = strings.Clone("ContainersNotReady")
			c.Message = strings.Clone("containers with unready status: [app]")
			c.LastTransitionTime = metav1.NewTime(c.LastTransitionTime.Add(time.Minute))
		}
	}
	cs := &p.Status.ContainerStatuses[0]
	cs.Ready = false
	cs.RestartCount++
	cs.LastTerminationState = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
		ExitCode: 137, Reason: strings.Clone("OOMKilled"),
		StartedAt: cs.State.Running.StartedAt, FinishedAt: metav1.NewTime(cs.State.Running.StartedAt.Add(time.Hour)),
	}}
	cs.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{
		Reason:  strings.Clone("CrashLoopBackOff"),
		Message: strings.Clone("back-off 10s restarting failed container=app"),
	}}
}

// A status update reuses the old version's parts: the new version of a
// pod, decoded on its own and changed in its resourceVersion and status
// only, goes through InternPodUpdate with the old version (interned) and
// stays DeepEqual to what it was; its parts equal to old's are old's
// wherever InternPod would share them (strings' bytes, probes,
// environments, tolerations, labels, owner references, resource lists),
// its changed parts are not old's but the canonical copies a third copy of
// the new version gets from InternPod, and old is not changed.
func TestInternPodUpdateReusesUnchangedParts(t *testing.T) {
	s := protobuf(t)
	data := encodedPods(t, testpods.Config{Namespaces: 2, PodsPerNamespace: 30, Nodes: 5})
	for _, d := range data {
		old := decodePod(t, s, d)
		corev1listers.InternPod(old)
		oldWant := decodePod(t, s, d)

		obj := decodePod(t, s, d)
		statusUpdate(obj)
		want := obj.DeepCopy()
		corev1listers.InternPodUpdate(obj, old)
		if !reflect.DeepEqual(obj, want) {
			t.Fatalf("pod %s/%s: the update changed it:\nbefore %+v\nafter  %+v", obj.Namespace, obj.Name, want, obj)
		}
		if !reflect.DeepEqual(old, oldWant) {
			t.Fatalf("pod %s/%s: the update changed the old version", obj.Namespace, obj.Name)
		}
		// Two references: copies of the new version through InternPod.
		r1, r2 := decodePod(t, s, d), decodePod(t, s, d)
		statusUpdate(r1)
		statusUpdate(r2)
		corev1listers.InternPod(r1)
		corev1listers.InternPod(r2)

		// What it holds equal to old, it shares with old exactly where
		// InternPod shares.
		// (Fewer nodes than below: the arrays kept whole are not entered.)
		checkSharing(t, "pod "+obj.Name+" and its old version", obj, old, r1, r2, true, 80)
		// Everything, the changed parts included, it shares with an
		// interned copy exactly where InternPod shares: its changed parts
		// are canonical, its unique parts its own.
		checkSharing(t, "pod "+obj.Name+" and an interned copy", obj, r1, r1, r2, false, 150)

		// The same, by name, for the parts a reader expects.
		shared := map[string]bool{
			"namespace":          sameString(obj.Namespace, old.Namespace),
			"generate name":      sameString(obj.GenerateName, old.GenerateName),
			"labels":             sameMap(obj.Labels, old.Labels),
			"annotations":        sameMap(obj.Annotations, old.Annotations),
			"owner references":   sameArray(obj.OwnerReferences, old.OwnerReferences),
			"managed fields":     obj.ManagedFields[0].FieldsV1 == old.ManagedFields[0].FieldsV1,
			"tolerations":        sameArray(obj.Spec.Tolerations, old.Spec.Tolerations),
			"pod security":       obj.Spec.SecurityContext == old.Spec.SecurityContext,
			"node name":          sameString(obj.Spec.NodeName, old.Spec.NodeName),
			"config map volume":  obj.Spec.Volumes[0].ConfigMap == old.Spec.Volumes[0].ConfigMap,
			"projected volume":   obj.Spec.Volumes[1].Projected == old.Spec.Volumes[1].Projected,
			"image":              sameString(obj.Spec.Containers[0].Image, old.Spec.Containers[0].Image),
			"environment":        sameArray(obj.Spec.Containers[0].Env, old.Spec.Containers[0].Env),
			"ports":              sameArray(obj.Spec.Containers[0].Ports, old.Spec.Containers[0].Ports),
			"readiness probe":    obj.Spec.Containers[0].ReadinessProbe == old.Spec.Containers[0].ReadinessProbe,
			"resource requests":  sameMap(obj.Spec.Containers[0].Resources.Requests, old.Spec.Containers[0].Resources.Requests),
			"resource limits":    sameMap(obj.Spec.Containers[1].Resources.Limits, old.Spec.Containers[1].Resources.Limits),
			"mount path":         sameString(obj.Spec.Containers[0].VolumeMounts[0].MountPath, old.Spec.Containers[0].VolumeMounts[0].MountPath),
			"phase":              sameString(obj.Status.Phase, old.Status.Phase),
			"condition type":     sameString(obj.Status.Conditions[0].Type, old.Status.Conditions[0].Type),
			"status image":       sameString(obj.Status.ContainerStatuses[0].Image, old.Status.ContainerStatuses[0].Image),
			"other status image": sameString(obj.Status.ContainerStatuses[1].ImageID, old.Status.ContainerStatuses[1].ImageID),
			"container started":  obj.Status.ContainerStatuses[1].Started == old.Status.ContainerStatuses[1].Started,
		}
		for what, ok := range shared {
			if !ok {
				t.Errorf("pod %s: its %s equal to the old version's is not the old version's", obj.Name, what)
			}
		}
		// Unchanged arrays the walk goes through are kept whole.
		if !sameArray(obj.Spec.Containers, old.Spec.Containers) || !sameArray(obj.Spec.Volumes, old.Spec.Volumes) {
			t.Errorf("pod %s: its unchanged containers or volumes are not the old version's arrays", obj.Name)
		}
		st, ost, rst := &obj.Status, &old.Status, &r1.Status
		if sameArray(st.Conditions, ost.Conditions) || sameArray(st.ContainerStatuses, ost.ContainerStatuses) {
			t.Errorf("pod %s: its changed conditions or container statuses are the old version's", obj.Name)
		}
		if sameString(obj.ResourceVersion, old.ResourceVersion) {
			t.Errorf("pod %s: its new resourceVersion shares the old one's bytes", obj.Name)
		}
		ready := slices.IndexFunc(st.Conditions, func(c corev1.PodCondition) bool { return c.Type == corev1.PodReady })
		if ready < 0 || !sameString(st.Conditions[ready].Reason, rst.Conditions[ready].Reason) ||
			!sameString(st.Conditions[ready].Status, rst.Conditions[ready].Status) {
			t.Errorf("pod %s: its changed Ready condition is not interned", obj.Name)
		}
		if w := st.ContainerStatuses[0].State.Waiting; w == nil || w != rst.ContainerStatuses[0].State.Waiting {
			t.Errorf("pod %s: its new waiting state is not the canonical one", obj.Name)
		}
		if tm := st.ContainerStatuses[0].LastTerminationState.Terminated; tm == nil || !sameString(tm.Reason, rst.ContainerStatuses[0].LastTerminationState.Terminated.Reason) {
			t.Errorf("pod %s: its new termination reason is not interned", obj.Name)
		}
	}
}

// Without an old version, InternPodUpdate is InternPod: a pod through
// InternPodUpdate(obj, nil) stays DeepEqual and shares its parts with a
// copy through InternPod exactly where two copies through InternPod share
// theirs. A nil object is left alone, with or without an old version.
func TestInternPodUpdateNilOld(t *testing.T) {
	s := protobuf(t)
	data := encodedPods(t, testpods.Config{Namespaces: 1, PodsPerNamespace: 20, Nodes: 5})
	edge, err := testpods.EncodeAll(edgePods())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range append(edge, data...) {
		obj, want := decodePod(t, s, d), decodePod(t, s, d)
		corev1listers.InternPodUpdate(obj, nil)
		if !reflect.DeepEqual(obj, want) {
			t.Fatalf("pod %s/%s: InternPodUpdate(obj, nil) changed it:\nbefore %+v\nafter  %+v", want.Namespace, want.Name, want, obj)
		}
		r1, r2 := decodePod(t, s, d), decodePod(t, s, d)
		corev1listers.InternPod(r1)
		corev1listers.InternPod(r2)
		checkSharing(t, "pod "+want.Name+" and an interned copy", obj, r1, r1, r2, false, 0)
	}
	// By name, for a realistic pod.
	full, ref := decodePod(t, s, data[0]), decodePod(t, s, data[0])
	corev1listers.InternPodUpdate(full, nil)
	corev1listers.InternPod(ref)
	if c, rc := &full.Spec.Containers[0], &ref.Spec.Containers[0]; c.ReadinessProbe != rc.ReadinessProbe || !sameArray(c.Env, rc.Env) ||
		!sameString(full.Namespace, ref.Namespace) || !sameMap(full.Labels, ref.Labels) || sameString(full.Name, ref.Name) {
		t.Error("InternPodUpdate(obj, nil) does not share as InternPod does")
	}

	old := decodePod(t, s, data[0])
	corev1listers.InternPod(old)
	for _, f := range []func(){
		func() { corev1listers.InternPodUpdate(nil, nil) },
		func() { corev1listers.InternPodUpdate(nil, old) },
		func() { corev1listers.InternPod(nil) },
		func() { appsv1listers.InternDeploymentUpdate(nil, nil) },
		func() { corev1listers.InternConfigMapUpdate(nil, nil) },
		func() { externalversions.Intern(nil, nil) },
		func() { externalversions.Intern((*corev1.Pod)(nil), old) },
	} {
		f()
	}
	// An old version of another type is no old version.
	obj, want := decodePod(t, s, data[0]), decodePod(t, s, data[0])
	externalversions.Intern(obj, &corev1.ConfigMap{})
	if !reflect.DeepEqual(obj, want) {
		t.Error("Intern with an old version of another type changed the pod")
	}
}

// factoryPods are the pods of the factory tests, and the objects to give
// the fake clientset: each pod's strings are its own copies (as
// testpods.Generate makes them; the namespace cloned once more, so that no
// two source pods share its bytes whatever Generate does), and the fake
// clientset's objects share their strings with them (DeepCopy does not copy
// strings), so that pods sharing a string in a cache prove interning.
func factoryPods() ([]*corev1.Pod, []k8sruntime.Object) {
	pods := testpods.Generate(testpods.Config{Namespaces: 2, PodsPerNamespace: 40, Nodes: 5})
	objs := make([]k8sruntime.Object, len(pods))
	for i, p := range pods {
		p.Namespace = strings.Clone(p.Namespace)
		objs[i] = p.DeepCopy()
	}
	return pods, objs
}

// startFactory starts the pod informer of factory over client, and waits
// until it has synced and watches: the fake clientset's tracker hands the
// objects an update makes before the watch starts to the watch as it holds
// them, not copied, and the informer then interns the tracker's own object.
func startFactory(t *testing.T, client *fake.Clientset, options ...externalversions.SharedInformerOption) corev1listers.PodLister {
	t.Helper()
	watching := make(chan struct{})
	var once sync.Once
	client.PrependWatchReactor("pods", func(action clienttesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if wa, ok := action.(clienttesting.WatchActionImpl); ok {
			opts = wa.ListOptions
		}
		w, err := client.Tracker().Watch(action.GetResource(), action.GetNamespace(), opts)
		if err != nil {
			return true, nil, err
		}
		once.Do(func() { close(watching) })
		return true, w, nil
	})
	factory := externalversions.NewSharedInformerFactoryWithOptions(client, 0, options...)
	lister := factory.Core().V1().Pods().Lister()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	factory.Start(ctx.Done())
	t.Cleanup(func() {
		cancel()
		factory.Shutdown()
	})
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("%v did not sync", typ)
		}
	}
	select {
	case <-watching:
	case <-ctx.Done():
		t.Fatal("the informer does not watch")
	}
	return lister
}

// cachedPods returns the pods of lister by namespace and name, checking
// there are n of them.
func cachedPods(t *testing.T, lister corev1listers.PodLister, n int) map[string]*corev1.Pod {
	t.Helper()
	cached, err := lister.List(labels.Everything())
	if err != nil || len(cached) != n {
		t.Fatalf("lister has %d pods (%v), want %d", len(cached), err, n)
	}
	out := map[string]*corev1.Pod{}
	for _, p := range cached {
		out[p.Namespace+"/"+p.Name] = p
	}
	return out
}

// updatePods updates the pods through client, changing each with change,
// and waits until lister holds their new versions (changed reports it: the
// fake clientset keeps the resourceVersion an object comes with), which it
// returns with the server's objects.
func updatePods(t *testing.T, client *fake.Clientset, lister corev1listers.PodLister, pods []*corev1.Pod, status bool, change func(*corev1.Pod), changed func(*corev1.Pod) bool) (cached, server []*corev1.Pod) {
	t.Helper()
	ctx := context.Background()
	for _, p := range pods {
		p = p.DeepCopy()
		change(p)
		var err error
		if status {
			_, err = client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{})
		} else {
			_, err = client.CoreV1().Pods(p.Namespace).Update(ctx, p, metav1.UpdateOptions{})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for _, p := range pods {
		want, err := client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for {
			got, err := lister.Pods(p.Namespace).Get(p.Name)
			if err != nil {
				t.Fatal(err)
			}
			if changed(got) {
				cached, server = append(cached, got), append(server, want)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("pod %s/%s: the cache does not show the update", p.Namespace, p.Name)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	return cached, server
}

// replicaSets returns the cached pods of the ReplicaSets with at least
// three replicas, by owner.
func replicaSets(cached map[string]*corev1.Pod) [][]*corev1.Pod {
	byOwner := map[string][]*corev1.Pod{}
	var owners []string
	for _, key := range slices.Sorted(maps.Keys(cached)) {
		p := cached[key]
		if ref := metav1.GetControllerOf(p); ref != nil {
			if byOwner[string(ref.UID)] == nil {
				owners = append(owners, string(ref.UID))
			}
			byOwner[string(ref.UID)] = append(byOwner[string(ref.UID)], p)
		}
	}
	var out [][]*corev1.Pod
	for _, o := range owners {
		if len(byOwner[o]) >= 3 {
			out = append(out, byOwner[o])
		}
	}
	return out
}

// A factory interns by default, on the list and on the update path: its
// cached pods of a namespace share the namespace's bytes (their sources do
// not), and after pods are updated through the server (a label of two
// replicas, the status of two others), the cache holds the server's new
// versions, DeepEqual, sharing their namespace and their unchanged probes,
// environments and tolerations with their old versions and with the other
// replicas, and their changed labels and conditions with each other.
func TestFactoryInternsByDefault(t *testing.T) {
	pods, objs := factoryPods()
	client := fake.NewClientset(objs...)
	lister := startFactory(t, client)
	cached := cachedPods(t, lister, len(pods))
	byNamespace := map[string]*corev1.Pod{}
	for _, key := range slices.Sorted(maps.Keys(cached)) {
		p := cached[key]
		if first := byNamespace[p.Namespace]; first == nil {
			byNamespace[p.Namespace] = p
		} else if !sameString(p.Namespace, first.Namespace) {
			t.Fatalf("cached pods %s and %s of one namespace do not share its name's bytes: not interned", first.Name, p.Name)
		}
	}
	if len(byNamespace) != 2 {
		t.Fatalf("cached pods are in %d namespaces, want 2", len(byNamespace))
	}

	sets := replicaSets(cached)
	if len(sets) < 2 {
		t.Fatalf("only %d ReplicaSets of three replicas or more", len(sets))
	}
	labelled, statused := sets[0], sets[1]
	version := strings.Clone("v9.9.9")
	newLabels, newServers := updatePods(t, client, lister, labelled[:2], false, func(p *corev1.Pod) {
		p.Labels["version"] = strings.Clone(version)
	}, func(p *corev1.Pod) bool { return p.Labels["version"] == version })
	newStatus, statusServers := updatePods(t, client, lister, statused[:2], true, func(p *corev1.Pod) {
		p.Status.Conditions[0].Status = corev1.ConditionStatus(strings.Clone(string(corev1.ConditionFalse)))
		p.Status.Conditions[0].Reason = strings.Clone("Restarting")
	}, func(p *corev1.Pod) bool { return p.Status.Conditions[0].Reason == "Restarting" })
	check := func(what string, got, server []*corev1.Pod, olds, set []*corev1.Pod) {
		t.Helper()
		for i, p := range got {
			if !reflect.DeepEqual(p, server[i]) {
				t.Errorf("%s pod %s: the cache's new version differs from the server's:\ncache  %+v\nserver %+v", what, p.Name, p, server[i])
			}
			old, other := olds[i], set[2] // the third replica is not updated
			for part, ok := range map[string]bool{
				"namespace with the old version":            sameString(p.Namespace, old.Namespace),
				"namespace with another pod":                sameString(p.Namespace, other.Namespace),
				"readiness probe with the old version":      p.Spec.Containers[0].ReadinessProbe == old.Spec.Containers[0].ReadinessProbe,
				"readiness probe with another replica":      p.Spec.Containers[0].ReadinessProbe == other.Spec.Containers[0].ReadinessProbe,
				"environment with another replica":          sameArray(p.Spec.Containers[0].Env, other.Spec.Containers[0].Env),
				"tolerations with another pod":              sameArray(p.Spec.Tolerations, other.Spec.Tolerations),
				"owner references with another replica":     sameArray(p.OwnerReferences, other.OwnerReferences),
				"resource requests with the old version":    sameMap(p.Spec.Containers[1].Resources.Requests, old.Spec.Containers[1].Resources.Requests),
				"image with another replica":                sameString(p.Spec.Containers[0].Image, other.Spec.Containers[0].Image),
				"condition type with another replica":       sameString(p.Status.Conditions[1].Type, other.Status.Conditions[1].Type),
				"status image ID with the old version":      sameString(p.Status.ContainerStatuses[1].ImageID, old.Status.ContainerStatuses[1].ImageID),
				"generate name with another replica":        sameString(p.GenerateName, other.GenerateName),
				"pod security context with the old version": p.Spec.SecurityContext == old.Spec.SecurityContext,
				"service account volume with another pod":   p.Spec.Volumes[1].Projected == other.Spec.Volumes[1].Projected,
			} {
				if !ok {
					t.Errorf("%s pod %s does not share its %s", what, p.Name, part)
				}
			}
		}
	}
	check("relabelled", newLabels, newServers, labelled, labelled)
	check("restarting", newStatus, statusServers, statused, statused)
	if a, b := newLabels[0].Labels, newLabels[1].Labels; a["version"] != version || !sameMap(a, b) {
		t.Errorf("relabelled replicas do not share their new labels (%v)", a)
	}
	if sameMap(newLabels[0].Labels, labelled[2].Labels) {
		t.Error("a relabelled replica shares its labels with one that was not")
	}
	if a, b := newStatus[0].Status.Conditions[0], newStatus[1].Status.Conditions[0]; a.Reason != "Restarting" || !sameString(a.Reason, b.Reason) || !sameString(a.Status, b.Status) {
		t.Errorf("restarting replicas do not share their new condition's strings (%+v)", a)
	}
}

// With WithoutInterning, a factory's cached pods keep the strings and
// parts they came with: no two pods of a namespace share its name's bytes
// (their sources do not), nor do two replicas share their probes, before
// or after an update.
func TestFactoryWithoutInterning(t *testing.T) {
	pods, objs := factoryPods()
	client := fake.NewClientset(objs...)
	lister := startFactory(t, client, externalversions.WithoutInterning())
	check := func(when string, cached map[string]*corev1.Pod) {
		t.Helper()
		namespaces, probes := map[*byte]string{}, map[*corev1.Probe]string{}
		for _, key := range slices.Sorted(maps.Keys(cached)) {
			p := cached[key]
			if other, ok := namespaces[unsafe.StringData(p.Namespace)]; ok {
				t.Fatalf("%s: cached pods %s and %s share their namespace's bytes: interned", when, other, p.Name)
			}
			namespaces[unsafe.StringData(p.Namespace)] = p.Name
			if other, ok := probes[p.Spec.Containers[0].ReadinessProbe]; ok {
				t.Fatalf("%s: cached pods %s and %s share their readiness probe: interned", when, other, p.Name)
			}
			probes[p.Spec.Containers[0].ReadinessProbe] = p.Name
		}
	}
	cached := cachedPods(t, lister, len(pods))
	check("after the list", cached)
	sets := replicaSets(cached)
	if len(sets) == 0 {
		t.Fatal("no ReplicaSet of three replicas or more")
	}
	got, server := updatePods(t, client, lister, sets[0][:2], false, func(p *corev1.Pod) {
		p.Labels["version"] = strings.Clone("v9.9.9")
	}, func(p *corev1.Pod) bool { return p.Labels["version"] == "v9.9.9" })
	for i, p := range got {
		if !reflect.DeepEqual(p, server[i]) {
			t.Errorf("pod %s: the cache's new version differs from the server's:\ncache  %+v\nserver %+v", p.Name, p, server[i])
		}
	}
	check("after the update", cachedPods(t, lister, len(pods)))
}

// A factory's informers give Intern, on an update, the version their cache
// holds as old: the generated Intern, wrapped to record its calls, gets nil
// for the listed pods and the cached pod for its new version, and the new
// version shares its unchanged parts with it.
func TestFactoryInternGetsCachedVersion(t *testing.T) {
	pods, objs := factoryPods()
	client := fake.NewClientset(objs...)
	var mu sync.Mutex
	olds := map[*corev1.Pod]any{} // by object interned, what Intern got as old
	record := informers.WithIntern(func(obj, old any) {
		mu.Lock()
		olds[obj.(*corev1.Pod)] = old
		mu.Unlock()
		externalversions.Intern(obj, old)
	})
	lister := startFactory(t, client, record)
	cached := cachedPods(t, lister, len(pods))
	mu.Lock()
	for _, p := range cached {
		// The store's zero value: nil, typed or not.
		if old, ok := olds[p]; !ok || (old != nil && !reflect.ValueOf(old).IsNil()) {
			t.Fatalf("pod %s: Intern got old %T %v (called: %v) on the list, want nil", p.Name, old, old, ok)
		}
	}
	mu.Unlock()
	before := cached[slices.Sorted(maps.Keys(cached))[0]]
	got, _ := updatePods(t, client, lister, []*corev1.Pod{before}, false, func(p *corev1.Pod) {
		p.Labels["version"] = strings.Clone("v9.9.9")
	}, func(p *corev1.Pod) bool { return p.Labels["version"] == "v9.9.9" })
	mu.Lock()
	old, ok := olds[got[0]]
	mu.Unlock()
	if !ok || old != any(before) {
		t.Fatalf("Intern got old %p (called: %v) for the new version, want the cached %p", old, ok, before)
	}
	if c, oc := &got[0].Spec.Containers[0], &before.Spec.Containers[0]; c.ReadinessProbe != oc.ReadinessProbe || !sameArray(c.Env, oc.Env) {
		t.Error("the new version does not share its unchanged probe and environment with the cached version")
	}
}

package cache

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/intern"
)

// Helpers (recorder, scriptedLW, runInformer, ...) are in
// shared_informer_test.go.

// internLog records the calls of an informer's intern function as
// "name@rv <- name@rv" ("<nil>" for no earlier version), with the objects.
type internLog struct {
	mu    sync.Mutex
	lines []string
	objs  []*corev1.Pod // obj of each call
	olds  []*corev1.Pod // old of each call
}

func (l *internLog) record(obj, old *corev1.Pod) {
	l.mu.Lock()
	defer l.mu.Unlock()
	o := "<nil>"
	if old != nil {
		o = old.Name + "@" + old.ResourceVersion
	}
	l.lines = append(l.lines, fmt.Sprintf("%s@%s <- %s", obj.Name, obj.ResourceVersion, o))
	l.objs = append(l.objs, obj)
	l.olds = append(l.olds, old)
}

func (l *internLog) calls() (lines []string, objs, olds []*corev1.Pod) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines), slices.Clone(l.objs), slices.Clone(l.olds)
}

// The intern function set with SetTypedIntern, or with SetIntern (untyped),
// gets the object the informer caches next and the version its store holds
// under that key: nil (for SetIntern, a nil *Pod in the interface) for the
// first list and a first ADDED, the cached object itself for a MODIFIED.
// Deleted objects are not interned, and the object interned is the one the
// store and the handlers get.
func TestInformerInternGetsTheCachedVersion(t *testing.T) {
	for _, typed := range []bool{true, false} {
		t.Run(fmt.Sprintf("typed=%v", typed), func(t *testing.T) {
			lw := newScriptedLW("1", podAt("p1", "1"))
			inf := lw.informer(podInformerOptions{})
			var log internLog
			var bad []string
			var badMu sync.Mutex
			var err error
			if typed {
				err = inf.SetTypedIntern(log.record)
			} else {
				err = inf.SetIntern(func(obj, old any) {
					p, ok1 := obj.(*corev1.Pod)
					o, ok2 := old.(*corev1.Pod) // the zero T: a nil *Pod, not a nil interface
					if !ok1 || !ok2 || p == nil {
						badMu.Lock()
						bad = append(bad, fmt.Sprintf("SetIntern's function got (%T, %T)", obj, old))
						badMu.Unlock()
						return
					}
					log.record(p, o)
				})
			}
			if err != nil {
				t.Fatal(err)
			}
			h := newRecorder(nil)
			register(t, inf, h)
			runInformer(t, context.Background(), inf)
			w := lw.nextWatch(t)
			h.waitFor(t, 1) // p1@1 is in the store
			cached, ok := inf.TypedStore().Get(ObjectName{Namespace: "ns", Name: "p1"})
			if !ok {
				t.Fatal("the store does not hold ns/p1 after its add was delivered")
			}
			w.send(t, watch.Modified, podAt("p1", "2"))
			added := podAt("p2", "3")
			w.send(t, watch.Added, added)
			w.send(t, watch.Deleted, podAt("p2", "4"))
			calls := h.waitFor(t, 4)
			expectCalls(t, "handler", calls, "add ns/p1@1 (initial)", "update ns/p1@1 -> 2", "add ns/p2@3", "delete ns/p2@4")

			badMu.Lock()
			for _, b := range bad {
				t.Error(b)
			}
			badMu.Unlock()
			lines, objs, olds := log.calls()
			expectInternCalls(t, "intern calls", lines, []string{"p1@1 <- <nil>", "p1@2 <- p1@1", "p2@3 <- <nil>"})
			if len(lines) != 3 || len(calls) != 4 {
				return
			}
			if objs[2] != added {
				t.Errorf("the intern function got %p, not the object %p the watch delivered: a ListWatch of functions hands its objects over as they are", objs[2], added)
			}
			if olds[1] != cached {
				t.Errorf("the intern function got old %p, not the cached object %p", olds[1], cached)
			}
			if calls[1].old != cached {
				t.Errorf("the handler's update got old %p, not the cached object %p", calls[1].old, cached)
			}
			for i, c := range calls[:3] {
				if c.obj != objs[i] {
					t.Errorf("the handler's %q got another object than the one interned", c)
				}
			}
		})
	}
}

// expectInternCalls fails the test unless got equals want.
func expectInternCalls(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %q\n want %q", what, got, want)
	}
}

// SetIntern and SetTypedIntern work before Run and fail once it has
// started, also after it stopped; a function set that way is never called.
func TestInformerSetInternFailsAfterRun(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"))
	inf := lw.informer(podInformerOptions{})
	var before internLog
	if err := inf.SetIntern(func(obj, old any) {}); err != nil {
		t.Errorf("SetIntern before Run: %v", err)
	}
	if err := inf.SetTypedIntern(before.record); err != nil {
		t.Errorf("SetTypedIntern before Run: %v", err)
	}
	h := newRecorder(nil)
	register(t, inf, h)
	running := runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	h.waitFor(t, 1) // p1@1 is in the store

	var late internLog
	lateCalled := false
	var lateMu sync.Mutex
	setters := map[string]func() error{
		"SetIntern": func() error {
			return inf.SetIntern(func(obj, old any) { lateMu.Lock(); lateCalled = true; lateMu.Unlock() })
		},
		"SetTypedIntern": func() error { return inf.SetTypedIntern(late.record) },
		"SetIntern(nil)": func() error { return inf.SetIntern(nil) },
	}
	for name, set := range setters {
		if err := set(); err == nil {
			t.Errorf("%s while running succeeded", name)
		}
	}
	w.send(t, watch.Modified, podAt("p1", "2"))
	h.waitFor(t, 2)
	running.stop(t)
	for name, set := range setters {
		if err := set(); err == nil {
			t.Errorf("%s after stop succeeded", name)
		}
	}
	if lines, _, _ := late.calls(); len(lines) != 0 || lateCalled {
		t.Errorf("a function set after Run was called: %q, %v", lines, lateCalled)
	}
	lines, _, _ := before.calls()
	expectInternCalls(t, "intern calls of the function set before Run", lines, []string{"p1@1 <- <nil>", "p1@2 <- p1@1"})
}

// SetIntern(nil) (and SetTypedIntern(nil)) turn off a function set earlier.
func TestInformerSetInternNilTurnsInterningOff(t *testing.T) {
	for name, unset := range map[string]func(*podInformer) error{
		"SetIntern(nil)":      func(inf *podInformer) error { return inf.SetIntern(nil) },
		"SetTypedIntern(nil)": func(inf *podInformer) error { return inf.SetTypedIntern(nil) },
	} {
		t.Run(name, func(t *testing.T) {
			lw := newScriptedLW("1", podAt("p1", "1"))
			inf := lw.informer(podInformerOptions{})
			var log internLog
			if err := inf.SetTypedIntern(log.record); err != nil {
				t.Fatal(err)
			}
			if err := unset(inf); err != nil {
				t.Fatal(err)
			}
			h := newRecorder(nil)
			register(t, inf, h)
			runInformer(t, context.Background(), inf)
			w := lw.nextWatch(t)
			w.send(t, watch.Added, podAt("p2", "2"))
			h.waitFor(t, 2)
			if lines, _, _ := log.calls(); len(lines) != 0 {
				t.Errorf("the intern function was called after %s: %q", name, lines)
			}
		})
	}
}

// internTestLabels shares the label maps of TestInformerInternKeepsObjectsDeepEqual.
var internTestLabels intern.Maps[string, string]

// internPodUpdate interns a pod's namespace, labels and images the way a
// generated Intern<Kind>Update does, reusing old's equal parts.
func internPodUpdate(p, old *corev1.Pod) {
	var oldNS string
	var oldLabels map[string]string
	var oldContainers []corev1.Container
	if old != nil {
		oldNS, oldLabels, oldContainers = old.Namespace, old.Labels, old.Spec.Containers
	}
	p.Namespace = intern.StringFrom(p.Namespace, oldNS)
	p.Labels = internTestLabels.ShareFrom(p.Labels, oldLabels, intern.EqualMap[map[string]string], intern.StringMap[string, string], intern.StringEntry[string, string])
	for i := range p.Spec.Containers {
		c := &p.Spec.Containers[i]
		var oldImage string
		if oc := intern.At(oldContainers, i); oc != nil {
			oldImage = oc.Image
		}
		c.Image = intern.StringFrom(c.Image, oldImage)
	}
}

// podSummary describes the parts of a pod TestInformerInternKeepsObjectsDeepEqual
// sends and interns.
func podSummary(p *corev1.Pod) string {
	if p == nil {
		return "<nil>"
	}
	var images []string
	for _, c := range p.Spec.Containers {
		images = append(images, c.Image)
	}
	return fmt.Sprintf("%s/%s@%s labels %v images %v phase %q", p.Namespace, p.Name, p.ResourceVersion, p.Labels, images, p.Status.Phase)
}

// mapIdentity is the pointer a map value is.
func mapIdentity(m map[string]string) unsafe.Pointer { return reflect.ValueOf(m).UnsafePointer() }

// Interning changes no object a handler or the store sees: each is
// reflect.DeepEqual to what the list or the watch delivered, while an
// unchanged part of a modified object is the cached version's own (the
// update path), and equal parts of different objects are shared.
func TestInformerInternKeepsObjectsDeepEqual(t *testing.T) {
	withStatus := func(p *corev1.Pod, phase corev1.PodPhase) *corev1.Pod {
		p.Status.Phase = phase
		return p
	}
	at := func(name, rv, version string, labelPairs ...string) *corev1.Pod {
		p := pod("ns", name, "node-1", []string{"registry.example/app:" + version, "registry.example/sidecar:2"}, labelPairs...)
		p.ResourceVersion = rv
		return p
	}
	lw := newScriptedLW("1", at("p1", "1", "1.0", "app", "web", "tier", "front"))
	inf := lw.informer(podInformerOptions{})
	if err := inf.SetTypedIntern(internPodUpdate); err != nil {
		t.Fatal(err)
	}
	h := newRecorder(nil)
	register(t, inf, h)
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)

	sent := map[string]*corev1.Pod{"p1@1": at("p1", "1", "1.0", "app", "web", "tier", "front")}
	h.waitFor(t, 1)
	// Each event is sent once the previous one reached the handler (and the
	// store), so that each update's earlier version is the previous event's.
	for i, e := range []struct {
		typ watch.EventType
		obj *corev1.Pod
	}{
		{watch.Modified, withStatus(at("p1", "2", "1.0", "app", "web", "tier", "front"), corev1.PodRunning)},
		{watch.Added, at("p2", "3", "1.0", "app", "web", "tier", "front")},
		// A new image of the same length, and a changed label.
		{watch.Modified, withStatus(at("p1", "4", "1.1", "app", "web", "tier", "back"), corev1.PodRunning)},
	} {
		sent[e.obj.Name+"@"+e.obj.ResourceVersion] = e.obj.DeepCopy()
		w.send(t, e.typ, e.obj)
		h.waitFor(t, i+2)
	}
	calls := h.waitFor(t, 4)
	expectCalls(t, "handler", calls, "add ns/p1@1 (initial)", "update ns/p1@1 -> 2", "add ns/p2@3", "update ns/p1@2 -> 4")
	if t.Failed() {
		return
	}
	for _, c := range calls {
		for _, p := range []*corev1.Pod{c.obj, c.old} {
			if p == nil {
				continue
			}
			if want := sent[p.Name+"@"+p.ResourceVersion]; !reflect.DeepEqual(p, want) {
				t.Errorf("%q: the handler got %s, want what was delivered, %s", c, podSummary(p), podSummary(want))
			}
		}
	}
	for _, p := range inf.TypedStore().List() {
		if want := sent[p.Name+"@"+p.ResourceVersion]; !reflect.DeepEqual(p, want) {
			t.Errorf("the store holds %s, want what was delivered, %s", podSummary(p), podSummary(want))
		}
	}

	p1v1, p1v2, p2, p1v4 := calls[0].obj, calls[1].obj, calls[2].obj, calls[3].obj
	if mapIdentity(p1v2.Labels) != mapIdentity(p1v1.Labels) {
		t.Error("the unchanged labels of a modified object are not the cached version's")
	}
	if unsafe.StringData(p1v2.Spec.Containers[1].Image) != unsafe.StringData(p1v1.Spec.Containers[1].Image) {
		t.Error("an unchanged image of a modified object is not the cached version's string")
	}
	if mapIdentity(p2.Labels) != mapIdentity(p1v1.Labels) {
		t.Error("equal labels of two objects are not shared")
	}
	if mapIdentity(p1v4.Labels) == mapIdentity(p1v2.Labels) {
		t.Error("changed labels were given the earlier version's map")
	}
}

// The intern function runs on what the informer stores, after the
// transform, with the version the store holds at that moment as old: for a
// MODIFIED the cached object, for each object of a relist its cached
// version (nil for a new one). Objects a relist drops and resyncs, which
// hand the stored object back, are not interned. Waits for one relist
// backoff and one resync.
func TestInformerInternRunsOnStoredObjects(t *testing.T) {
	lw := newScriptedLW("1", podAt("p1", "1"), podAt("p2", "1"))
	inf := lw.informer(podInformerOptions{ResyncPeriod: time.Second})
	given := map[*corev1.Pod]bool{} // the objects the list and the watch delivered
	var givenMu sync.Mutex
	err := inf.SetTypedTransform(func(p *corev1.Pod) (*corev1.Pod, error) {
		givenMu.Lock()
		given[p] = true
		givenMu.Unlock()
		c := p.DeepCopy()
		c.Labels = map[string]string{"transformed": "true"}
		return c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var log internLog
	if err := inf.SetTypedIntern(log.record); err != nil {
		t.Fatal(err)
	}
	h := newRecorder(nil)
	register(t, inf, h)
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	h.waitUntil(t, "add ns/p2@1 (initial)")
	w.send(t, watch.Modified, podAt("p1", "2"))
	h.waitUntil(t, "update ns/p1@1 -> 2")
	lw.setList("3", podAt("p1", "3"), podAt("p3", "3"))
	w.expire(t)
	lw.nextWatch(t)
	h.waitUntil(t, "add ns/p3@3")
	h.waitUntil(t, "resync ns/p3@3")

	lines, objs, _ := log.calls()
	expectInternCalls(t, "intern calls", lines, []string{
		"p1@1 <- <nil>", "p2@1 <- <nil>",
		"p1@2 <- p1@1",
		"p1@3 <- p1@2", "p3@3 <- <nil>",
	})
	givenMu.Lock()
	defer givenMu.Unlock()
	for i, o := range objs {
		if given[o] || o.Labels["transformed"] != "true" {
			t.Errorf("intern call %q got an object the transform had not made", lines[i])
		}
	}
}

package queue

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// internCall is one call of the Intern option.
type internCall struct {
	obj, old *corev1.Pod
	// transformed is whether obj carried the transform's mark when Intern
	// saw it.
	transformed bool
}

// String renders a call as "name@rv <- name@rv" ("<nil>" for no old).
func (c internCall) String() string {
	old := "<nil>"
	if c.old != nil {
		old = c.old.Name + "@" + c.old.ResourceVersion
	}
	return fmt.Sprintf("%s@%s <- %s", c.obj.Name, c.obj.ResourceVersion, old)
}

// internRecorder is an Intern option that records its calls and marks the
// object it interns (an annotation), as a real one changes obj in place.
type internRecorder struct {
	mu    sync.Mutex
	calls []internCall
}

const internedMark = "test/interned"

func (r *internRecorder) intern(obj, old *corev1.Pod) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, internCall{obj: obj, old: old, transformed: obj.Labels["test/transformed"] == "true"})
	if obj.Annotations == nil {
		obj.Annotations = map[string]string{}
	}
	obj.Annotations[internedMark] = "true"
}

// take returns the calls recorded since the last take.
func (r *internRecorder) take() []internCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	calls := r.calls
	r.calls = nil
	return calls
}

func internLines(calls []internCall) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.String()
	}
	return out
}

// copyAndMark is a Transform that returns a copy of its object, labelled:
// Intern must see the copy, not the object given to the queue.
func copyAndMark(p *corev1.Pod) (*corev1.Pod, error) {
	c := p.DeepCopy()
	if c.Labels == nil {
		c.Labels = map[string]string{}
	}
	c.Labels["test/transformed"] = "true"
	return c, nil
}

// With KnownObjects holding an object under a key, Add and Update call
// Intern with the object they queue (the transform's output) and the known
// object itself; the popped delta holds the object Intern changed.
func TestDeltaFIFO_InternGetsTheKnownObjectOnAddAndUpdate(t *testing.T) {
	known := fifoPod("a", "1")
	var rec internRecorder
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(known), Transform: copyAndMark, Intern: rec.intern})
	ctx := fifoCtx(t)

	for _, op := range []struct {
		name string
		run  func(*corev1.Pod) error
	}{
		{"Add", func(p *corev1.Pod) error { return f.Add(ctx, p) }},
		{"Update", func(p *corev1.Pod) error { return f.Update(ctx, p) }},
	} {
		in := fifoPod("a", "2")
		if err := op.run(in); err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
		calls := rec.take()
		if len(calls) != 1 {
			t.Fatalf("%s called Intern %d times (%q), want once", op.name, len(calls), internLines(calls))
		}
		c := calls[0]
		if c.old != known {
			t.Errorf("%s: Intern got old %v, want the known object %p", op.name, c, known)
		}
		if c.obj == in || !c.transformed {
			t.Errorf("%s: Intern got the object before the transform", op.name)
		}
		if c.obj.ResourceVersion != "2" {
			t.Errorf("%s: Intern got %v, want a@2", op.name, c)
		}
		p := fifoPop(t, f)
		if len(p.deltas) != 1 || p.deltas[0].Object != c.obj {
			t.Errorf("%s: popped %v, not the object Intern got", op.name, p)
		} else if p.deltas[0].Object.Annotations[internedMark] != "true" {
			t.Errorf("%s: the popped object lacks what Intern did to it", op.name)
		}
	}
	if known.Annotations[internedMark] != "" || known.ResourceVersion != "1" {
		t.Error("the known object was changed")
	}
}

// Delete never calls Intern: deleted objects are not cached. The delete is
// still queued.
func TestDeltaFIFO_DeleteDoesNotIntern(t *testing.T) {
	var rec internRecorder
	f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(fifoPod("a", "1")), Transform: copyAndMark, Intern: rec.intern})
	ctx := fifoCtx(t)
	if err := f.Delete(ctx, fifoPod("a", "2")); err != nil {
		t.Fatal(err)
	}
	if err := f.Delete(ctx, fifoPod("unknown", "1")); err != nil { // dropped
		t.Fatal(err)
	}
	if calls := rec.take(); len(calls) != 0 {
		t.Errorf("Delete called Intern: %q", internLines(calls))
	}
	fifoExpect(t, "popped", fifoLines(fifoDrain(t, f)), []string{"a: Deleted a@2"})
}

// Replace calls Intern once per listed object, with the known object of its
// key, or nil for a key KnownObjects does not hold, after the transform;
// never for the deletes it infers (ReplaceCollected alike).
func TestDeltaFIFO_ReplaceInternsEachListedObject(t *testing.T) {
	for _, collected := range []bool{false, true} {
		t.Run(fmt.Sprintf("collected=%v", collected), func(t *testing.T) {
			knownA, knownGone := fifoPod("a", "1"), fifoPod("gone", "1")
			var rec internRecorder
			f := NewDeltaFIFO(fifoOpts{KnownObjects: fifoStore(knownA, knownGone), Transform: copyAndMark, Intern: rec.intern})
			list := []*corev1.Pod{fifoPod("a", "2"), fifoPod("b", "1")}
			replace := f.Replace
			if collected {
				replace = f.ReplaceCollected
			}
			if err := replace(fifoCtx(t), slices.Clone(list)); err != nil {
				t.Fatal(err)
			}
			calls := rec.take()
			fifoExpect(t, "Intern calls", internLines(calls), []string{"a@2 <- a@1", "b@1 <- <nil>"})
			if len(calls) == 2 {
				if calls[0].old != knownA {
					t.Error("Intern did not get the known object itself")
				}
				for i, c := range calls {
					if !c.transformed || c.obj == list[i] {
						t.Errorf("Intern got %v before the transform", c)
					}
				}
			}
			popped := fifoDrain(t, f)
			fifoExpect(t, "popped", fifoLines(popped), []string{"a: Replaced a@2", "b: Replaced b@1", "gone: Deleted gone@1?"})
			for _, p := range popped[:min(2, len(popped))] {
				if p.deltas[0].Object.Annotations[internedMark] != "true" {
					t.Errorf("%v: the popped object is not the one Intern got", p)
				}
			}
			if knownGone.Annotations[internedMark] != "" {
				t.Error("Intern ran on the object of an inferred delete")
			}
		})
	}
}

// Intern runs after Transform: it sees the transform's output (here another
// object), and an object the transform refuses (an error, or nil in a list)
// is never interned.
func TestDeltaFIFO_InternRunsAfterTransform(t *testing.T) {
	var rec internRecorder
	var order []string
	errBad := errors.New("bad object")
	transform := func(p *corev1.Pod) (*corev1.Pod, error) {
		order = append(order, "transform "+p.Name)
		switch p.Name {
		case "err":
			return nil, errBad
		case "nil":
			return nil, nil
		}
		return copyAndMark(p)
	}
	intern := func(obj, old *corev1.Pod) {
		order = append(order, "intern "+obj.Name)
		rec.intern(obj, old)
	}
	f := NewDeltaFIFO(fifoOpts{Transform: transform, Intern: intern})
	ctx := fifoCtx(t)

	in := fifoPod("a", "1")
	if err := f.Add(ctx, in); err != nil {
		t.Fatal(err)
	}
	if err := f.Add(ctx, fifoPod("err", "1")); !errors.Is(err, errBad) {
		t.Fatalf("Add of an object the transform fails = %v, want %v", err, errBad)
	}
	if err := f.Replace(ctx, []*corev1.Pod{fifoPod("nil", "1"), fifoPod("b", "1")}); err != nil {
		t.Fatal(err)
	}
	fifoExpect(t, "calls", order, []string{
		"transform a", "intern a",
		"transform err",
		"transform nil", "transform b", "intern b",
	})
	calls := rec.take()
	for _, c := range calls {
		if !c.transformed {
			t.Errorf("Intern got %v without the transform's change", c)
		}
		if c.obj == in {
			t.Error("Intern got the object given to Add, not the transform's copy")
		}
	}
}

// Without KnownObjects, Intern gets the zero T (nil) as old, even for a key
// that is queued already.
func TestDeltaFIFO_InternWithoutKnownObjects(t *testing.T) {
	var rec internRecorder
	f := NewDeltaFIFO(fifoOpts{Intern: rec.intern})
	ctx := fifoCtx(t)
	if err := f.Add(ctx, fifoPod("a", "1")); err != nil {
		t.Fatal(err)
	}
	if err := f.Update(ctx, fifoPod("a", "2")); err != nil {
		t.Fatal(err)
	}
	if err := f.Replace(ctx, []*corev1.Pod{fifoPod("a", "3")}); err != nil {
		t.Fatal(err)
	}
	fifoExpect(t, "Intern calls", internLines(rec.take()), []string{"a@1 <- <nil>", "a@2 <- <nil>", "a@3 <- <nil>"})
}

// The earlier version is what KnownObjects holds when the object is queued,
// not a queued state: a key KnownObjects does not hold gets nil even while
// an earlier version is queued, and once the consumer stored a version,
// the next one gets it. Resync (objects from KnownObjects) interns nothing.
func TestDeltaFIFO_InternOldIsTheStoredVersion(t *testing.T) {
	store := fifoStore()
	var rec internRecorder
	f := NewDeltaFIFO(fifoOpts{KnownObjects: store, Intern: rec.intern})
	ctx := fifoCtx(t)
	if err := f.Add(ctx, fifoPod("a", "1")); err != nil {
		t.Fatal(err)
	}
	if err := f.Update(ctx, fifoPod("a", "2")); err != nil {
		t.Fatal(err)
	}
	p := fifoPop(t, f)
	fifoApply(store, p.key, p.deltas)
	stored, _ := store.Get(fifoKey("a"))
	if err := f.Update(ctx, fifoPod("a", "3")); err != nil {
		t.Fatal(err)
	}
	calls := rec.take()
	fifoExpect(t, "Intern calls", internLines(calls), []string{"a@1 <- <nil>", "a@2 <- <nil>", "a@3 <- a@2"})
	if len(calls) == 3 && calls[2].old != stored {
		t.Error("Intern did not get the stored object itself")
	}
	fifoPop(t, f)
	if err := f.Resync(ctx); err != nil {
		t.Fatal(err)
	}
	if calls := rec.take(); len(calls) != 0 {
		t.Errorf("Resync called Intern: %q", internLines(calls))
	}
	fifoExpect(t, "popped after Resync", fifoLines(fifoDrain(t, f)), []string{"a: Sync a@2"})
}

package cache

import (
	"context"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// A #name in comments is the anchor, in docs/clientgo-semantics.md, of the
// client-go behaviour a test pins.
// Helpers (recorder, scriptedLW, ...) are in shared_informer_test.go.

// withManagedFields gives p a managedFields entry and returns it.
func withManagedFields(p *corev1.Pod) *corev1.Pod {
	p.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "test", Operation: metav1.ManagedFieldsOperationUpdate}}
	return p
}

// markTransformed is a TransformFunc that labels its object.
func markTransformed(p *corev1.Pod) (*corev1.Pod, error) {
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	p.Labels["transformed"] = "true"
	return p, nil
}

func isTransformed(p *corev1.Pod) bool {
	return p.Labels["transformed"] == "true" && p.ManagedFields == nil
}

// #transform-once: the informer's transform runs on every object of the list
// and of watch events before the store, its indexes and the handlers see it.
func TestInformerTransformRunsBeforeStoreAndHandlers(t *testing.T) {
	lw := newScriptedLW("1", withManagedFields(podAt("p1", "1")))
	inf := lw.informer(podInformerOptions{Indexers: Indexers[*corev1.Pod]{
		"transformed": func(p *corev1.Pod) []string { return []string{p.Labels["transformed"]} },
	}})
	if err := inf.SetTypedTransform(func(p *corev1.Pod) (*corev1.Pod, error) {
		p, _ = DropManagedFields(p)
		return markTransformed(p)
	}); err != nil {
		t.Fatal(err)
	}
	h := newRecorder(nil)
	register(t, inf, h)
	runInformer(t, context.Background(), inf)
	w := lw.nextWatch(t)
	w.send(t, watch.Modified, withManagedFields(podAt("p1", "2")))
	w.send(t, watch.Added, withManagedFields(podAt("p2", "3")))
	w.send(t, watch.Deleted, withManagedFields(podAt("p2", "4")))
	w.send(t, watch.Added, withManagedFields(podAt("p3", "5")))

	calls := h.waitFor(t, 5)
	expectCalls(t, "handler", calls,
		"add ns/p1@1 (initial)", "update ns/p1@1 -> 2", "add ns/p2@3", "delete ns/p2@4", "add ns/p3@5")
	for _, c := range calls {
		for _, p := range []*corev1.Pod{c.obj, c.old} {
			if p != nil && !isTransformed(p) {
				t.Errorf("%q: the handler got an untransformed object %+v", c, p.ObjectMeta)
			}
		}
	}
	for _, p := range inf.TypedStore().List() {
		if !isTransformed(p) {
			t.Errorf("the store holds an untransformed object %+v", p.ObjectMeta)
		}
	}
	if got := mustByIndex(t, inf.TypedStore(), "transformed", "", "true"); !slices.Equal(got, []string{"ns/p1", "ns/p3"}) {
		t.Errorf("index transformed=true holds %v, want [ns/p1 ns/p3]", got)
	}
}

// #setters-before-run: SetTransform, SetTypedTransform, SetWatchErrorHandler
// and SetWatchErrorHandlerWithContext work before Run and fail once it has
// started, also after it stopped.
func TestInformerSettersFailAfterRun(t *testing.T) {
	lw := newScriptedLW("1")
	inf := lw.informer(podInformerOptions{})
	setters := map[string]func() error{
		"SetTransform": func() error {
			return inf.SetTransform(func(obj any) (any, error) { return obj, nil })
		},
		"SetTypedTransform": func() error {
			return inf.SetTypedTransform(func(p *corev1.Pod) (*corev1.Pod, error) { return p, nil })
		},
		"SetWatchErrorHandler": func() error {
			return inf.SetWatchErrorHandler(func(*cache.Reflector, error) {})
		},
		"SetWatchErrorHandlerWithContext": func() error {
			return inf.SetWatchErrorHandlerWithContext(func(context.Context, *cache.Reflector, error) {})
		},
	}
	for name, set := range setters {
		if err := set(); err != nil {
			t.Errorf("%s before Run: %v", name, err)
		}
	}
	running := runInformer(t, context.Background(), inf)
	lw.nextWatch(t)
	for _, when := range []string{"while running", "after stop"} {
		for name, set := range setters {
			if err := set(); err == nil {
				t.Errorf("%s %s succeeded", name, when)
			}
		}
		running.stop(t)
	}
}

// DropManagedFields clears metadata.managedFields in place and nothing else.
func TestDropManagedFieldsClearsOnlyManagedFields(t *testing.T) {
	in := withManagedFields(pod("ns", "p1", "n1", []string{"img"}, "app", "web"))
	want := in.DeepCopy()
	want.ManagedFields = nil
	out, err := DropManagedFields(in)
	if err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Error("DropManagedFields returned another object")
	}
	if out.ManagedFields != nil || out.Labels["app"] != "web" || out.Spec.NodeName != "n1" || len(out.Spec.Containers) != 1 {
		t.Errorf("DropManagedFields returned %+v, want %+v", out, want)
	}
}

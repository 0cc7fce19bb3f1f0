package e2e

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/widgetcontroller"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/controller"
)

// runWidgetController runs the example operator on the test's namespace
// until the test ends, and returns the registry of its metrics.
func runWidgetController(t *testing.T, c clients, ns string) *prometheus.Registry {
	t.Helper()
	registry := prometheus.NewRegistry()
	ctx, cancel := context.WithCancel(context.Background())
	var run sync.WaitGroup
	run.Go(func() {
		// Every test runs its own operator, under the one name.
		err := widgetcontroller.Run(ctx, widgetcontroller.Clients{Shop: c.shop, Kube: c.kube}, ns, 0,
			controller.Options{Workers: 2, Registerer: registry, SkipNameValidation: true})
		if err != nil {
			t.Errorf("controller: %v", err)
		}
	})
	t.Cleanup(func() {
		cancel()
		run.Wait()
	})
	return registry
}

// renderedData is what the Widget's ConfigMap must hold.
func renderedData(w *shopv1.Widget, config map[string]string) map[string]string {
	return widgetcontroller.Render(w, &corev1.ConfigMap{Data: config}).Data
}

// waitRendered waits until the ConfigMap of Widget name holds want and is
// controlled by the Widget.
func waitRendered(t *testing.T, c clients, ns, name string, want map[string]string) {
	t.Helper()
	eventually(t, "ConfigMap of "+name, func() string {
		cm, err := c.kube.CoreV1().ConfigMaps(ns).Get(t.Context(), name+widgetcontroller.ConfigMapSuffix, metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		if !maps.Equal(cm.Data, want) {
			return fmt.Sprintf("data %v, want %v", cm.Data, want)
		}
		if ref := metav1.GetControllerOf(cm); ref == nil || ref.Kind != "Widget" || ref.Name != name {
			return fmt.Sprintf("controller reference %+v", ref)
		}
		return ""
	})
}

// waitStatus waits until Widget name reports reason on its Ready condition
// for its current generation.
func waitStatus(t *testing.T, c clients, ns, name, reason string) *shopv1.Widget {
	t.Helper()
	var w *shopv1.Widget
	eventually(t, "status of "+name, func() string {
		var err error
		if w, err = c.shop.ShopV1().Widgets(ns).Get(t.Context(), name, metav1.GetOptions{}); err != nil {
			return err.Error()
		}
		cond := meta.FindStatusCondition(w.Status.Conditions, widgetcontroller.ConditionReady)
		if cond == nil || cond.Reason != reason || w.Status.ObservedGeneration != w.Generation {
			return fmt.Sprintf("generation %d, status %+v, want reason %s", w.Generation, w.Status, reason)
		}
		return ""
	})
	return w
}

// The example operator against the real server: it renders each Widget
// into a ConfigMap it controls, writes status through the status
// subresource (which the server keeps apart from spec and generation),
// follows spec changes (the server bumps the generation), picks up a
// referenced ConfigMap through its index-mapped source, keeps working after
// the API server restarts, and deletes a deleted Widget's ConfigMap itself
// (the server does not: garbage collection is kube-controller-manager's).
func TestWidgetControllerAgainstTheServer(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	ctx := t.Context()
	widgets := c.shop.ShopV1().Widgets(ns)
	config := map[string]string{"mode": "fast"}
	if _, err := c.kube.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: config}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	create := func(name, configRef string) *shopv1.Widget {
		t.Helper()
		w := newWidget(name, "red", 3)
		w.Spec.ConfigRef = configRef
		created, err := widgets.Create(ctx, w, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return created
	}
	w1 := create("w1", "settings")
	w2 := create("w2", "later")
	registry := runWidgetController(t, c, ns)

	waitRendered(t, c, ns, "w1", renderedData(w1, config))
	if got := waitStatus(t, c, ns, "w1", widgetcontroller.ReasonRendered); got.Status.Phase != shopv1.WidgetReady || got.Generation != 1 {
		t.Errorf("w1: generation %d, phase %s; want 1, Ready (a status write must not bump the generation)", got.Generation, got.Status.Phase)
	}
	if got := waitStatus(t, c, ns, "w2", widgetcontroller.ReasonConfigMissing); got.Status.Phase != shopv1.WidgetPending {
		t.Errorf("w2: phase %s, want Pending", got.Status.Phase)
	}

	// A spec change: the server bumps the generation, the controller
	// renders it and observes the new generation.
	current, err := widgets.Get(ctx, "w1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	current.Spec.Color = "blue"
	updated, err := widgets.Update(ctx, current, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Generation != 2 {
		t.Errorf("generation after a spec change = %d, want 2", updated.Generation)
	}
	waitRendered(t, c, ns, "w1", renderedData(updated, config))
	waitStatus(t, c, ns, "w1", widgetcontroller.ReasonRendered)

	if err := cluster.RestartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	// After the restart the informers re-watch and the controller goes on:
	// the referenced ConfigMap that w2 waits for, and a new Widget.
	later := map[string]string{"mode": "slow"}
	if _, err := c.kube.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "later"}, Data: later}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	w3 := create("w3", "")
	waitRendered(t, c, ns, "w2", renderedData(w2, later))
	waitStatus(t, c, ns, "w2", widgetcontroller.ReasonRendered)
	waitRendered(t, c, ns, "w3", renderedData(w3, nil))

	if err := widgets.Delete(ctx, "w1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the deleted Widget's ConfigMap deleted", func() string {
		_, err := c.kube.CoreV1().ConfigMaps(ns).Get(ctx, "w1"+widgetcontroller.ConfigMapSuffix, metav1.GetOptions{})
		if !apierrors.IsNotFound(err) {
			return fmt.Sprintf("get: %v", err)
		}
		return ""
	})

	if got := counterValue(t, registry, "controller_reconcile_total", map[string]string{"controller": widgetcontroller.Name, "result": "success"}); got < 4 {
		t.Errorf("controller_reconcile_total{result=success} = %v, want at least 4", got)
	}
}

// counterValue returns the value of the counter name with labels in
// registry's gathered metrics, failing the test when it is absent.
func counterValue(t *testing.T, registry *prometheus.Registry, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	metrics:
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if want, ok := labels[l.GetName()]; ok && want != l.GetValue() {
					continue metrics
				}
			}
			return m.GetCounter().GetValue()
		}
	}
	t.Fatalf("no metric %s%v gathered", name, labels)
	return 0
}

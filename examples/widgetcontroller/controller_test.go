package widgetcontroller

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned/fake"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/fakewatch"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/controller"
)

// env runs the controller against client-gen's and client-go's fake
// clientsets.
type env struct {
	t    *testing.T
	shop *fake.Clientset
	kube *kubefake.Clientset
}

// start runs the controller over fake clientsets holding objects, and waits
// until its informers watch.
func start(t *testing.T, objects ...runtime.Object) *env {
	t.Helper()
	var shopObjects, kubeObjects []runtime.Object
	for _, o := range objects {
		if _, ok := o.(*shopv1.Widget); ok {
			shopObjects = append(shopObjects, o)
		} else {
			kubeObjects = append(kubeObjects, o)
		}
	}
	e := &env{t: t, shop: fake.NewSimpleClientset(shopObjects...), kube: kubefake.NewClientset(kubeObjects...)}
	watching := []<-chan struct{}{fakewatch.Started(e.shop, "widgets"), fakewatch.Started(e.kube, "configmaps")}

	ctx, cancel := context.WithCancel(context.Background())
	var run sync.WaitGroup
	run.Go(func() {
		// Every test runs its own operator, under the one name.
		if err := Run(ctx, Clients{Shop: e.shop, Kube: e.kube}, "", 0, controller.Options{Workers: 2, SkipNameValidation: true}); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	t.Cleanup(func() {
		cancel()
		run.Wait()
	})
	for _, w := range watching {
		select {
		case <-w:
		case <-time.After(10 * time.Second):
			t.Fatal("the informers did not start watching")
		}
	}
	return e
}

func widget(namespace, name, color, configRef string) *shopv1.Widget {
	w := &shopv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, UID: k8stypes.UID("uid-" + name), Generation: 1},
		Spec:       shopv1.WidgetSpec{Color: color, Size: 3, ConfigRef: configRef},
	}
	w.Spec.SKU = "sku-" + name
	return w
}

func configMap(namespace, name string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: data}
}

// eventually polls check until it returns "" or 10 s pass.
func (e *env) eventually(what string, check func() string) {
	e.t.Helper()
	testwait.For(e.t, 10*time.Second, what, check)
}

// rendered waits until the Widget's ConfigMap holds want.
func (e *env) rendered(namespace, widget string, want map[string]string) *corev1.ConfigMap {
	e.t.Helper()
	var cm *corev1.ConfigMap
	e.eventually("ConfigMap of "+widget, func() string {
		var err error
		cm, err = e.kube.CoreV1().ConfigMaps(namespace).Get(context.Background(), widget+ConfigMapSuffix, metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		if !maps.Equal(cm.Data, want) {
			return fmt.Sprintf("data %v, want %v", cm.Data, want)
		}
		return ""
	})
	return cm
}

// status waits until the Widget's Ready condition has reason.
func (e *env) status(namespace, name, reason string) *shopv1.Widget {
	e.t.Helper()
	var w *shopv1.Widget
	e.eventually("status of "+name, func() string {
		var err error
		w, err = e.shop.ShopV1().Widgets(namespace).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		c := meta.FindStatusCondition(w.Status.Conditions, ConditionReady)
		if c == nil || c.Reason != reason {
			return fmt.Sprintf("Ready condition %+v, want reason %s", c, reason)
		}
		return ""
	})
	return w
}

func rendering(w *shopv1.Widget, config map[string]string) map[string]string {
	data := map[string]string{"color": w.Spec.Color, "size": fmt.Sprint(w.Spec.Size), "sku": w.Spec.SKU}
	for k, v := range config {
		data[ConfigKeyPrefix+k] = v
	}
	return data
}

func TestRendersAConfigMapControlledByTheWidgetAndReportsReady(t *testing.T) {
	w := widget("ns", "w1", "red", "")
	e := start(t, w)
	cm := e.rendered("ns", "w1", rendering(w, nil))
	owner := metav1.GetControllerOf(cm)
	if owner == nil || owner.Kind != "Widget" || owner.Name != "w1" || owner.UID != w.UID || owner.APIVersion != "shop.example.dev/v1" {
		t.Errorf("controller reference %+v, want Widget w1", owner)
	}
	if cm.Annotations[ManagedByAnnotation] != Name {
		t.Errorf("annotations %v, want %s=%s", cm.Annotations, ManagedByAnnotation, Name)
	}
	got := e.status("ns", "w1", ReasonRendered)
	if got.Status.Phase != shopv1.WidgetReady || got.Status.ObservedGeneration != 1 {
		t.Errorf("status %+v, want Ready at generation 1", got.Status)
	}
}

func TestAWidgetWaitsForItsConfigRefAndRendersItOnceItExists(t *testing.T) {
	w := widget("ns", "w1", "red", "settings")
	e := start(t, w, configMap("other", "settings", map[string]string{"wrong": "namespace"}))
	if got := e.status("ns", "w1", ReasonConfigMissing); got.Status.Phase != shopv1.WidgetPending {
		t.Errorf("phase %s, want Pending", got.Status.Phase)
	}
	if _, err := e.kube.CoreV1().ConfigMaps("ns").Get(context.Background(), "w1"+ConfigMapSuffix, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("a Widget without its config was rendered (err %v)", err)
	}

	// Creating the referenced ConfigMap enqueues the Widget through the
	// byConfigRef index.
	config := map[string]string{"mode": "fast"}
	if _, err := e.kube.CoreV1().ConfigMaps("ns").Create(context.Background(), configMap("ns", "settings", config), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rendered("ns", "w1", rendering(w, config))
	e.status("ns", "w1", ReasonRendered)

	config = map[string]string{"mode": "slow", "retries": "3"}
	if _, err := e.kube.CoreV1().ConfigMaps("ns").Update(context.Background(), configMap("ns", "settings", config), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rendered("ns", "w1", rendering(w, config))
}

func TestAnOwnedConfigMapChangedOrDeletedBySomeoneElseIsRestored(t *testing.T) {
	w := widget("ns", "w1", "red", "")
	e := start(t, w)
	cm := e.rendered("ns", "w1", rendering(w, nil))
	ctx := context.Background()

	tampered := cm.DeepCopy()
	tampered.Data["color"] = "green"
	if _, err := e.kube.CoreV1().ConfigMaps("ns").Update(ctx, tampered, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rendered("ns", "w1", rendering(w, nil))

	if err := e.kube.CoreV1().ConfigMaps("ns").Delete(ctx, cm.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rendered("ns", "w1", rendering(w, nil))
}

func TestASpecChangeIsRenderedAndObserved(t *testing.T) {
	w := widget("ns", "w1", "red", "")
	e := start(t, w)
	e.status("ns", "w1", ReasonRendered)
	current, err := e.shop.ShopV1().Widgets("ns").Get(context.Background(), "w1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	current.Spec.Color = "blue"
	current.Generation = 2 // the fake does not bump it as the API server does
	if _, err := e.shop.ShopV1().Widgets("ns").Update(context.Background(), current, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The fake's UpdateStatus stores the whole object without checking its
	// resourceVersion, so a status write of a reconcile that read the Widget
	// before the change can put the old spec back (the API server would
	// refuse it with a conflict). Until the ConfigMap shows the change, make
	// the change again whenever that happened.
	want := rendering(current, nil)
	e.eventually("ConfigMap of w1 after the spec change", func() string {
		got, err := e.shop.ShopV1().Widgets("ns").Get(context.Background(), "w1", metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		if got.Spec.Color != "blue" || got.Generation != 2 {
			got.Spec.Color, got.Generation = "blue", 2
			if _, err := e.shop.ShopV1().Widgets("ns").Update(context.Background(), got, metav1.UpdateOptions{}); err != nil {
				return err.Error()
			}
			return "a status write put the old spec back; changed it again"
		}
		cm, err := e.kube.CoreV1().ConfigMaps("ns").Get(context.Background(), "w1"+ConfigMapSuffix, metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		if !maps.Equal(cm.Data, want) {
			return fmt.Sprintf("data %v, want %v", cm.Data, want)
		}
		return ""
	})
	e.eventually("observed generation", func() string {
		got, err := e.shop.ShopV1().Widgets("ns").Get(context.Background(), "w1", metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		if got.Status.ObservedGeneration != 2 {
			return fmt.Sprintf("observedGeneration %d, want 2", got.Status.ObservedGeneration)
		}
		return ""
	})
}

func TestDeletingAWidgetDeletesItsConfigMaps(t *testing.T) {
	w := widget("ns", "w1", "red", "")
	stale := configMap("ns", "w1-old-name", map[string]string{"stale": "yes"})
	stale.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(w, shopv1.SchemeGroupVersion.WithKind("Widget"))}
	unrelated := configMap("ns", "keep-me", map[string]string{"a": "b"})
	e := start(t, w, stale, unrelated)
	e.rendered("ns", "w1", rendering(w, nil))
	ctx := context.Background()
	// A ConfigMap the Widget controls but no longer renders into goes at
	// once.
	e.eventually("stale ConfigMap deleted", func() string {
		if _, err := e.kube.CoreV1().ConfigMaps("ns").Get(ctx, stale.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Sprintf("get: %v", err)
		}
		return ""
	})

	if err := e.shop.ShopV1().Widgets("ns").Delete(ctx, "w1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.eventually("rendered ConfigMap deleted", func() string {
		if _, err := e.kube.CoreV1().ConfigMaps("ns").Get(ctx, "w1"+ConfigMapSuffix, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Sprintf("get: %v", err)
		}
		return ""
	})
	if _, err := e.kube.CoreV1().ConfigMaps("ns").Get(ctx, unrelated.Name, metav1.GetOptions{}); err != nil {
		t.Errorf("an unrelated ConfigMap was touched: %v", err)
	}
}

func TestANameConflictFailsTheWidgetAndLeavesTheConfigMapAlone(t *testing.T) {
	w := widget("ns", "w1", "red", "")
	squatter := configMap("ns", "w1"+ConfigMapSuffix, map[string]string{"mine": "yes"})
	e := start(t, w, squatter)
	if got := e.status("ns", "w1", ReasonNameConflict); got.Status.Phase != shopv1.WidgetFailed {
		t.Errorf("phase %s, want Failed", got.Status.Phase)
	}
	cm, err := e.kube.CoreV1().ConfigMaps("ns").Get(context.Background(), squatter.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(cm.Data, squatter.Data) || len(cm.OwnerReferences) != 0 {
		t.Errorf("the ConfigMap no Widget controls was changed: %+v", cm)
	}
}

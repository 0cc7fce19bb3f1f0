package widgetcontroller

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	corelisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	shoplisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/controller"
)

// Names and keys of what the controller writes.
const (
	// ConfigMapSuffix is appended to a Widget's name to name its ConfigMap.
	ConfigMapSuffix = "-widget"
	// ManagedByAnnotation marks the ConfigMaps the controller writes (the
	// byManagedBy index of ConfigMaps).
	ManagedByAnnotation = "example.dev/managed-by"
	// ConfigKeyPrefix prefixes the entries copied from the ConfigMap that
	// spec.configRef names.
	ConfigKeyPrefix = "config."
	// ConditionReady is the Widget condition the controller maintains.
	ConditionReady = "Ready"
)

// Reasons of the Ready condition.
const (
	ReasonRendered      = "Rendered"
	ReasonConfigMissing = "ConfigMissing"
	ReasonNameConflict  = "NameConflict"
)

// Reconciler renders one Widget into its ConfigMap and reports the outcome
// in the Widget's status. It reads through listers and writes through
// Clients; every write it makes is idempotent, so a retry after a failure or
// a conflict is always safe.
type Reconciler struct {
	Clients    Clients
	Widgets    shoplisters.WidgetLister
	ConfigMaps corelisters.ConfigMapLister
}

// Reconcile implements controller.Reconciler.
func (r *Reconciler) Reconcile(ctx context.Context, key cache.ObjectName) (controller.Result, error) {
	w, err := r.Widgets.Widgets(key.Namespace).Get(key.Name)
	if apierrors.IsNotFound(err) {
		return controller.Result{}, r.deleteOwned(ctx, key, false)
	}
	if err != nil {
		return controller.Result{}, err
	}
	if err := r.deleteOwned(ctx, key, true); err != nil {
		return controller.Result{}, err
	}

	var ref *corev1.ConfigMap
	if name := w.Spec.ConfigRef; name != "" {
		ref, err = r.ConfigMaps.ConfigMaps(w.Namespace).Get(name)
		if apierrors.IsNotFound(err) {
			// The ConfigMap's creation will enqueue this Widget again,
			// through the byConfigRef index.
			return controller.Result{}, r.setStatus(ctx, w, shopv1.WidgetPending, metav1.ConditionFalse, ReasonConfigMissing,
				fmt.Sprintf("ConfigMap %s/%s does not exist", w.Namespace, name))
		}
		if err != nil {
			return controller.Result{}, err
		}
	}

	desired := Render(w, ref)
	if err := r.apply(ctx, w, desired); err != nil {
		if conflict, ok := errors.AsType[nameConflictError](err); ok {
			return controller.Result{}, r.setStatus(ctx, w, shopv1.WidgetFailed, metav1.ConditionFalse, ReasonNameConflict, conflict.Error())
		}
		return controller.Result{}, err
	}
	return controller.Result{}, r.setStatus(ctx, w, shopv1.WidgetReady, metav1.ConditionTrue, ReasonRendered,
		fmt.Sprintf("rendered into ConfigMap %s", desired.Name))
}

// Render returns the ConfigMap of w, with the entries of ref (which may be
// nil) under ConfigKeyPrefix.
func Render(w *shopv1.Widget, ref *corev1.ConfigMap) *corev1.ConfigMap {
	data := map[string]string{
		"color": w.Spec.Color,
		"size":  strconv.Itoa(int(w.Spec.Size)),
		"sku":   w.Spec.SKU,
	}
	if ref != nil {
		for k, v := range ref.Data {
			data[ConfigKeyPrefix+k] = v
		}
	}
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       w.Namespace,
			Name:            w.Name + ConfigMapSuffix,
			Annotations:     map[string]string{ManagedByAnnotation: Name},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(w, shopv1.SchemeGroupVersion.WithKind("Widget"))},
		},
		Data: data,
	}
}

// nameConflictError says that the ConfigMap a Widget renders into exists and
// is not controlled by a Widget.
type nameConflictError struct{ name string }

func (e nameConflictError) Error() string {
	return fmt.Sprintf("ConfigMap %s exists and is not controlled by a Widget", e.name)
}

// apply creates desired, or updates the existing ConfigMap of that name when
// it differs; it never takes over a ConfigMap that no Widget controls.
func (r *Reconciler) apply(ctx context.Context, w *shopv1.Widget, desired *corev1.ConfigMap) error {
	logger := klog.FromContext(ctx)
	client := r.Clients.Kube.CoreV1().ConfigMaps(desired.Namespace)
	existing, err := r.ConfigMaps.ConfigMaps(desired.Namespace).Get(desired.Name)
	if apierrors.IsNotFound(err) {
		if _, err := client.Create(ctx, desired, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating ConfigMap %s: %w", desired.Name, err)
		}
		logger.Info("Created ConfigMap", "configMap", klog.KObj(desired))
		return nil
	}
	if err != nil {
		return err
	}
	if _, ok := cache.ControllerOf(existing, shopv1.SchemeGroupVersion.WithKind("Widget").GroupKind()); !ok {
		return nameConflictError{name: desired.Name}
	}
	owner := metav1.GetControllerOfNoCopy(existing)
	if owner.UID == w.UID && maps.Equal(existing.Data, desired.Data) && existing.Annotations[ManagedByAnnotation] == Name {
		return nil
	}
	updated := existing.DeepCopy()
	updated.Data = desired.Data
	updated.OwnerReferences = desired.OwnerReferences
	if updated.Annotations == nil {
		updated.Annotations = map[string]string{}
	}
	updated.Annotations[ManagedByAnnotation] = Name
	if _, err := client.Update(ctx, updated, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("updating ConfigMap %s: %w", desired.Name, err)
	}
	logger.Info("Updated ConfigMap", "configMap", klog.KObj(updated))
	return nil
}

// deleteOwned deletes the ConfigMaps controlled by a Widget named key,
// found through the byWidget index: all of them when the Widget is gone,
// and otherwise those it no longer renders into. The one it renders into is
// kept even when an earlier Widget of that name controls it: apply takes it
// over. Each delete is conditional on the UID the cache saw.
func (r *Reconciler) deleteOwned(ctx context.Context, key cache.ObjectName, widgetExists bool) error {
	owned, err := r.ConfigMaps.ConfigMaps(key.Namespace).ByWidget(key.Name)
	if err != nil {
		return err
	}
	for _, cm := range owned {
		if widgetExists && cm.Name == key.Name+ConfigMapSuffix {
			continue
		}
		precondition := metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &cm.UID}}
		err := r.Clients.Kube.CoreV1().ConfigMaps(cm.Namespace).Delete(ctx, cm.Name, precondition)
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("deleting ConfigMap %s: %w", cm.Name, err)
		}
		klog.FromContext(ctx).Info("Deleted ConfigMap", "configMap", klog.KObj(cm))
	}
	return nil
}

// setStatus records phase and the Ready condition in w's status, writing
// only when they change.
func (r *Reconciler) setStatus(ctx context.Context, w *shopv1.Widget, phase shopv1.WidgetPhase, ready metav1.ConditionStatus, reason, message string) error {
	status := *w.Status.DeepCopy()
	status.Phase = phase
	status.ObservedGeneration = w.Generation
	meta.SetStatusCondition(&status.Conditions, metav1.Condition{
		Type:               ConditionReady,
		Status:             ready,
		Reason:             reason,
		Message:            message,
		ObservedGeneration: w.Generation,
	})
	if equality.Semantic.DeepEqual(status, w.Status) {
		return nil
	}
	updated := w.DeepCopy()
	updated.Status = status
	if _, err := r.Clients.Shop.ShopV1().Widgets(w.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("updating the status: %w", err)
	}
	klog.FromContext(ctx).V(2).Info("Updated status", "phase", phase, "reason", reason)
	return nil
}

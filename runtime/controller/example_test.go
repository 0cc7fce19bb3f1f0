package controller_test

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/controller"
)

// A controller of ConfigMaps that also reconciles the ConfigMap controlling
// a Secret whenever that Secret changes. Generated code
// (controllers/<group>/<version>) builds the Primary from a factory.
func Example() {
	var client kubernetes.Interface // from kubernetes.NewForConfig
	cms := client.CoreV1().ConfigMaps("")
	configMaps, err := cache.NewSharedIndexInformer(cache.NewListWatch[*corev1.ConfigMap](cms.List, cms.Watch, client),
		cache.SharedIndexInformerOptions[*corev1.ConfigMap]{})
	if err != nil {
		klog.Background().Error(err, "Invalid informer options")
		return
	}
	secretsAPI := client.CoreV1().Secrets("")
	secrets, err := cache.NewSharedIndexInformer(cache.NewListWatch[*corev1.Secret](secretsAPI.List, secretsAPI.Watch, client),
		cache.SharedIndexInformerOptions[*corev1.Secret]{})
	if err != nil {
		klog.Background().Error(err, "Invalid informer options")
		return
	}
	lister := cache.NewLister[*corev1.ConfigMap](configMaps.GetIndexer(), corev1.Resource("configmaps"))

	reconcile := controller.ReconcilerFunc(func(ctx context.Context, key cache.ObjectName) (controller.Result, error) {
		cm, err := lister.Namespace(key.Namespace).Get(key.Name)
		if apierrors.IsNotFound(err) {
			return controller.Result{}, nil // deleted: nothing to do
		}
		if err != nil {
			return controller.Result{}, err
		}
		klog.FromContext(ctx).Info("Reconciling", "keys", len(cm.Data))
		return controller.Result{RequeueAfter: 10 * time.Minute}, nil
	})
	c, err := controller.New(controller.Primary[*corev1.ConfigMap]{
		Informer:   configMaps,
		GroupKind:  schema.GroupKind{Kind: "ConfigMap"},
		Namespaced: true,
		Predicates: []controller.Predicate[*corev1.ConfigMap]{controller.ResourceVersionChanged[*corev1.ConfigMap]()},
	}, reconcile, controller.Options{Name: "configmaps", Workers: 2})
	if err != nil {
		panic(err)
	}
	if err := controller.WatchOwned(c, secrets); err != nil {
		panic(err)
	}

	ctx := context.Background() // cancel it to stop
	go configMaps.RunWithContext(ctx)
	go secrets.RunWithContext(ctx)
	if err := c.Run(ctx); err != nil {
		klog.Background().Error(err, "Controller stopped")
	}
}

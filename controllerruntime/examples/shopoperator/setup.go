package shopoperator

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"

	shopindexes "github.com/informer-gen-plus/informer-gen-plus/controllerruntime/examples/indexes/shop/v1"
)

// Setup registers the indexes of the shop API with mgr's cache and adds the
// operator's reconcilers to mgr. Call it before mgr.Start.
func Setup(ctx context.Context, mgr ctrl.Manager) error {
	if err := shopindexes.SetupIndexes(ctx, mgr.GetFieldIndexer()); err != nil {
		return err
	}
	if err := (&ShopReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		return err
	}
	return (&WidgetReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
}

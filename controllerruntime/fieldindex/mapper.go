package fieldindex

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// MapByName returns a handler.MapFunc, for builder.Watches with
// handler.EnqueueRequestsFromMapFunc, that maps an object to a request for
// each object of k's kind in its namespace indexed under its name by the
// index named field: for an owner index, the objects it controls; for an
// index of a field holding an object's name (such as spec.configRef), the
// objects that refer to it. L is the kind's list type (such as
// shopv1.WidgetList); each call lists a new one through c, which must be the
// manager's cached client or cache. A lookup that fails is reported with
// utilruntime.HandleError and maps to no request (a MapFunc cannot return an
// error).
func MapByName[L any, PL interface {
	*L
	client.ObjectList
}](k Kind, c client.Reader, field string) handler.MapFunc {
	return func(ctx context.Context, obj client.Object) []reconcile.Request {
		list := PL(new(L))
		if err := k.List(ctx, c, list, field, obj.GetName(), client.InNamespace(obj.GetNamespace())); err != nil {
			utilruntime.HandleError(err)
			return nil
		}
		var requests []reconcile.Request
		err := meta.EachListItem(list, func(item runtime.Object) error {
			o, err := meta.Accessor(item)
			if err != nil {
				return err
			}
			requests = append(requests, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}})
			return nil
		})
		if err != nil {
			utilruntime.HandleError(err)
		}
		return requests
	}
}

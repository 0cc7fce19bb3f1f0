package controller

import (
	"context"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime/schema"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// Mapper names the primary objects to reconcile when obj, an object of a
// watched kind, changes. It is called from the informer's handler goroutine,
// with a context carrying the controller's logger; it must not block or
// mutate obj.
type Mapper[S any] func(ctx context.Context, obj S) []cache.ObjectName

// MapToSelf maps an object to its own key: the mapper of the primary kind.
func MapToSelf[S cache.Object]() Mapper[S] {
	return func(_ context.Context, obj S) []cache.ObjectName {
		return []cache.ObjectName{cache.KeyOf(obj)}
	}
}

// MapToControllerOwner maps an object to its controlling owner when that
// owner is of kind owner, in any version of owner's group (cache.ControllerOf,
// the definition generated +index(owner: ...) functions share): the owner's
// name, in the object's namespace when the owner kind is namespaced (owner
// references never cross namespaces) and without one when it is
// cluster-scoped. Objects without such an owner map to nothing.
func MapToControllerOwner[S cache.Object](owner schema.GroupKind, ownerNamespaced bool) Mapper[S] {
	return func(_ context.Context, obj S) []cache.ObjectName {
		name, ok := cache.ControllerOf(obj, owner)
		if !ok {
			return nil
		}
		key := cache.ObjectName{Name: name}
		if ownerNamespaced {
			key.Namespace = obj.GetNamespace()
		}
		return []cache.ObjectName{key}
	}
}

// MapByLookup maps an object to the keys of the primary objects lookup
// returns; lookup is typically a generated index lookup of the primary kind's
// lister, such as "the Widgets whose spec.configRef names this ConfigMap":
//
//	controller.MapByLookup(func(cm *corev1.ConfigMap) ([]*shopv1.Widget, error) {
//		return widgets.Widgets(cm.Namespace).ByConfigRef(cm.Name)
//	})
//
// A lookup error (generated lookups fail only for an index that was never
// added) is logged and maps to nothing.
func MapByLookup[S, T cache.Object](lookup func(obj S) ([]T, error)) Mapper[S] {
	return func(ctx context.Context, obj S) []cache.ObjectName {
		found, err := lookup(obj)
		if err != nil {
			klog.FromContext(ctx).Error(err, "Index lookup failed: no key enqueued", "object", klog.KObj(obj))
			return nil
		}
		return KeysOf(found)
	}
}

// KeysOf returns the keys of objs, in order.
func KeysOf[T cache.Object](objs []T) []cache.ObjectName {
	keys := make([]cache.ObjectName, len(objs))
	for i, obj := range objs {
		keys[i] = cache.KeyOf(obj)
	}
	return keys
}

// Watch makes changes to the objects of informer enqueue the keys mapper
// names, for the events every predicate keeps. An update enqueues the keys of
// both the old and the new object, so that a primary object that stops being
// named (an owner reference or an indexed value moved) is reconciled too.
//
// Before Run, Watch only records the source: Run registers its event handler
// and waits for it to sync before the first reconcile. While Run runs, Watch
// registers the handler at once (it fails when informer has stopped); Run
// does not wait for such a source to sync, and removes its handler on
// shutdown like the others. After Run returned, Watch fails.
func Watch[T, S cache.Object](c *Controller[T], informer clientcache.TypedSharedIndexInformer[S], mapper Mapper[S], predicates ...Predicate[S]) error {
	return watch(c, informer, mapper, false, predicates)
}

// watch is Watch; self says that mapper maps every object to its own key, so
// that a delete whose object is unknown (a tombstone without one, as
// client-go's informers may deliver) still enqueues the key.
func watch[T, S cache.Object](c *Controller[T], informer clientcache.TypedSharedIndexInformer[S], mapper Mapper[S], self bool, predicates []Predicate[S]) error {
	if informer == nil {
		return fmt.Errorf("controller %s: nil informer", c.opts.Name)
	}
	name := reflect.TypeFor[S]().String()
	logger := klog.Background().WithValues("controller", c.opts.Name, "source", name)
	h := &handler[S]{
		ctx:        klog.NewContext(context.Background(), logger),
		mapper:     mapper,
		self:       self,
		predicates: predicates,
		enqueue:    c.enqueue,
	}
	start := func() (source, error) {
		reg, err := informer.AddTypedEventHandler(h)
		if err != nil {
			return source{}, fmt.Errorf("controller %s: watching %s: %w", c.opts.Name, name, err)
		}
		return source{
			name:   name,
			synced: reg.HasSyncedChecker(),
			remove: func() error { return informer.RemoveEventHandler(reg) },
		}, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state {
	case configured:
		c.watches = append(c.watches, start)
		return nil
	case running:
		s, err := start()
		if err != nil {
			return err
		}
		c.sources = append(c.sources, s)
		return nil
	}
	return fmt.Errorf("controller %s: cannot watch %s after Run returned", c.opts.Name, name)
}

// WatchOwned watches informer for objects whose controlling owner is of c's
// primary kind and group (in any version: cache.ControllerOf, the definition
// generated +index(owner: ...) functions share), and enqueues that owner's
// key: the usual source of the objects a controller creates. It records or
// registers the source as Watch does.
func WatchOwned[T, S cache.Object](c *Controller[T], informer clientcache.TypedSharedIndexInformer[S], predicates ...Predicate[S]) error {
	return Watch(c, informer, MapToControllerOwner[S](c.primary.GroupKind, c.primary.Namespaced), predicates...)
}

// startSource registers the event handler of one recorded source.
type startSource func() (source, error)

// source is a registered event handler, as Run sees it.
type source struct {
	name   string
	synced clientcache.DoneChecker // of the handler's registration
	remove func() error
}

// handler is the informer event handler of one Watch.
type handler[S cache.Object] struct {
	ctx        context.Context
	mapper     Mapper[S]
	self       bool
	predicates []Predicate[S]
	enqueue    func(...cache.ObjectName)
}

func (h *handler[S]) OnAdd(obj S, _ bool) {
	for _, p := range h.predicates {
		if !p.Add(obj) {
			return
		}
	}
	h.enqueue(h.mapper(h.ctx, obj)...)
}

func (h *handler[S]) OnUpdate(oldObj, newObj S) {
	for _, p := range h.predicates {
		if !p.Update(oldObj, newObj) {
			return
		}
	}
	h.enqueue(h.mapper(h.ctx, newObj)...)
	if oldObj != newObj {
		h.enqueue(h.mapper(h.ctx, oldObj)...)
	}
}

func (h *handler[S]) OnDelete(deleted clientcache.DeletedObject[S]) {
	obj := deleted.OptionalObj
	var zero S
	if obj == zero {
		// Only the key is known: the primary's own key can still be
		// enqueued, other mappings cannot be computed.
		if h.self {
			h.enqueue(deleted.GetObjectName())
		} else {
			klog.FromContext(h.ctx).V(4).Info("Delete of an unknown object: nothing to map", "key", deleted.GetKey())
		}
		return
	}
	for _, p := range h.predicates {
		if !p.Delete(obj, deleted.FinalStateUnknown != nil) {
			return
		}
	}
	h.enqueue(h.mapper(h.ctx, obj)...)
}

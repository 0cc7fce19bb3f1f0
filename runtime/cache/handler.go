package cache

import (
	"k8s.io/client-go/tools/cache"
)

// Handlers are client-go's: cache.TypedResourceEventHandler[T] for typed
// handlers and cache.ResourceEventHandler for untyped ones. Calls for one
// registration are made one at a time, from one goroutine, in the order the
// informer processed the changes; calls for different registrations are
// independent. The objects are shared with the informer's store and with
// other handlers: they must not be mutated.
//
// A handler must not block for long: its notifications queue up (without
// bound) behind it. It does not hold up other handlers or the store.

// untypedHandler delivers to a client-go untyped handler what a typed one
// receives: the object itself, and on a delete whose final state is unknown
// the cache.DeletedFinalStateUnknown tombstone client-go's informer passes.
type untypedHandler[T Object] struct {
	handler cache.ResourceEventHandler
}

func (h untypedHandler[T]) OnAdd(obj T, isInInitialList bool) { h.handler.OnAdd(obj, isInInitialList) }

func (h untypedHandler[T]) OnUpdate(oldObj, newObj T) { h.handler.OnUpdate(oldObj, newObj) }

func (h untypedHandler[T]) OnDelete(obj cache.DeletedObject[T]) {
	if obj.FinalStateUnknown != nil {
		h.handler.OnDelete(*obj.FinalStateUnknown)
		return
	}
	h.handler.OnDelete(obj.OptionalObj)
}

// deletedObject is what a typed handler's OnDelete receives for the last
// known state obj: with a tombstone carrying obj and its key when the delete
// was inferred by a relist rather than seen.
func deletedObject[T Object](obj T, finalStateUnknown bool) cache.DeletedObject[T] {
	if !finalStateUnknown {
		return cache.DeletedObject[T]{OptionalObj: obj}
	}
	return cache.DeletedObject[T]{
		OptionalObj:       obj,
		FinalStateUnknown: &cache.DeletedFinalStateUnknown{Key: KeyOf(obj).String(), Obj: obj},
	}
}

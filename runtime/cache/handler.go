package cache

// ResourceEventHandler receives the notifications of a SharedIndexInformer for
// one registration. Calls for one registration are made one at a time, from
// one goroutine, in the order the informer processed the changes; calls for
// different registrations are independent. The objects are shared with the
// informer's store and with other handlers: they must not be mutated.
//
// A handler must not block for long: its notifications queue up (without
// bound) behind it. It does not hold up other handlers or the store.
type ResourceEventHandler[T any] interface {
	// OnAdd is called when an object enters the store. isInInitialList is
	// true for objects of the informer's first list, and for the replay of
	// the store's objects to a handler registered after the informer started
	// (semantics items 13 and 20).
	OnAdd(obj T, isInInitialList bool)
	// OnUpdate is called when an object in the store is replaced, and on
	// resync with oldObj == newObj. An update that does not change the
	// resourceVersion (a relist of an unchanged object) is treated as a
	// resync, as client-go does: it reaches every handler until the
	// informer's first resync check, and afterwards only handlers whose
	// resync is due (semantics item 11).
	OnUpdate(oldObj, newObj T)
	// OnDelete is called when an object leaves the store. obj is the last
	// known state. finalStateUnknown is true when the delete was inferred by
	// a relist instead of seen: obj may then be stale (client-go's
	// DeletedFinalStateUnknown, unwrapped).
	OnDelete(obj T, finalStateUnknown bool)
}

// ResourceEventHandlerFuncs adapts functions to ResourceEventHandler; a nil
// function ignores its notification.
type ResourceEventHandlerFuncs[T any] struct {
	AddFunc    func(obj T, isInInitialList bool)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj T, finalStateUnknown bool)
}

// OnAdd implements ResourceEventHandler.
func (f ResourceEventHandlerFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	if f.AddFunc != nil {
		f.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate implements ResourceEventHandler.
func (f ResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj T) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete implements ResourceEventHandler.
func (f ResourceEventHandlerFuncs[T]) OnDelete(obj T, finalStateUnknown bool) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj, finalStateUnknown)
	}
}

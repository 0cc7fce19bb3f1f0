package cache

// TransformFunc changes an object before it enters an informer's queue: once
// per object of a list and per watch event, before the store, its indexes and
// the handlers see it, never to objects the store already holds (resyncs,
// inferred deletes). An error fails the queueing of the list or event that
// carried the object, as in client-go; a nil result without an error is an
// error naming the object's key, and such an object is left out of a list
// (reported through utilruntime.HandleError). It may mutate obj in place. It
// should be idempotent, as client-go requires (its watch-list sync applies a
// transform twice); this runtime applies it once per incoming object
// (docs/clientgo-semantics.md#transform-idempotent).
type TransformFunc[T any] func(obj T) (T, error)

// DropManagedFields is a TransformFunc that clears metadata.managedFields,
// which controllers rarely read and which often make up a third or more of a
// cached object's memory.
func DropManagedFields[T Object](obj T) (T, error) {
	obj.SetManagedFields(nil)
	return obj, nil
}

// InternFunc interns the strings and shares the parts of obj that repeat
// across objects, in place, leaving obj reflect.DeepEqual to what it was:
// the generated Intern<Kind>Update functions (informer-gen-plus
// --with-interning) and a generated factory's Intern. An informer calls it
// after its transform on every object of a list and every added or modified
// object of a watch, never on deleted objects or on objects its store holds
// already. It calls it on the goroutine that writes the store, just before
// obj is stored and handed to handlers, not on the one that decodes events;
// a sharded informer (SetShardScope) calls it as obj enters its queue, on
// the reflector's goroutine. obj is freshly decoded and seen by no other
// goroutine yet (over a client without a REST client, such as a fake
// clientset, the informer copies it first: see NewClientListWatch); old is
// the object the informer's store holds under obj's key, the one obj
// replaces (the zero T when there is none; for a sharded informer, the one
// the store holds when obj is queued): an earlier version of obj,
// read-only and possibly read by other goroutines at the same time, whose
// parts equal to obj's the function may give obj instead of looking them
// up. Once cached, obj is read-only as every cached object is, and more so:
// it shares parts with other objects.
type InternFunc[T any] func(obj, old T)

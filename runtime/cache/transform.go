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

package cache

// TransformFunc changes an object before it enters an informer's queue; see
// DeltaFIFOOptions.Transform for when it runs. It may mutate obj in place. It
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

// ChainTransforms returns a TransformFunc that applies fns in order and stops
// at the first error. Nil functions are skipped.
func ChainTransforms[T any](fns ...TransformFunc[T]) TransformFunc[T] {
	return func(obj T) (T, error) {
		for _, fn := range fns {
			if fn == nil {
				continue
			}
			var err error
			if obj, err = fn(obj); err != nil {
				return obj, err
			}
		}
		return obj, nil
	}
}

package queue

import "github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/store"

// Object and ObjectName are the store's: the queue keys objects as the store
// does, so that the keys Pop hands out are the store's keys.
type (
	Object     = store.Object
	ObjectName = store.ObjectName
)

// keyOf is the store's key of obj.
func keyOf[T Object](obj T) ObjectName { return store.KeyOf(obj) }

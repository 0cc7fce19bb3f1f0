package store

import (
	"fmt"
	"maps"
	"slices"

	"k8s.io/client-go/tools/cache"
)

// AppendIndexFunc is the append form of IndexFunc: it appends the values
// under which obj is indexed to dst and returns the extended slice, as
// append does. The store calls it with a dst it owns and reuses from one
// object to the next, so that computing an object's values allocates
// nothing (when the function itself does not): the function must not keep
// dst or the slice it returns, only the strings in it. It is otherwise an
// IndexFunc: called with the store's write lock held, it must be
// deterministic, must not mutate obj and must not call back into the store;
// a panic is reported through utilruntime.HandleError and obj then gets no
// value in that index; it may append no value or the same value more than
// once.
type AppendIndexFunc[T any] func(obj T, dst []string) []string

// AppendIndexers maps index names to append-form index functions.
type AppendIndexers[T any] map[string]AppendIndexFunc[T]

// AddAppendIndexers is AddIndexers for append-form index functions. Names
// share one namespace with every other index of the store.
func (s *Indexer[T]) AddAppendIndexers(indexers AppendIndexers[T]) error {
	return addIndexes(s, indexers, func(fn AppendIndexFunc[T]) bool { return fn == nil },
		func(name string, fn AppendIndexFunc[T]) *index[T] {
			ix := newIndex[T](name, nil, "")
			ix.appendFn = fn
			return ix
		})
}

// AddAppendIndexes adds append-form index functions and label indexes (index
// name to label key) to indexer: directly to the typed store when indexer is
// one of this package's views (see StoreOf), and as client-go index functions
// (AppendToIndexers) to any other. A name already in use, or a label index
// with an empty key, is an error, and then nothing is added.
func AddAppendIndexes[T Object](indexer cache.Indexer, funcs AppendIndexers[T], labelIndexes map[string]string) error {
	store, ok := StoreOf[T](indexer)
	if !ok {
		return indexer.AddIndexers(AppendToIndexers(funcs, labelIndexes))
	}
	for _, name := range slices.Sorted(maps.Keys(labelIndexes)) {
		if _, clash := funcs[name]; clash || store.hasIndex(name) {
			return fmt.Errorf("index %q already exists", name)
		}
		if labelIndexes[name] == "" {
			return fmt.Errorf("label index %q has an empty label key", name)
		}
	}
	if err := store.AddAppendIndexers(funcs); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(labelIndexes)) {
		if err := store.AddLabelIndex(name, labelIndexes[name]); err != nil {
			return err
		}
	}
	return nil
}

// AppendToIndexers returns append-form index functions and label indexes
// (index name to label key) as client-go index functions that index the same
// values, for a client-go indexer (cache.NewIndexer). Each function calls
// its append-form function with a nil dst, and refuses an object that is not
// a T with an error.
func AppendToIndexers[T Object](funcs AppendIndexers[T], labelIndexes map[string]string) cache.Indexers {
	out := make(cache.Indexers, len(funcs)+len(labelIndexes))
	for name, fn := range funcs {
		out[name] = untypedIndexFunc(func(obj T) []string { return fn(obj, nil) })
	}
	for name, key := range labelIndexes {
		out[name] = untypedIndexFunc(func(obj T) []string {
			if v, ok := obj.GetLabels()[key]; ok {
				return []string{v}
			}
			return nil
		})
	}
	return out
}

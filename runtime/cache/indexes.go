package cache

import (
	"fmt"
	"maps"
	"slices"

	"k8s.io/client-go/tools/cache"
)

// AddIndexes adds typed index functions and label indexes (index name to
// label key) to indexer: directly to the typed store when indexer is one of
// this package's (see StoreOf), and as client-go index functions (ToIndexers)
// to any other. Generated AddKindIndexes functions call it.
func AddIndexes[T Object](indexer cache.Indexer, funcs Indexers[T], labelIndexes map[string]string) error {
	store, ok := StoreOf[T](indexer)
	if !ok {
		return indexer.AddIndexers(ToIndexers(funcs, labelIndexes))
	}
	for _, name := range slices.Sorted(maps.Keys(labelIndexes)) {
		if _, clash := funcs[name]; clash || store.hasIndex(name) {
			return fmt.Errorf("index %q already exists", name)
		}
		if labelIndexes[name] == "" {
			return fmt.Errorf("label index %q has an empty label key", name)
		}
	}
	if err := store.AddIndexers(funcs); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(labelIndexes)) {
		if err := store.AddLabelIndex(name, labelIndexes[name]); err != nil {
			return err
		}
	}
	return nil
}

// ToIndexers returns typed index functions and label indexes (index name to
// label key) as client-go index functions, which index the same values, for a
// client-go indexer (cache.NewIndexer).
func ToIndexers[T Object](funcs Indexers[T], labelIndexes map[string]string) cache.Indexers {
	out := make(cache.Indexers, len(funcs)+len(labelIndexes))
	for name, fn := range funcs {
		out[name] = untypedIndexFunc(fn)
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

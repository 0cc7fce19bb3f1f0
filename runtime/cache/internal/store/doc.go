// Package store is the typed, indexed object store of runtime/cache: Indexer
// (objects, index definitions and index contents behind one lock), its index
// functions in both forms, its client-go face (Indexer.AsIndexer, StoreOf,
// AddAppendIndexes, AppendToIndexers) and Lister, the read side that
// generated listers wrap. runtime/cache names what users and generated code
// use (as aliases and one-line functions); this package holds the
// implementation and what only the informer calls (Reserve,
// NoteResourceVersion).
//
// The layout that makes lookups cheap is explained beside the code that
// implements it: slots and namespaces on Indexer's fields (store.go), the
// key map (keymap.go), index buckets, their namespace grouping and the
// per-slot references (index.go), and the small sets of slots (idset.go).
package store

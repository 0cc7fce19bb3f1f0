package store

// This file holds what the informer that owns a store does to it besides
// reading and writing objects. They are functions rather than methods so
// that the store's method set, which users reach through the informer's
// TypedStore, holds only the store's own contract.

// Reserve gives an empty store room for n objects, so that filling it (an
// informer's first list) does not grow its tables step by step. It does
// nothing to a store that holds objects or has room already.
func Reserve[T Object](s *Indexer[T], n int) { s.reserve(n) }

// NoteResourceVersion records rv as the store's resourceVersion, which its
// client-go view's LastStoreSyncResourceVersion returns: the informer calls
// it for a delete, whose object is no longer stored.
func NoteResourceVersion[T Object](s *Indexer[T], rv string) { s.noteResourceVersion(rv) }

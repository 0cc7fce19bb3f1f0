package queue

// DeltaType is the kind of change a Delta records.
type DeltaType string

// The delta types a DeltaFIFO records. They carry client-go's names and meaning
// (docs/clientgo-semantics.md#delta-types).
const (
	// Added: a watch event said the object was created.
	Added DeltaType = "Added"
	// Updated: a watch event said the object was modified.
	Updated DeltaType = "Updated"
	// Deleted: the object was deleted. FinalStateUnknown tells whether the
	// delete was seen or inferred by a relist.
	Deleted DeltaType = "Deleted"
	// Replaced: the object was part of a full list (a relist).
	Replaced DeltaType = "Replaced"
	// Sync: a periodic resync re-delivers the object the store holds.
	Sync DeltaType = "Sync"
)

// Delta is one change to one object.
type Delta[T any] struct {
	Type DeltaType
	// Object is the object's state after the change. For a Deleted delta it
	// is the last state the client knew; when FinalStateUnknown is set it may
	// be stale, and it is the zero value when no state was known at all.
	Object T
	// FinalStateUnknown is set on Deleted deltas that a relist inferred: the
	// object was known but is missing from the new list, so its delete event
	// (and any change before it) was missed. This is client-go's
	// DeletedFinalStateUnknown tombstone, unwrapped.
	FinalStateUnknown bool
}

// Deltas is the list of changes to one object, oldest first.
type Deltas[T any] []Delta[T]

// Newest returns the most recent delta, or false when there is none.
func (d Deltas[T]) Newest() (Delta[T], bool) {
	if len(d) == 0 {
		return Delta[T]{}, false
	}
	return d[len(d)-1], true
}

// isDeletionDup returns the surviving delta when a and b (b newer) are both
// deletes, preferring the one whose final state is known
// (docs/clientgo-semantics.md#delete-dedup).
func isDeletionDup[T any](a, b *Delta[T]) *Delta[T] {
	if a.Type != Deleted || b.Type != Deleted {
		return nil
	}
	if a.FinalStateUnknown {
		return b
	}
	return a
}

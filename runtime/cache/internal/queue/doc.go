// Package queue is the informer's queue: DeltaFIFO, the typed counterpart of
// client-go's DeltaFIFO, which accumulates the deltas of one object under
// its key, and the Delta types it hands to its one consumer. runtime/cache's
// informer is its only user: client-go's reflector writes to it through the
// informer's adapter (runtime/cache/controller.go) and the informer pops it.
//
// How the line, the index of keys, the cells of deltas and the batches of
// taken keys work is explained on DeltaFIFO's fields (delta_fifo.go), on
// the index's two tables (delta_fifo_index.go) and on the consumer's side
// (delta_fifo_pop.go).
package queue

package queue

import (
	"context"
	"slices"
)

// takenEntry is an entry Pop has taken off the line, and its number. Its
// deltas may be the entry's own cells in the ring, which stay the key's
// until its processing ends.
type takenEntry[T Object] struct {
	key     ObjectName
	deltas  Deltas[T]
	initial bool
	seq     uint64
}

// InformerBatch is the most keys the informer's consumer takes off the line at
// once. Taking them under one acquisition of the lock, and recording the end
// of each one's processing without it, keeps the consumer from contending
// with the reflector for the lock twice per key.
const InformerBatch = 64

// Pop waits for a queued key, removes it with its deltas and calls process
// with the lock released. isInInitialList is true for the keys of the first
// Replace that HasSynced waits for, a key whose processing failed included,
// and false for every other key, even one popped before the queue has synced
// (behind a failed initial key). Pop returns process's error, after putting
// the deltas back ahead of any that arrived meanwhile; ErrFIFOClosed once the
// queue is closed and empty; or ctx's error. Pop must not be called
// concurrently with itself.
//
// When process panics, the queue is left consistent and the panic goes on to
// Pop's caller: the key is no longer in flight, its deltas are dropped as
// client-go's DeltaFIFO drops them, and it counts as processed for HasSynced
// (a key whose processing always panics must not keep the queue unsynced).
func (f *DeltaFIFO[T]) Pop(ctx context.Context, process func(key ObjectName, deltas Deltas[T], isInInitialList bool) error) error {
	return f.PopBatch(ctx, 1, process)
}

// PopBatch is Pop, except that when it has to take keys off the line it takes up
// to most of them at once (the queued keys at the head of the line, in order)
// and processes the first; the next calls process the others, in order,
// before any other key. A key taken is popped: a delta that arrives for it
// while it waits in the batch is queued under a new entry at the end of the
// line, as for a key being processed. With most = 1, pop is exactly Pop.
// With most > 1 (the informer's consumer), process must not keep deltas once
// it has returned: the queue clears their cells and cuts them anew.
func (f *DeltaFIFO[T]) PopBatch(ctx context.Context, most int, process PopProcessFunc[T]) error {
	f.popMu.Lock()
	defer f.popMu.Unlock()
	if len(f.batch) == 0 {
		if err := f.take(ctx, most); err != nil {
			return err
		}
	}
	t := f.batch[0]
	f.batch[0] = takenEntry[T]{}
	f.batch = f.batch[1:]
	returned := false
	defer func() {
		if !returned { // process panicked: its deltas are dropped
			f.finish(t, nil)
		}
	}()
	err := process(t.key, t.deltas, t.initial)
	returned = true
	if err != nil || t.initial || len(f.batch) == 0 {
		// Put the key back in line, count it for HasSynced, or, at the end
		// of a batch, clear the processed entries (and release the storage
		// of a drained line) at once.
		f.finish(t, err)
		return err
	}
	f.processedTo.Store(t.seq + 1)
	return nil
}

// take settles what the consumer has processed, waits for a queued key, and
// takes up to most keys off the head of the line into the batch.
func (f *DeltaFIFO[T]) take(ctx context.Context, most int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.settleLocked()
	for f.lenLocked() == 0 {
		if f.isClosed {
			return ErrFIFOClosed
		}
		f.consumerWaits = true
		err := f.waitLocked(ctx, f.notEmpty)
		f.consumerWaits = false
		if err != nil {
			return err
		}
	}
	f.ownsDeltas = f.ownsDeltas || most > 1
	n := min(most, f.lenLocked())
	if cap(f.batchBuf) < n {
		f.batchBuf = make([]takenEntry[T], 0, most)
	}
	f.batch = f.batchBuf[:0]
	for range n {
		e := f.entryAt(f.first)
		f.batch = append(f.batch, takenEntry[T]{key: e.key, deltas: e.deltas, initial: e.initial, seq: f.first})
		f.first++
	}
	signal(&f.notFull)
	return nil
}

// OwnDeltas records that the queue's one consumer takes keys in batches
// (pop with most > 1) and keeps no deltas once it has processed them, before
// it takes any: the queue then owns its deltas from the first key queued on,
// the keys of a first list included, and keeps a key's first two deltas in
// its entry (appendLocked). Without it, the queue owns its deltas from the
// first batch taken on.
func (f *DeltaFIFO[T]) OwnDeltas() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ownsDeltas = true
}

// finish records, under the lock, the end of t's processing: with err, t's
// deltas go back in line ahead of any that arrived meanwhile, keeping its
// initial mark; without, t counts as processed for HasSynced.
func (f *DeltaFIFO[T]) finish(t takenEntry[T], err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.processedTo.Store(t.seq + 1)
	if err != nil && f.ownsDeltas {
		t.deltas = slices.Clone(t.deltas) // settleLocked clears the queue's
	}
	f.settleLocked()
	if err == nil {
		f.processedLocked(t.initial)
		return
	}
	deltas := t.deltas
	e := f.entryLocked(t.key)
	if e != nil {
		for _, d := range e.deltas {
			deltas = dedupDeltas(append(deltas, d))
		}
		e.deltas = deltas
		if e.initial && t.initial {
			f.initialLeft-- // the two marked entries are one again
		}
	} else {
		e = f.queueLocked(t.key, deltas)
	}
	e.initial = e.initial || t.initial
}

// settleLocked clears the entries of the processed keys, and resets the line
// once nothing is queued or in flight. The processed keys stay in the index,
// counted in stale, until it is rebuilt: once they outnumber twice the queued
// keys plus staleFloor, so that the map stays within a few times the line and
// each rebuild costs about as many keys as were left in it since the last.
// The consumer thus never probes the map, which the reflector writes to from
// another CPU, to delete a key.
func (f *DeltaFIFO[T]) settleLocked() {
	to := f.processedTo.Load()
	if f.taken == to {
		return
	}
	f.stale += int(to - f.taken)
	for ; f.taken < to; f.taken++ {
		e := f.entryAt(f.taken)
		if f.ownsDeltas {
			clear(e.deltas)
		}
		*e = fifoEntry[T]{}
	}
	if f.taken == f.next {
		f.drainedLocked()
	}
	if f.stale > 2*f.lenLocked()+f.staleFloor {
		f.reindexLocked()
	}
}

package queue

// The queue's storage between lines: its ring of entries and the index of its
// keys (DeltaFIFO.entries and index). Go maps and slices never shrink, so
// what a long line grew is released once the line drains, unless bursts of
// events go on, and the index switches between two tables: a small one while
// the line is short, cheap to probe because the CPU caches hold it, and one
// for bursts, kept empty between them so that the next burst does not grow
// a table again, and not probed while the line is short (its keys would be
// spread over megabytes).

// keepFactor is how many times as many keys as a line of single events grew
// the ring and index for (past releaseAbove) must pass through shorter lines
// before the ring and the burst table are released: a burst of watch events
// that outran the consumer tends to come again, and growing them again
// costs, amortised over those keys, at most about a keepFactor-th of
// queueing them.
const keepFactor = 8

// keepLeast is the line size keepFactor counts from for a line of single
// events that grew past releaseAbove but stayed shorter: a consumer that
// nearly keeps up with a long burst drains lines of one to a few thousand
// keys again and again, and would otherwise release and grow their tables
// many times in one burst. What is kept then is small: a ring and a table
// for a few thousand keys.
const keepLeast = 16384

// drainedLocked resets the empty line. After a line that a Replace or a
// Resync filled (the initial list, a relist, a resync), a ring or index table
// grown past releaseAbove is released: a quiet informer keeps nothing of what
// its initial list grew. After a line of single events that grew them, they
// are kept until keepFactor times as many keys as that line held at its
// longest have passed through shorter lines: the ring as it is, the index's
// table emptied, as the burst table, while the line goes back to a small one.
// A small table keeps the processed keys it holds, counted in stale, until it
// is rebuilt: clearing it would touch its whole table whenever a quiet line
// drains.
func (f *DeltaFIFO[T]) drainedLocked() {
	f.slab = nil
	switch {
	case f.bulkLine:
		f.keepKeys = 0
	case f.linePeak > releaseAbove:
		f.keepKeys = keepFactor * max(f.linePeak, keepLeast)
	default:
		f.keepKeys -= int(f.next - f.lineStart)
	}
	f.linePeak, f.lineStart, f.bulkLine = 0, f.next, false
	keep := f.keepKeys > 0
	if !keep {
		f.burstIndex = nil
		if len(f.entries) > releaseAbove {
			f.entries = nil
		}
	}
	if f.quietIndex == nil && f.indexPeak <= releaseAbove {
		return // the index is a small table
	}
	if keep {
		clear(f.index)
		f.burstIndex = f.index
	}
	f.index, f.quietIndex = f.quietIndex, nil
	if f.index == nil {
		f.index = map[ObjectName]uint64{}
	}
	f.indexPeak, f.stale = 0, 0
}

// promoteLocked switches the index from its small table, about to grow past
// releaseAbove, to the burst table kept from an earlier burst: the keys in
// flight and queued move to the burst table, and the small one is kept,
// emptied, for when the line drains.
func (f *DeltaFIFO[T]) promoteLocked() {
	small := f.index
	f.index, f.burstIndex = f.burstIndex, nil
	f.indexPeak = 0
	f.fillIndexLocked()
	clear(small)
	f.quietIndex = small
}

// reindexLocked rebuilds the index from the in-flight and queued keys,
// dropping the processed ones left in it. The table is cleared and refilled,
// keeping its size (and indexPeak, the size it was grown to), unless it is
// large, the line has shrunk to a sixteenth of it and no burst is going on:
// then the line goes back to the small table, or one made for its keys.
func (f *DeltaFIFO[T]) reindexLocked() {
	if live := int(f.next - f.processedTo.Load()); f.keepKeys <= 0 && len(f.index) > 4*releaseAbove && 16*live < len(f.index) {
		f.index, f.quietIndex, f.indexPeak = f.quietIndex, nil, 0
		if f.index == nil {
			f.index = make(map[ObjectName]uint64, live)
		}
	} else {
		clear(f.index)
	}
	f.fillIndexLocked()
}

// fillIndexLocked enters the in-flight and queued keys into the index, which
// holds no key of the line.
func (f *DeltaFIFO[T]) fillIndexLocked() {
	for seq := f.processedTo.Load(); seq < f.next; seq++ {
		f.index[f.entryAt(seq).key] = seq
	}
	f.indexPeak, f.stale = max(f.indexPeak, len(f.index)), 0
}

package wire

import (
	"fmt"
	goruntime "runtime"
	"sync"
)

// Sizes of a list's decoding pipeline: items per batch, and the most bytes
// per buffer the items are read into (a larger item gets a buffer of its
// own).
const (
	decodeBatch = 32
	itemArena   = 1 << 20
)

// itemBatch is a run of consecutive items of a list, decoded by one
// goroutine into out; first is the index of its first item in the list.
type itemBatch[T Object] struct {
	first int
	items [][]byte
	out   []T
}

// itemPipeline decodes the items of a list while the list is being read:
// the reader adds each item's bytes in order, and batches of them are
// decoded on up to GOMAXPROCS goroutines, each started with a batch sent (a
// short list starts as many as it has batches). The reader calls finish
// once it has added every item or failed; only the reader calls add and
// finish.
type itemPipeline[T Object] struct {
	decode func([]byte) (T, error)
	// arena holds the items' bytes: the reader's, which reads them into it.
	arena   arena
	batches chan itemBatch[T]
	workers int
	wg      sync.WaitGroup
	batch   itemBatch[T]
	outs    [][]T

	errMu   sync.Mutex
	itemErr error
	failed  chan struct{} // closed with the first item that fails
}

// newItemPipeline returns a pipeline that decodes each item with decode,
// whose panics are errors of their items.
func newItemPipeline[T Object](decode func([]byte) (T, error)) *itemPipeline[T] {
	workers := goruntime.GOMAXPROCS(0)
	return &itemPipeline[T]{
		decode:  decode,
		batches: make(chan itemBatch[T], 2*workers),
		workers: workers,
		failed:  make(chan struct{}),
	}
}

// add queues the next item; it returns false once an item has failed to
// decode, after which the reader stops and calls finish.
func (p *itemPipeline[T]) add(item []byte) bool {
	p.batch.items = append(p.batch.items, item)
	return len(p.batch.items) < decodeBatch || p.send()
}

// send hands the current batch to the decoding goroutines.
func (p *itemPipeline[T]) send() bool {
	if len(p.batch.items) == 0 {
		return true
	}
	p.batch.out = make([]T, len(p.batch.items))
	p.outs = append(p.outs, p.batch.out)
	if len(p.outs) <= p.workers {
		p.wg.Go(p.run)
	}
	select {
	case p.batches <- p.batch:
	case <-p.failed:
		return false
	}
	p.batch = itemBatch[T]{first: p.batch.first + len(p.batch.items)}
	return true
}

// run decodes batches until the reader is done.
func (p *itemPipeline[T]) run() {
	for b := range p.batches {
		select {
		case <-p.failed:
			continue // drain: the list has failed
		default:
		}
		for i, item := range b.items {
			obj, err := recovered(func() (T, error) { return p.decode(item) })
			if err != nil {
				p.fail(fmt.Errorf("decoding item %d of the list: %w", b.first+i, err))
				break
			}
			b.out[i] = obj
		}
	}
}

func (p *itemPipeline[T]) fail(err error) {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	if p.itemErr == nil {
		p.itemErr = err
		close(p.failed)
	}
}

// finish sends the last batch, waits for the decoding goroutines and
// returns the decoded items in order (nil when there are none), or the
// error of the first item that failed.
func (p *itemPipeline[T]) finish() ([]T, error) {
	p.send()
	close(p.batches)
	p.wg.Wait()
	if p.itemErr != nil {
		return nil, p.itemErr
	}
	total := 0
	for _, o := range p.outs {
		total += len(o)
	}
	if total == 0 {
		return nil, nil
	}
	items := make([]T, 0, total)
	for _, o := range p.outs {
		items = append(items, o...)
	}
	return items, nil
}

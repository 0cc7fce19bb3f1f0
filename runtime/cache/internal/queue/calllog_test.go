package queue

import (
	"slices"
	"sync"
)

// callLog records calls, in order, from any goroutine.
type callLog[C any] struct {
	mu    sync.Mutex
	calls []C
}

func (l *callLog[C]) add(c C) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, c)
}

// recorded returns the calls recorded so far.
func (l *callLog[C]) recorded() []C {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.calls)
}

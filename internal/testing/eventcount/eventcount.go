// Package eventcount counts the adds and updates an informer's event handler
// receives, for benchmarks and tests that wait until a given number of them
// has arrived, and gives the typed and untyped client-go handlers that count
// them.
package eventcount

import (
	"sync/atomic"

	"k8s.io/client-go/tools/cache"
)

// Counter counts adds and updates and signals when a count reaches its
// target. Its methods may be called from any goroutine; each target is
// signalled once.
type Counter struct {
	adds, updates        atomic.Int64
	addTarget, updTarget atomic.Int64
	addsDone, updsDone   chan struct{}
}

// New returns a Counter whose AddsDone is signalled at the adds-th add.
func New(adds int) *Counter {
	c := &Counter{addsDone: make(chan struct{}, 1), updsDone: make(chan struct{}, 1)}
	c.addTarget.Store(int64(adds))
	return c
}

// Add counts an add.
func (c *Counter) Add() {
	if c.adds.Add(1) == c.addTarget.Load() {
		c.addsDone <- struct{}{}
	}
}

// Update counts an update.
func (c *Counter) Update() {
	if c.updates.Add(1) == c.updTarget.Load() {
		c.updsDone <- struct{}{}
	}
}

// ExpectUpdates sets the target of the next UpdatesDone signal to n updates
// more than counted so far.
func (c *Counter) ExpectUpdates(n int) { c.updTarget.Store(c.updates.Load() + int64(n)) }

// AddsDone receives once the adds reach their target.
func (c *Counter) AddsDone() <-chan struct{} { return c.addsDone }

// UpdatesDone receives once the updates reach their target.
func (c *Counter) UpdatesDone() <-chan struct{} { return c.updsDone }

// Adds returns the adds counted so far; AddTarget their target.
func (c *Counter) Adds() int64      { return c.adds.Load() }
func (c *Counter) AddTarget() int64 { return c.addTarget.Load() }

// Updates returns the updates counted so far; UpdateTarget their target.
func (c *Counter) Updates() int64      { return c.updates.Load() }
func (c *Counter) UpdateTarget() int64 { return c.updTarget.Load() }

// TypedHandler returns a typed client-go event handler that counts the adds
// and updates of c (of objects that are not nil) and ignores deletes.
func TypedHandler[T interface {
	comparable
	cache.Object
}](c *Counter) cache.TypedResourceEventHandler[T] {
	var zero T
	return cache.TypedResourceEventHandlerDetailedFuncs[T]{
		AddFunc: func(obj T, _ bool) {
			if obj != zero {
				c.Add()
			}
		},
		UpdateFunc: func(_, obj T) {
			if obj != zero {
				c.Update()
			}
		},
	}
}

// Handler is TypedHandler as an untyped client-go handler: the one a user of
// client-go's informers writes, which type-asserts every object to T.
func Handler[T comparable](c *Counter) cache.ResourceEventHandler {
	var zero T
	return cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, _ bool) {
			if obj.(T) != zero {
				c.Add()
			}
		},
		UpdateFunc: func(_, obj any) {
			if obj.(T) != zero {
				c.Update()
			}
		},
	}
}

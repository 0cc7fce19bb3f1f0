// Package controller runs the reconcile loop of an operator over the typed
// informers of package cache: event handlers that turn changes into keys,
// client-go's typed rate-limited workqueue, workers that call a Reconciler,
// retries with backoff up to a cap, requeues after a duration, and a
// graceful shutdown.
//
// A Controller reconciles one primary kind T. Every change to a T enqueues
// the T's own key; changes to other kinds enqueue the keys of the T objects a
// Mapper names: the controlling owner (WatchOwned, MapToControllerOwner), the
// result of an index lookup on T's generated lister (MapByLookup), or any
// function. Predicates filter events before they are mapped.
//
// New, Watch and WatchOwned only record a controller's configuration: Run
// builds the workqueue, registers the event handlers and starts the workers,
// and stops all of them before it returns, so a controller that is never run
// needs no cleanup. A controller's name labels its metrics and must be unique
// in the process (Options.Name, Options.SkipNameValidation).
//
// The workqueue holds keys, never objects: a reconciler reads the current
// state from a lister, and a key whose object is gone is reconciled like any
// other (a delete is a normal case, not an error).
package controller

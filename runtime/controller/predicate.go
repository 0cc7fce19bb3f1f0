package controller

import (
	"k8s.io/apimachinery/pkg/labels"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// Predicate filters the events of a watched informer before they are mapped
// to keys: an event is enqueued only when every predicate of its Watch keeps
// it. Predicates are called from the informer's handler goroutine and must not
// block or mutate the objects.
type Predicate[T any] interface {
	// Add reports whether the addition of obj is enqueued.
	Add(obj T) bool
	// Update reports whether the change from oldObj to newObj is enqueued.
	// A resync calls it with oldObj == newObj.
	Update(oldObj, newObj T) bool
	// Delete reports whether the deletion of obj is enqueued;
	// finalStateUnknown is true when obj is the last known state of an object
	// whose deletion was inferred by a relist.
	Delete(obj T, finalStateUnknown bool) bool
}

// PredicateFuncs adapts functions to Predicate; a nil function keeps every
// event of its kind.
type PredicateFuncs[T any] struct {
	AddFunc    func(obj T) bool
	UpdateFunc func(oldObj, newObj T) bool
	DeleteFunc func(obj T, finalStateUnknown bool) bool
}

// Add implements Predicate.
func (p PredicateFuncs[T]) Add(obj T) bool { return p.AddFunc == nil || p.AddFunc(obj) }

// Update implements Predicate.
func (p PredicateFuncs[T]) Update(oldObj, newObj T) bool {
	return p.UpdateFunc == nil || p.UpdateFunc(oldObj, newObj)
}

// Delete implements Predicate.
func (p PredicateFuncs[T]) Delete(obj T, finalStateUnknown bool) bool {
	return p.DeleteFunc == nil || p.DeleteFunc(obj, finalStateUnknown)
}

// NewPredicate returns a Predicate that asks keep about the object of every
// event: the added object, the new object of an update, the deleted object.
func NewPredicate[T any](keep func(obj T) bool) Predicate[T] {
	return PredicateFuncs[T]{
		AddFunc:    keep,
		UpdateFunc: func(_, newObj T) bool { return keep(newObj) },
		DeleteFunc: func(obj T, _ bool) bool { return keep(obj) },
	}
}

// GenerationChanged keeps updates that change metadata.generation, and every
// add and delete. The API server bumps the generation of custom resources with
// a status subresource (and of most built-in kinds) on spec changes only, so
// this drops the controller's own status writes and resyncs. Kinds without a
// generation (ConfigMap, Secret) never change it: do not use it for them.
func GenerationChanged[T cache.Object]() Predicate[T] {
	return PredicateFuncs[T]{UpdateFunc: func(oldObj, newObj T) bool {
		return oldObj.GetGeneration() != newObj.GetGeneration()
	}}
}

// ResourceVersionChanged keeps updates that change metadata.resourceVersion,
// and every add and delete: it drops resyncs.
func ResourceVersionChanged[T cache.Object]() Predicate[T] {
	return PredicateFuncs[T]{UpdateFunc: func(oldObj, newObj T) bool {
		return oldObj.GetResourceVersion() != newObj.GetResourceVersion()
	}}
}

// LabelsMatch keeps the events of objects whose labels match selector. An
// update is kept when the old or the new labels match, so that the controller
// also sees an object leave the selection.
func LabelsMatch[T cache.Object](selector labels.Selector) Predicate[T] {
	matches := func(obj T) bool { return selector.Matches(labels.Set(obj.GetLabels())) }
	return PredicateFuncs[T]{
		AddFunc:    matches,
		UpdateFunc: func(oldObj, newObj T) bool { return matches(oldObj) || matches(newObj) },
		DeleteFunc: func(obj T, _ bool) bool { return matches(obj) },
	}
}

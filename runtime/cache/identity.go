package cache

import "k8s.io/apimachinery/pkg/runtime/schema"

// GroupVersionResource returns the resource the informer lists and watches,
// as given in SharedIndexInformerOptions.Identifier (informers built by
// runtime/informers.NewInformer always give it); the zero value when none was
// given. Factories use it to ask discovery whether the server serves the
// resource before they start the informer.
func (s *SharedIndexInformer[T]) GroupVersionResource() schema.GroupVersionResource {
	return s.opts.Identifier.GroupVersionResource()
}

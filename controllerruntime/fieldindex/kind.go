package fieldindex

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Kind describes the indexes of one kind for the errors this package returns.
// Generated code declares one per kind; its fields are read, never written,
// after that.
type Kind struct {
	// Name is the kind, such as Widget.
	Name string
	// SetupCall is the call that registers the kind's indexes, such as
	// "shopv1.SetupWidgetIndexes", named in the error a lookup returns when
	// an index is missing.
	SetupCall string
}

// Setup registers every index of indexers for obj's kind with indexer, the
// field name of each being its index name, in the order of their names. The
// index functions are called by the cache's informer; a function that returns
// an error or panics indexes the object under no value of that index and the
// failure is reported with utilruntime.HandleError. Setup must be called
// before the cache starts (as controller-runtime's IndexField must); it
// returns the first error of the registrations, naming the index.
func (k Kind) Setup(ctx context.Context, indexer client.FieldIndexer, obj client.Object, indexers cache.Indexers) error {
	for _, name := range slices.Sorted(maps.Keys(indexers)) {
		fn := indexers[name]
		if fn == nil {
			return fmt.Errorf("registering index %q of %s: no index function", name, k.Name)
		}
		if err := indexer.IndexField(ctx, obj, name, k.extractor(name, fn)); err != nil {
			return fmt.Errorf("registering index %q of %s: %w", name, k.Name, err)
		}
	}
	return nil
}

// extractor adapts a client-go index function to controller-runtime's
// IndexerFunc, which cannot return an error: failures and panics are reported
// and the object gets no value.
func (k Kind) extractor(name string, fn cache.IndexFunc) client.IndexerFunc {
	return func(obj client.Object) (values []string) {
		defer func() {
			if r := recover(); r != nil {
				utilruntime.HandleError(fmt.Errorf("index %q of %s panicked on %s: %v", name, k.Name, objectName(obj), r))
				values = nil
			}
		}()
		values, err := fn(obj)
		if err != nil {
			utilruntime.HandleError(fmt.Errorf("index %q of %s on %s: %w", name, k.Name, objectName(obj), err))
			return nil
		}
		return values
	}
}

// objectName is namespace/name of obj, or its name when it has no namespace.
func objectName(obj client.Object) string {
	if obj == nil {
		return "<nil>"
	}
	return strings.TrimPrefix(obj.GetNamespace()+"/"+obj.GetName(), "/")
}

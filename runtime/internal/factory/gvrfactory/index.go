package gvrfactory

import (
	"errors"
	"fmt"

	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// CompileFunc returns the index function of a valid spec for a store of T,
// or an error when T cannot be indexed that way (a field index of an object
// that holds only metadata). It is called once per declared index; the
// function it returns runs on every write and must not fail or panic on any
// object. Label specs never reach it: they become the store's label indexes.
type CompileFunc[T cache.Object] func(spec fieldpath.IndexSpec) (cache.IndexFunc[T], error)

// AddIndex declares the index name from spec, in
// fieldpath.ParseIndexSpec's form: `field: "spec.containers[*].image"`,
// `field: "status.phase, spec.nodeName"`, "label: app", "annotation:
// example.dev/team", "owner: apps/ReplicaSet", "owner: core/ConfigMap". See
// AddIndexSpec.
func (r *ResourceInformer[T, N]) AddIndex(name, spec string) error {
	s, err := fieldpath.ParseIndexSpec(spec)
	if err != nil {
		return fmt.Errorf("index %q of %s: %w", name, r.gvr.GroupResource(), err)
	}
	return r.AddIndexSpec(name, s)
}

// AddIndexSpec declares the index name from spec, before or while the
// informer runs: the spec is checked and compiled once, and the store
// indexes every object it holds (at once) and every later one with the
// result. An invalid spec, a spec T cannot be indexed by (a field spec of a
// metadata informer, which holds no field beyond the metadata), an owner
// without its group ("Shop" instead of "shop.example.dev/Shop") and a name
// already in use are errors naming the resource, and then nothing is added.
// A label spec becomes a label index of the store, which also narrows the
// lister's label-selector lists.
func (r *ResourceInformer[T, N]) AddIndexSpec(name string, spec fieldpath.IndexSpec) error {
	if err := r.addIndexSpec(name, spec); err != nil {
		return fmt.Errorf("index %q of %s: %w", name, r.gvr.GroupResource(), err)
	}
	return nil
}

func (r *ResourceInformer[T, N]) addIndexSpec(name string, spec fieldpath.IndexSpec) error {
	if name == "" {
		return errors.New("an index needs a name")
	}
	if err := spec.Validate(); err != nil {
		return err
	}
	if spec.OwnerUnqualified {
		return fmt.Errorf("owner %q names no API group, and at run time there are no input packages to find it in; write group/Kind, such as \"apps/%s\" (\"%s/%s\" for the core group)",
			spec.Owner.Kind, spec.Owner.Kind, fieldpath.CoreGroup, spec.Owner.Kind)
	}
	// The lock orders declarations, so that a lookup never sees an index
	// without its arity.
	r.mu.Lock()
	defer r.mu.Unlock()
	// The store answers cache.NamespaceIndex without holding it as an
	// index; GetIndexers lists it, as client-go's lists every index.
	if _, taken := r.informer.GetIndexer().GetIndexers()[name]; taken {
		return fmt.Errorf("index %q already exists", name)
	}
	store := r.informer.TypedStore()
	if spec.Source() == fieldpath.IndexByLabel {
		if err := store.AddLabelIndex(name, spec.Label); err != nil {
			return err
		}
	} else {
		fn, err := r.kind.Compile(spec)
		if err != nil {
			return err
		}
		if err := store.AddIndexers(cache.Indexers[T]{name: fn}); err != nil {
			return err
		}
	}
	r.arity[name] = spec.Arity()
	return nil
}

// ByIndex returns the objects, in every namespace, whose index name holds
// values: one value per path of a composite field key, in the key's order,
// one value for any other index (client-go index functions included). The
// values are encoded with fieldpath.JoinValues, as generated lookups encode
// theirs. An unknown index or a wrong number of values is an error.
//
// The objects are shared with the store: never mutate them.
func (r *ResourceInformer[T, N]) ByIndex(name string, values ...string) ([]T, error) {
	return r.ByIndexInNamespace(name, "", values...)
}

// ByIndexInNamespace is ByIndex for the objects of one namespace ("" for
// every namespace), at a cost proportional to their number.
func (r *ResourceInformer[T, N]) ByIndexInNamespace(name, namespace string, values ...string) ([]T, error) {
	value, err := r.IndexValue(name, values...)
	if err != nil {
		return nil, err
	}
	store := r.informer.TypedStore()
	objs, err := store.ByIndexInNamespace(name, namespace, value)
	if err != nil && name == clientcache.NamespaceIndex {
		// The factory's cache.NamespaceIndex, which client-go's factories
		// add, is answered from the store's namespaces, as the informer's
		// client-go indexer answers it.
		if namespace != "" && namespace != value {
			return nil, nil
		}
		return store.ListNamespace(value), nil
	}
	return objs, err
}

// IndexValue returns the single value of index name that values encode (see
// ByIndex), for the typed store's other lookups
// (TypedInformer().TypedStore()), such as the allocation-free
// IndexedObjects.
func (r *ResourceInformer[T, N]) IndexValue(name string, values ...string) (string, error) {
	r.mu.RLock()
	want, declared := r.arity[name]
	r.mu.RUnlock()
	if !declared {
		want = 1
	}
	if len(values) != want {
		return "", fmt.Errorf("index %q of %s takes %d value(s), one per path of its key; got %d", name, r.gvr.GroupResource(), want, len(values))
	}
	return fieldpath.JoinValues(values...), nil
}

package gvrfactory

import (
	"errors"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// CompileFunc returns the index function of a valid spec for a store of T,
// or an error when T cannot be indexed that way (a field index of an object
// that holds only metadata). It is called once per declared index; the
// function it returns runs on every write and must not fail or panic on any
// object. Label specs never reach it: they become the store's label indexes.
type CompileFunc[T cache.Object] func(spec fieldpath.IndexSpec) (cache.IndexFunc[T], error)

// Informer is one resource's shared informer, the indexes declared on it at
// run time, and lookups in them. Its methods are safe for concurrent use,
// also while the informer runs: an index added late indexes the objects the
// store holds at once.
type Informer[T cache.Object] struct {
	gvr      schema.GroupVersionResource
	informer *cache.SharedIndexInformer[T]
	compile  CompileFunc[T]

	mu    sync.RWMutex
	arity map[string]int // lookup values of the indexes AddIndexSpec added
}

// NewInformer returns the Informer of gvr over informer, compiling specs
// with compile.
func NewInformer[T cache.Object](gvr schema.GroupVersionResource, informer *cache.SharedIndexInformer[T], compile CompileFunc[T]) *Informer[T] {
	return &Informer[T]{gvr: gvr, informer: informer, compile: compile, arity: map[string]int{}}
}

// GVR returns the resource the informer lists and watches.
func (i *Informer[T]) GVR() schema.GroupVersionResource { return i.gvr }

// Typed returns the runtime's informer.
func (i *Informer[T]) Typed() *cache.SharedIndexInformer[T] { return i.informer }

// AddIndex declares the index name from a spec in ParseIndexSpec's form,
// such as `field: "spec.containers[*].image"`; see AddIndexSpec.
func (i *Informer[T]) AddIndex(name, spec string) error {
	s, err := fieldpath.ParseIndexSpec(spec)
	if err != nil {
		return fmt.Errorf("index %q of %s: %w", name, i.gvr.GroupResource(), err)
	}
	return i.AddIndexSpec(name, s)
}

// AddIndexSpec declares the index name of the informer's store from spec:
// the spec is checked and compiled once, and the store indexes every object
// it holds and every later one with the result. An invalid spec, a spec T
// cannot be indexed by, an owner without its group and a name already in use
// are errors, and then nothing is added. A label spec becomes a label index
// of the store, which also narrows label-selector lists.
func (i *Informer[T]) AddIndexSpec(name string, spec fieldpath.IndexSpec) error {
	if err := i.addIndexSpec(name, spec); err != nil {
		return fmt.Errorf("index %q of %s: %w", name, i.gvr.GroupResource(), err)
	}
	return nil
}

func (i *Informer[T]) addIndexSpec(name string, spec fieldpath.IndexSpec) error {
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
	i.mu.Lock()
	defer i.mu.Unlock()
	// The store answers cache.NamespaceIndex without holding it as an
	// index; GetIndexers lists it, as client-go's lists every index.
	if _, taken := i.informer.GetIndexer().GetIndexers()[name]; taken {
		return fmt.Errorf("index %q already exists", name)
	}
	store := i.informer.TypedStore()
	if spec.Source() == fieldpath.IndexByLabel {
		if err := store.AddLabelIndex(name, spec.Label); err != nil {
			return err
		}
	} else {
		fn, err := i.compile(spec)
		if err != nil {
			return err
		}
		if err := store.AddIndexers(cache.Indexers[T]{name: fn}); err != nil {
			return err
		}
	}
	i.arity[name] = spec.Arity()
	return nil
}

// ByIndex returns the objects, in every namespace, whose index name holds
// values: one value per path of a composite field key, in the order of the
// key, one value for any other index. The values are encoded with
// fieldpath.JoinValues, as generated lookups encode theirs. An unknown index
// or a wrong number of values is an error. Indexes not declared through
// AddIndexSpec (client-go index functions) take one value.
//
// The objects are shared with the store: never mutate them.
func (i *Informer[T]) ByIndex(name string, values ...string) ([]T, error) {
	return i.ByIndexInNamespace(name, "", values...)
}

// ByIndexInNamespace is ByIndex for the objects of one namespace ("" for
// every namespace), at a cost proportional to their number.
func (i *Informer[T]) ByIndexInNamespace(name, namespace string, values ...string) ([]T, error) {
	value, err := i.IndexValue(name, values...)
	if err != nil {
		return nil, err
	}
	return i.informer.TypedStore().ByIndexInNamespace(name, namespace, value)
}

// IndexValue returns the value of index name that values encode (see
// ByIndex), for the store's other lookups, such as the allocation-free
// IndexedObjects.
func (i *Informer[T]) IndexValue(name string, values ...string) (string, error) {
	i.mu.RLock()
	want, declared := i.arity[name]
	i.mu.RUnlock()
	if !declared {
		want = 1
	}
	if len(values) != want {
		return "", fmt.Errorf("index %q of %s takes %d value(s), one per path of its key; got %d", name, i.gvr.GroupResource(), want, len(values))
	}
	return fieldpath.JoinValues(values...), nil
}

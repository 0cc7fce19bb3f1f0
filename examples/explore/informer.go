package explore

import (
	"context"
	"fmt"
	"io"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	kubediscovery "k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
)

// exploration is one resource's informer to run and what to ask it.
type exploration struct {
	resolved
	plan      plan
	namespace string
	discovery kubediscovery.DiscoveryInterfaceWithContext
	dynamic   dynamic.Interface
}

// explore runs the informer of e's resource with e's indexes in a factory
// that starts it only if discovery says the server serves it (FailFast),
// waits for the sync, answers e's lookups and prints how many objects the
// cache holds. It stops the informer before it returns.
func explore(ctx context.Context, e exploration, out io.Writer) error {
	scope := "cluster-scoped"
	if e.res.Namespaced {
		scope = "namespaced, every namespace"
		if e.namespace != "" {
			scope = "namespaced, namespace " + e.namespace
		}
	}
	fmt.Fprintf(out, "resource %s (kind %s, %s)\n", e.name(), e.res.Kind, scope)

	factory := dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(e.dynamic, 0,
		dynamicinformer.WithNamespace(e.namespace),
		dynamicinformer.WithDiscovery(e.discovery, discovery.FailFast))
	informer := factory.Resource(e.gvr)
	for _, ix := range e.plan.indexes {
		if err := informer.AddIndexSpec(ix.Name, ix.Spec); err != nil {
			return err
		}
		fmt.Fprintf(out, "index %s\n", ix)
	}

	ctx, stop := context.WithCancel(ctx)
	defer func() {
		stop()
		factory.Shutdown()
	}()
	factory.StartWithContext(ctx)
	if err := factory.StartError(); err != nil {
		return fmt.Errorf("the informer of %s did not start: %w", e.name(), err)
	}
	status := factory.WaitForCacheSyncStatus(ctx)[e.gvr]
	fmt.Fprintf(out, "sync: %s\n", status)
	if status.State != discovery.Synced {
		return causeOf(ctx, fmt.Errorf("the informer of %s did not sync: %s", e.name(), status))
	}

	for _, l := range e.plan.lookups {
		values, err := l.Values(e.plan.arity(l.Index))
		if err != nil {
			return err
		}
		objs, err := lookup(informer, l.Index, values)
		if err != nil {
			return fmt.Errorf("--lookup %q: %w", l, err)
		}
		writeObjects(out, "lookup "+l.String(), objs)
	}
	fmt.Fprintf(out, "objects in the cache: %d\n", informer.TypedInformer().TypedStore().Len())
	return nil
}

// writeObjects writes a heading with the number of objs, then one line per
// object: namespace/name (name for a cluster-scoped one), sorted.
func writeObjects(out io.Writer, heading string, objs []*unstructured.Unstructured) {
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = o.GetName()
		if ns := o.GetNamespace(); ns != "" {
			names[i] = ns + "/" + o.GetName()
		}
	}
	slices.Sort(names)
	fmt.Fprintf(out, "%s: %s\n", heading, count(len(objs), "object"))
	for _, n := range names {
		fmt.Fprintf(out, "  %s\n", n)
	}
}

// lookup returns the objects index name of informer files under values.
// The namespace index, which the store answers from its grouping by
// namespace without holding it as an index, is asked through client-go's
// view of the store, as client-go's listers ask it; the declared indexes
// through ByIndex, which encodes the values of a composite key.
func lookup(informer *dynamicinformer.ResourceInformer, name string, values []string) ([]*unstructured.Unstructured, error) {
	if name != clientcache.NamespaceIndex {
		return informer.ByIndex(name, values...)
	}
	found, err := informer.Informer().GetIndexer().ByIndex(name, values[0])
	if err != nil {
		return nil, err
	}
	objs := make([]*unstructured.Unstructured, 0, len(found))
	for _, o := range found {
		if u, ok := o.(*unstructured.Unstructured); ok {
			objs = append(objs, u)
		}
	}
	return objs, nil
}

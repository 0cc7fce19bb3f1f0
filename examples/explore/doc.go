// Package explore is a small tool for learning how discovery and dynamic
// informers work, on this module's runtime: given a kubeconfig it prints
// what the API server's discovery serves (groups, versions, resources with
// their kind, scope and verbs), and for one resource it runs a dynamic
// informer (runtime/dynamicinformer) with indexes declared at run time in
// the +index marker's terms, waits until it has synced, and answers lookups
// in those indexes.
//
// Run does the work for Options, which ParseFlags reads from command-line
// arguments (examples/cmd/explore is that command):
//
//	explore --kubeconfig ~/.kube/config --group apps --resource deployments.v1.apps \
//		--index 'byImage: field: spec.template.spec.containers[*].image' \
//		--lookup byImage=nginx:1.29
//
// The pieces a reader can follow:
//
//   - discovery: client-go's discovery client in its memory cache
//     (k8s.io/client-go/discovery/cached/memory) lists the groups and
//     resources once; the table and the resource resolution read that list,
//     and the informer factory's discovery tracker (runtime/discovery) reads
//     the same cache;
//   - resolution: --resource is read as kubectl reads a resource argument
//     (schema.ParseResourceArg) and looked up in what discovery lists;
//   - indexes: each --index is "name: source: value", where "source: value"
//     is what fieldpath.ParseIndexSpec reads, as ResourceInformer.AddIndex
//     takes it;
//   - sync: the factory starts the informer only when discovery says the
//     server serves the resource, and its sync status says why it did not
//     sync, so that a missing resource is an error rather than a wait;
//   - lookups: each --lookup gives one value per path of the index's key,
//     encoded as generated lookups encode theirs (ResourceInformer.ByIndex).
package explore

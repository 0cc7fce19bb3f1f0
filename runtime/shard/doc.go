// Package shard splits the objects of a resource among the replicas of an
// operator, so that each replica lists, watches, caches and reconciles about
// 1/N of them.
//
// The 64-bit FNV-1a hash space of an object field (its uid, or its
// namespace, which keeps an owner and its dependents together) is cut into a
// fixed number of equal slots. Assign gives every slot to one member of a
// ring, as a pure function of the members, so every member computes the
// same assignment; a member joining or leaving moves about 1/N of the slots.
// Selector turns a member's slots into the server's shard selector
// (metav1.ListOptions.ShardSelector, Kubernetes' ShardedListAndWatch), whose
// Matches method is also how a client filters objects when the server does
// not select them itself.
//
// Ring makes the members of a ring out of replicas: each holds a Lease
// (coordination.k8s.io/v1), reads the others', and works only on the slots
// no other live member claims (State.Active), so a hand-over never has two
// replicas on one slot. Ring.Scope gives an informer factory
// (informers.WithShardScope) or an informer (SetShardScope) the member's
// share; Static gives a fixed one.
//
// Keys should hash evenly: the slots cut the FNV-1a hash space by its high
// bits, which barely differ between strings that differ only at their end.
// Object uids (random) spread evenly; namespaces named alike ("team-1",
// "team-2") fall into few slots, so sharding by namespace suits clusters
// whose namespace names differ early.
package shard

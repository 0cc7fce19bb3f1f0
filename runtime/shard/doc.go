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
package shard

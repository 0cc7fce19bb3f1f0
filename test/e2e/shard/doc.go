// Package shard tests Kubernetes' server-side sharded LIST and WATCH (the
// ShardedListAndWatch feature gate) against a real kube-apiserver and etcd
// that internal/testing/testcluster starts on 127.0.0.1 with the gate on:
// the selectors package runtime/shard builds for the members of a ring make
// the server return, and watch, exactly the objects in each member's slots,
// by uid and by namespace, in JSON and in protobuf, whole and paginated; the
// server echoes the selector in the list's shardInfo, which the runtime's
// own LIST decoder keeps; and a server without the gate ignores the
// selector and echoes nothing, which is how a client tells the two apart.
//
// TestShardedReplicas runs three, then four, replicas of the example Widget
// operator in this process over 3,000 Widgets, in both modes: each replica
// caches and reconciles its share, no Widget is reconciled by two replicas
// at once, a crashed replica's Widgets are reconciled by the others within
// its Lease duration plus 10 s, and a fourth replica moves about a quarter
// of the slots. BenchmarkShardedSync measures what one replica of 1 and of 3
// pays to sync 30,000 objects in each mode.
package shard

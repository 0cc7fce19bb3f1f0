// Package shard tests Kubernetes' server-side sharded LIST and WATCH (the
// ShardedListAndWatch feature gate) against a real kube-apiserver and etcd
// that internal/testing/testcluster starts on 127.0.0.1 with the gate on:
// the selectors package runtime/shard builds for the members of a ring make
// the server return, and watch, exactly the objects in each member's slots,
// by uid and by namespace, in JSON and in protobuf, whole and paginated; the
// server echoes the selector in the list's shardInfo, which the runtime's
// own LIST decoder keeps; and a server without the gate ignores the
// selector and echoes nothing, which is how a client tells the two apart.
package shard

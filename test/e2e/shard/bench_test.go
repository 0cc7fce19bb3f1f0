package shard_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testcluster"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

// BenchmarkShardedSync measures, per replica, what a replica of 1 and of 3
// pays to sync an informer of 30,000 ConfigMaps (SHARD_BENCH_OBJECTS) in 30
// namespaces on the local control plane: objects cached, heap held after
// the sync (after a GC), bytes of LIST and WATCH responses received, and
// the time to sync. server-side runs on the package's cluster
// (ShardedListAndWatch on: the server selects), client-side on a cluster
// without the feature (every replica receives everything and keeps its
// share). One replica is the unsharded informer. Run it alone:
//
//	go test -run '^$' -bench ShardedSync -benchtime 1x -timeout 30m ./test/e2e/shard/
func BenchmarkShardedSync(b *testing.B) {
	objects := 30000
	if s := os.Getenv("SHARD_BENCH_OBJECTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatalf("SHARD_BENCH_OBJECTS=%q: %v", s, err)
		}
		objects = n
	}
	for _, mode := range []string{"server-side", "client-side"} {
		b.Run(mode, func(b *testing.B) {
			c := cluster
			if mode == "client-side" {
				c = testcluster.StartForTest(b, testcluster.Options{})
			}
			fillConfigMaps(b, c, objects)
			for _, replicas := range []int{1, 3} {
				b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) {
					var m syncFigures
					for range b.N {
						m = syncOneReplica(b, c, replicas)
					}
					b.ReportMetric(float64(m.objects), "objects")
					b.ReportMetric(float64(m.heap)/(1<<20), "heap-MiB")
					b.ReportMetric(float64(m.received)/(1<<20), "received-MiB")
					b.ReportMetric(m.sync.Seconds(), "sync-s")
					b.ReportMetric(0, "ns/op")
				})
			}
		})
	}
}

// syncFigures are what one replica's informer cost to sync.
type syncFigures struct {
	objects  int
	heap     int64
	received int64
	sync     time.Duration
}

// syncOneReplica syncs the ConfigMap informer of the first of replicas
// replicas (the whole resource for one) over a fresh client, and measures
// it.
func syncOneReplica(b *testing.B, c *testcluster.Cluster, replicas int) syncFigures {
	b.Helper()
	var received atomic.Int64
	config := c.Config()
	config.QPS, config.Burst = 1000, 2000
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripper(func(req *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(req)
			if err == nil {
				resp.Body = &countingBody{ReadCloser: resp.Body, n: &received}
			}
			return resp, err
		})
	})
	cs := kubernetes.NewForConfigOrDie(config)
	api := cs.CoreV1().ConfigMaps("")
	inf, err := cache.NewSharedIndexInformer(cache.NewClientListWatch[*corev1.ConfigMap](api, "configmaps", nil, cs),
		cache.SharedIndexInformerOptions[*corev1.ConfigMap]{Name: "configmaps"})
	if err != nil {
		b.Fatal(err)
	}
	if replicas > 1 {
		a, err := shard.Assign(replicaNames(replicas), shard.DefaultSlots)
		if err != nil {
			b.Fatal(err)
		}
		scope, err := shard.Static(shard.ByUID, a.SlotsOf(replicaNames(replicas)[0]), shard.DefaultSlots)
		if err != nil {
			b.Fatal(err)
		}
		if err := inf.SetShardScope(scope); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithCancel(b.Context())
	var running sync.WaitGroup
	running.Go(func() { inf.RunWithContext(ctx) })
	defer func() {
		cancel()
		running.Wait()
	}()
	start := time.Now()
	deadline := time.Now().Add(5 * time.Minute)
	for !inf.HasSynced() {
		if time.Now().After(deadline) {
			b.Fatal("the informer did not sync in 5 minutes")
		}
		time.Sleep(5 * time.Millisecond)
	}
	took := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	f := syncFigures{objects: inf.TypedStore().Len(), heap: int64(after.HeapAlloc) - int64(before.HeapAlloc), received: received.Load(), sync: took}
	b.Logf("%d replicas: %d objects cached, %.1f MiB heap, %.1f MiB received, synced in %v",
		replicas, f.objects, float64(f.heap)/(1<<20), float64(f.received)/(1<<20), took.Round(time.Millisecond))
	runtime.KeepAlive(inf)
	return f
}

// replicaNames are the names of n replicas.
func replicaNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint("replica-", i)
	}
	return out
}

// countingBody counts the bytes read from a response body.
type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// fillConfigMaps creates n ConfigMaps of about 600 bytes each in 30 new
// namespaces of c, on 8 writers.
func fillConfigMaps(b *testing.B, c *testcluster.Cluster, n int) {
	b.Helper()
	config := c.Config()
	config.QPS, config.Burst = 5000, 10000
	config.ContentType = "application/vnd.kubernetes.protobuf"
	cs := kubernetes.NewForConfigOrDie(config)
	namespaces := make([]string, 30)
	for i := range namespaces {
		namespaces[i] = c.NewNamespace(b)
	}
	payload := strings.Repeat("x", 512)
	start := time.Now()
	ctx, cancel := context.WithCancelCause(b.Context())
	defer cancel(nil)
	var next atomic.Int64
	var writers sync.WaitGroup
	for range 8 {
		writers.Go(func() {
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				cm := &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{Namespace: namespaces[i%len(namespaces)], Name: fmt.Sprintf("bench-%05d", i), Labels: map[string]string{"app": "bench"}},
					Data:       map[string]string{"payload": payload},
				}
				if _, err := cs.CoreV1().ConfigMaps(cm.Namespace).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
					cancel(fmt.Errorf("creating ConfigMap %s/%s: %w", cm.Namespace, cm.Name, err))
				}
			}
		})
	}
	writers.Wait()
	if err := context.Cause(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("created %d ConfigMaps in %v", n, time.Since(start).Round(time.Millisecond))
}

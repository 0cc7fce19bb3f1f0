package scalebench

import (
	"testing"

	clientfeatures "k8s.io/client-go/features"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// TestSyncAgrees runs what the benchmarks run on a few hundred pods: on both
// paths, each informer syncs from the test server with exactly the path's
// requests and holds exactly the served pods, then receives every update
// streamed through its open watch.
func TestSyncAgrees(t *testing.T) {
	if !clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient) {
		t.Fatal("client-go's feature WatchListClient is off; the watch-list path needs it")
	}
	cfg := testpods.Config{Namespaces: 3, PodsPerNamespace: 100, Nodes: 30}
	const updates = 700 // more than two rounds over the 300 pods
	bd, err := buildBodies(cfg, updates, heapSink{})
	if err != nil {
		t.Fatal(err)
	}
	if bd.n != 300 {
		t.Fatalf("generated %d pods, want 300", bd.n)
	}
	for _, p := range paths {
		for _, sd := range sides {
			t.Run(p.name+"/"+sd.name, func(t *testing.T) {
				srv, cs := serve(t, bd)
				inf, c := runSynced(t, srv, cs, bd, p, sd)
				for _, body := range bd.updates {
					c.ExpectUpdates(bd.m)
					srv.updates <- body
					if err := waitUpdates(c); err != nil {
						t.Fatal(err)
					}
				}
				if got, want := c.Updates(), int64(len(bd.updates)*bd.m); got != want {
					t.Errorf("handler saw %d updates, want %d", got, want)
				}
				if got := c.Adds(); got != int64(bd.n) {
					t.Errorf("handler saw %d adds, want %d", got, bd.n)
				}
				if got := srv.requests(); got != p.want {
					t.Errorf("after the updates the server got %v, want %v", got, p.want)
				}
				if err := checkSynced(srv, p, inf, bd); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

package shard_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	kubeinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testcluster"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
	rcache "github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

// TestShardScopeChangeBetweenListPages changes an informer's shard scope
// while its first LIST is between two pages, as a Ring's scope changes
// whenever slots are handed over, at any moment of an informer's LIST (the
// first LIST of a new replica runs while its first slots become active, one
// RenewPeriod after it joins; a hand-over often moves slots in steps a
// RenewPeriod apart, and each step lists again). The informer must end up
// holding exactly the objects of the new selection (SetShardScope: "When
// the selection changes, the informer ... lists again with the new
// selector"), in both modes.
//
// The reflector's pager calls the sharded ListerWatcher once per page. When
// each page read the scope anew, the first page was selected by the old
// selector and the others by the new one, and the generation recorded was
// the new one, so the watch that followed did not end to list again: the
// objects of the first page's keys that only the new selection holds were
// never cached (TestShardedReplicas' client-side replicas missed half their
// share), and those only the old one holds stayed. The pages of a LIST now
// keep its first page's selection, and the watch after it expires.
func TestShardScopeChangeBetweenListPages(t *testing.T) {
	t.Run("server-side", func(t *testing.T) {
		testScopeChangeBetweenPages(t, cluster)
	})
	t.Run("client-side", func(t *testing.T) {
		testScopeChangeBetweenPages(t, testcluster.StartForTest(t, testcluster.Options{}))
	})
}

func testScopeChangeBetweenPages(t *testing.T, c *testcluster.Cluster) {
	ns := c.NewNamespace(t)
	// More than two pages of the reflector's pager (500 objects).
	created := createConfigMaps(t, newClient(t, c, runtime.ContentTypeJSON), []string{ns}, 1200, "paged")
	// From three quarters of the slots to another three quarters: more
	// than one page of objects either way, also when the server selects.
	first, owned := make([]int, 0, slots), make([]int, 0, slots)
	for i := range slots * 3 / 4 {
		first = append(first, i)
		owned = append(owned, i+slots/4)
	}
	before, err := shard.Static(shard.ByUID, first, slots)
	if err != nil {
		t.Fatal(err)
	}
	after, err := shard.Static(shard.ByUID, owned, slots)
	if err != nil {
		t.Fatal(err)
	}
	scope := &switchScope{sel: before.Selection(), changed: make(chan struct{})}
	next := after.Selection()
	next.Generation = scope.sel.Generation + 1

	// The scope changes as soon as the first page of the first LIST has
	// come back.
	var firstPages, continuePages atomic.Int32
	config := c.Config()
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripper(func(req *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(req)
			q := req.URL.Query()
			if req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/configmaps") && q.Get("watch") != "true" {
				if q.Get("continue") != "" {
					continuePages.Add(1)
				} else if firstPages.Add(1) == 1 {
					scope.set(next)
				}
			}
			return resp, err
		})
	})
	factory := kubeinformers.NewSharedInformerFactoryWithOptions(kubernetes.NewForConfigOrDie(config), 0,
		kubeinformers.WithNamespace(ns), informers.WithShardScope(scope))
	store := factory.Core().V1().ConfigMaps().Informer().GetStore()
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(func() {
		cancel()
		factory.Shutdown()
		t.Logf("LISTs from the start: %d, continued pages: %d", firstPages.Load(), continuePages.Load())
	})
	factory.StartWithContext(ctx)

	want := selected(t, created, shard.ByUID, owned)
	var last string
	testwait.For(t, 30*time.Second, "the informer to hold the objects of the new selection", func() string {
		got := map[string]types.UID{}
		for _, obj := range store.List() {
			cm := obj.(*corev1.ConfigMap)
			got[objectKey(cm)] = cm.UID
		}
		last = diff(got, want)
		if last != "" {
			time.Sleep(100 * time.Millisecond)
		}
		return last
	})
	if continuePages.Load() == 0 {
		t.Errorf("the first LIST was not paginated: the test did not change the scope between pages")
	}
}

// switchScope is a cache.ShardScope the test sets.
type switchScope struct {
	mu      sync.Mutex
	sel     rcache.ShardSelection
	changed chan struct{}
}

func (s *switchScope) Selection() rcache.ShardSelection {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sel
}

func (s *switchScope) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

func (s *switchScope) set(sel rcache.ShardSelection) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sel = sel
	close(s.changed)
	s.changed = make(chan struct{})
}

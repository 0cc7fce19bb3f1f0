package shard_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	kubeinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

const (
	// scopeChanges is how many times TestShardScopeChangesRelistPromptly
	// changes the scope.
	scopeChanges = 4
	// relistBound is how soon after a change of its scope an informer must
	// list again: client-go's reflector waits 0.8 to 1.6 s before it lists
	// again after a watch ended, the first time.
	relistBound = 2 * time.Second
)

// TestShardScopeChangesRelistPromptly changes an informer's shard scope
// four times, each once the informer holds the previous selection, as a
// ring member's scope changes at every hand-over (a replica that joins, a
// replica that leaves or crashes, each often in steps a RenewPeriod apart),
// and measures how long after each change the informer starts listing the
// new selection. Until it does, the replica's controller works on slots
// whose objects its informer does not hold: the objects the replica gained
// are reconciled by no one.
//
// The informer ends its watch with an expired error and client-go's
// reflector lists again, but only after its backoff between two
// ListAndWatch runs (Reflector.RunWithContext's delayHandler.Until, with
// Backoff.DelayWithReset): 800 ms doubled at every run, capped at 30 s,
// times a jitter of 1 to 2, and back to 800 ms only once 2 minutes have
// passed since the backoff last started over. So every hand-over within
// those 2 minutes waits twice as long as the previous one before the
// gained objects are listed (up to a minute): TestShardedReplicas' replicas
// relisted 1.4 s, 2.4 s, 4.0 s and 10.8 s after successive changes of
// their slots.
func TestShardScopeChangesRelistPromptly(t *testing.T) {
	ns := cluster.NewNamespace(t)
	created := createConfigMaps(t, newClient(t, cluster, runtime.ContentTypeJSON), []string{ns}, 100, "relist")
	halves := make([][]int, 2)
	for s := range slots {
		halves[s*2/slots] = append(halves[s*2/slots], s)
	}
	first, err := shard.Static(shard.ByUID, halves[0], slots)
	if err != nil {
		t.Fatal(err)
	}
	scope := &switchScope{sel: first.Selection(), changed: make(chan struct{})}

	var mu sync.Mutex
	var lists []time.Time // when each LIST sent its first page
	config := cluster.Config()
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripper(func(req *http.Request) (*http.Response, error) {
			q := req.URL.Query()
			if req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/configmaps") && q.Get("watch") != "true" && q.Get("continue") == "" {
				mu.Lock()
				lists = append(lists, time.Now())
				mu.Unlock()
			}
			return rt.RoundTrip(req)
		})
	})
	factory := kubeinformers.NewSharedInformerFactoryWithOptions(kubernetes.NewForConfigOrDie(config), 0,
		kubeinformers.WithNamespace(ns), informers.WithShardScope(scope))
	store := factory.Core().V1().ConfigMaps().Informer().GetStore()
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(func() {
		cancel()
		factory.Shutdown()
	})
	factory.StartWithContext(ctx)
	holds := func(owned []int) {
		t.Helper()
		want := selected(t, created, shard.ByUID, owned)
		testwait.For(t, time.Minute, "the informer to hold its selection", func() string {
			got := map[string]types.UID{}
			for _, obj := range store.List() {
				cm := obj.(*corev1.ConfigMap)
				got[objectKey(cm)] = cm.UID
			}
			d := diff(got, want)
			if d != "" {
				time.Sleep(10 * time.Millisecond)
			}
			return d
		})
	}
	holds(halves[0])

	var delays []time.Duration
	for i := 1; i <= scopeChanges; i++ {
		owned := halves[i%2]
		next, err := shard.Static(shard.ByUID, owned, slots)
		if err != nil {
			t.Fatal(err)
		}
		sel := next.Selection()
		sel.Generation = int64(1 + i)
		changed := time.Now()
		scope.set(sel)
		holds(owned)
		mu.Lock()
		for _, at := range lists {
			if at.After(changed) {
				delays = append(delays, at.Sub(changed).Round(10*time.Millisecond))
				break
			}
		}
		mu.Unlock()
		if len(delays) != i {
			t.Fatalf("change %d: the informer holds the new selection without a LIST since the change", i)
		}
	}
	t.Logf("the informer listed again %v after each change of its scope", delays)
	var late []string
	for i, d := range delays {
		if d > relistBound {
			late = append(late, fmt.Sprintf("change %d: %v", i+1, d))
		}
	}
	if len(late) > 0 {
		t.Errorf("the informer listed its new selection more than %v after a change of its scope: %s", relistBound, strings.Join(late, ", "))
	}
}

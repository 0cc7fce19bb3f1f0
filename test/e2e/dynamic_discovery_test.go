package e2e

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
)

// A dynamic factory in Wait mode against the server: the informer of a CRD
// that is not installed when the factory starts does not hold
// WaitForCacheSync up (it reports the informer false, not served) and is
// Waiting; once the CRD is installed, the factory starts the informer,
// which syncs the objects created since and indexes them.
func TestDynamicFactoryDiscoveryWaitStartsTheInformerOfACRDInstalledLater(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	crd := newProbeCRD(t, c, "whatsits", "Whatsit")
	configMaps := corev1.SchemeGroupVersion.WithResource("configmaps")
	factory := dynamicinformer.NewDynamicSharedInformerFactoryWithOptions(crd.dyn, 0,
		dynamicinformer.WithNamespace(ns),
		dynamicinformer.WithDiscoveryOptions(c.kube.Discovery(), discovery.Options{Mode: discovery.Wait, Backoff: discoveryBackoff}))
	factory.Resource(configMaps)
	whatsits := factory.Resource(crd.gvr)
	if err := whatsits.AddIndex("bySize", "field: spec.size"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(func() { cancel(); factory.Shutdown() })
	factory.StartWithContext(ctx)

	start := time.Now()
	synced, err := factory.WaitForCacheSyncWithContext(ctx)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("WaitForCacheSync took %v with a CRD missing", took)
	}
	if !synced[configMaps] || synced[crd.gvr] || !errors.Is(err, discovery.ErrNotServed) || !strings.Contains(err.Error(), crd.gvr.Group) {
		t.Fatalf("WaitForCacheSync = %v, %v; want ConfigMaps synced, whatsits not, not served", synced, err)
	}
	if st := factory.SyncStatus()[crd.gvr]; st.State != discovery.Waiting || st.Resource != crd.gvr {
		t.Fatalf("whatsits: %v, want Waiting", st)
	}
	if err := factory.StartError(); err != nil {
		t.Fatalf("StartError() = %v in Wait mode", err)
	}

	crd.install(t)
	crd.create(t, ns, "w1")
	eventually(t, "the informer of whatsits synced with w1", func() string {
		st, cached := factory.SyncStatus()[crd.gvr], probeNames(whatsits.Informer())
		if st.State != discovery.Synced || !slices.Equal(cached, []string{"w1"}) {
			return fmt.Sprintf("%v, cache %v", st, cached)
		}
		return ""
	})
	if _, err := factory.WaitForCacheSyncWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	if got, err := whatsits.ByIndex("bySize", "1"); err != nil || len(got) != 1 || got[0].GetName() != "w1" {
		t.Fatalf("ByIndex(bySize, 1) = %v, %v; want w1", got, err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the informer of a CRD installed after Start synced after %v", took)
	}
}

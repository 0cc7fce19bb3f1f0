package e2e

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	toolscache "k8s.io/client-go/tools/cache"

	kubeinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
)

// discoveryConfigMapType is the key of a factory's ConfigMap informer.
var discoveryConfigMapType = reflect.TypeFor[*corev1.ConfigMap]()

// discoveryRig is a generated factory with discovery, and its informer of
// a probe CRD's objects.
type discoveryRig struct {
	factory kubeinformers.SharedInformerFactory
	// ctx is the factory's: it ends, and the factory is shut down, when the
	// test ends.
	ctx      context.Context
	informer toolscache.SharedIndexInformer
	counter  *probeListCounter
}

// newDiscoveryRig returns the generated kube factory for ns with discovery
// (passed as any other SharedInformerOption) configured by opts, a ConfigMap
// informer (served) and a counted informer of crd's objects.
func newDiscoveryRig(t *testing.T, c clients, ns string, crd probeCRD, opts discovery.Options) discoveryRig {
	t.Helper()
	factory := kubeinformers.NewSharedInformerFactoryWithOptions(c.kube, 0,
		kubeinformers.WithNamespace(ns),
		informers.WithDiscoveryOptions(c.kube.Discovery(), opts))
	factory.Core().V1().ConfigMaps().Informer()
	inf, counter := crd.countedInformer(t, c, factory, ns)
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(func() { cancel(); factory.Shutdown() })
	return discoveryRig{factory: factory, ctx: ctx, informer: inf, counter: counter}
}

// status is the state of the rig's informer of custom objects.
func (r discoveryRig) status(t *testing.T) discovery.Status { return probeStatus(t, r.factory) }

// waitSyncedWith waits until the informer of custom objects is Synced and
// caches exactly names.
func (r discoveryRig) waitSyncedWith(t *testing.T, names ...string) {
	t.Helper()
	eventually(t, fmt.Sprintf("the informer synced with %v", names), func() string {
		st, cached := r.status(t), probeNames(r.informer)
		if st.State != discovery.Synced || !slices.Equal(cached, names) {
			return fmt.Sprintf("%v, cache %v", st, cached)
		}
		return ""
	})
}

// discoveryBackoff polls discovery for a waiting resource every 100 ms doubling
// to a second.
var discoveryBackoff = wait.Backoff{Duration: 100 * time.Millisecond, Factor: 2, Jitter: 0.1, Steps: 10, Cap: time.Second}

// Wait mode against the server: a CRD that is not installed when the factory
// starts does not hold WaitForCacheSync up (it reports the informer false,
// not served) and gets no request; once the CRD is installed, the factory
// starts its informer, which syncs the objects created since.
func TestDiscoveryWaitStartsTheInformerOfACRDInstalledLater(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	crd := newProbeCRD(t, c, "gizmos", "Gizmo")
	rig := newDiscoveryRig(t, c, ns, crd, discovery.Options{Mode: discovery.Wait, Backoff: discoveryBackoff})
	rig.factory.StartWithContext(rig.ctx)

	start := time.Now()
	result := rig.factory.WaitForCacheSyncWithContext(rig.ctx)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("WaitForCacheSync took %v with a CRD missing", took)
	}
	if !result.Synced[discoveryConfigMapType] || result.Synced[discoveryProbeType] || !errors.Is(result.Err, discovery.ErrNotServed) || !strings.Contains(result.Err.Error(), crd.gvr.Group) {
		t.Fatalf("WaitForCacheSync = %+v; want ConfigMaps synced, gizmos not, not served", result)
	}
	if st := rig.status(t); st.State != discovery.Waiting || st.Resource != crd.gvr {
		t.Fatalf("gizmos: %v, want Waiting", st)
	}
	if n := rig.counter.requests.Load(); n != 0 {
		t.Fatalf("%d requests for gizmos, which the server does not serve", n)
	}

	crd.install(t)
	crd.create(t, ns, "g1")
	rig.waitSyncedWith(t, "g1")
	if err := rig.factory.WaitForCacheSyncWithContext(rig.ctx).AsError(); err != nil {
		t.Fatal(err)
	}
}

// Skip and FailFast against the server: an informer of a CRD that is not
// installed is not started (no request reaches the server for it, even once
// the CRD is installed) and is reported Skipped, or Missing with an error
// from StartError naming it; WaitForCacheSync does not wait for it. A
// later Start, once the CRD is installed, starts and syncs it.
func TestDiscoverySkipAndFailFastReportACRDNotInstalled(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	crd := newProbeCRD(t, c, "sprockets", "Sprocket")

	failFast := newDiscoveryRig(t, c, ns, crd, discovery.Options{Mode: discovery.FailFast})
	failFast.factory.StartWithContext(failFast.ctx)
	err := failFast.factory.StartError()
	if !errors.Is(err, discovery.ErrNotServed) || !strings.Contains(err.Error(), "sprockets.v1."+crd.gvr.Group) {
		t.Fatalf("FailFast: StartError() = %v, want it to name sprockets", err)
	}
	if st := failFast.status(t); st.State != discovery.Missing {
		t.Fatalf("FailFast: %v, want Missing", st)
	}

	rig := newDiscoveryRig(t, c, ns, crd, discovery.Options{Mode: discovery.Skip})
	rig.factory.StartWithContext(rig.ctx)
	if err := rig.factory.StartError(); err != nil {
		t.Fatalf("Skip: StartError() = %v", err)
	}
	for name, r := range map[string]discoveryRig{"FailFast": failFast, "Skip": rig} {
		synced := r.factory.WaitForCacheSync(r.ctx.Done())
		if want := (map[reflect.Type]bool{discoveryConfigMapType: true, discoveryProbeType: false}); !reflect.DeepEqual(synced, want) {
			t.Fatalf("%s: WaitForCacheSync = %v, want %v", name, synced, want)
		}
	}
	if st := rig.status(t); st.State != discovery.Skipped || !errors.Is(st.Err, discovery.ErrNotServed) {
		t.Fatalf("Skip: %v, want Skipped", st)
	}

	crd.install(t)
	crd.create(t, ns, "s1")
	if st := rig.status(t); st.State != discovery.Skipped || rig.counter.requests.Load() != 0 {
		t.Fatalf("Skip, CRD installed, no Start since: %v, %d requests; want Skipped, none", st, rig.counter.requests.Load())
	}
	for _, r := range []discoveryRig{failFast, rig} {
		r.factory.StartWithContext(r.ctx)
		r.waitSyncedWith(t, "s1")
	}
	if err := failFast.factory.StartError(); err != nil {
		t.Fatalf("FailFast: StartError() after a Start that started everything = %v", err)
	}
}

// A CRD deleted while its informer watches, then installed again: the
// factory reports the resource Removed (and logs it), WaitForCacheSync does
// not wait for it, the informer keeps running and its lists back off
// (client-go's reflector: 0.8 s doubling to 30 s, up to twice that with
// jitter) instead of spinning on the 404s, and once the CRD is back the
// informer syncs the new CRD's objects.
func TestDiscoveryCRDDeletedWhileWatchedIsReportedBacksOffAndResumes(t *testing.T) {
	c := newClients(t)
	ns := cluster.NewNamespace(t)
	crd := newProbeCRD(t, c, "doohickeys", "Doohickey")
	crd.install(t)
	crd.create(t, ns, "d1")
	rig := newDiscoveryRig(t, c, ns, crd, discovery.Options{RecheckInterval: 200 * time.Millisecond})
	rig.factory.StartWithContext(rig.ctx)
	if err := rig.factory.WaitForCacheSyncWithContext(rig.ctx).AsError(); err != nil {
		t.Fatal(err)
	}
	rig.waitSyncedWith(t, "d1")

	crd.delete(t)
	eventually(t, "doohickeys Removed", func() string {
		if st := rig.status(t); st.State != discovery.Removed {
			return st.String()
		}
		return ""
	})
	result := rig.factory.WaitForCacheSyncWithContext(rig.ctx)
	if result.Synced[discoveryProbeType] || !result.Synced[discoveryConfigMapType] || !errors.Is(result.Err, discovery.ErrNotServed) {
		t.Fatalf("WaitForCacheSync = %+v, want doohickeys false, not served", result)
	}

	// The informer keeps trying without spinning.
	const window = 5 * time.Second
	requests, lists := rig.counter.requests.Load(), rig.counter.lists.Load()
	time.Sleep(window)
	requests, lists = rig.counter.requests.Load()-requests, rig.counter.lists.Load()-lists
	t.Logf("while the CRD was missing: %d requests for its objects (%d of them full lists) in %v: %.2f/s", requests, lists, window, float64(requests)/window.Seconds())
	// At most four attempts fit in 5 s of that backoff, each at most a
	// watch-list, a LIST and a re-watch; an informer that spins makes
	// hundreds.
	if requests > 12 {
		t.Errorf("%d requests in %v for a resource the server does not serve: the informer spins", requests, window)
	}
	if rig.informer.IsStopped() {
		t.Fatal("the informer of the deleted CRD stopped")
	}

	crd.install(t)
	crd.create(t, ns, "d2")
	rig.waitSyncedWith(t, "d2") // d1 went with the first CRD
}

//go:build unix

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	clientcache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	shopinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions/shop/v1"
)

// Settings of TestScaleWidgetInformerSyncTime, read from the environment.
const (
	// scaleWidgetsEnv sets how many widgets the test creates (default
	// scaleDefaultWidgets).
	scaleWidgetsEnv     = "SCALE_WIDGETS"
	scaleDefaultWidgets = 2_000
)

// The generated informer of the custom resource Widget, which the API
// server serves in JSON only, and client-go's informer of Widgets over the
// same clientset (with the namespace index client-go's factories add) each
// sync the same widgets from kube-apiserver through one watch-list stream,
// in turn, several times, alternating which goes first: the wall time from
// Run until synced, and the CPU time the test process (the client) spent
// meanwhile. Each widget carries a few kilobytes of spec, as custom
// resources often do. The medians are logged, next to the time the same
// stream takes to read without decoding it (the server's share); the test
// asserts what the caches hold, never the figures.
//
// SCALE_WIDGETS (default 2000) sets the number of widgets, SCALE_ROUNDS
// (default 3; 1 under the race detector) the syncs of each side.
// docs/benchmarks.md reports a run without -race.
func TestScaleWidgetInformerSyncTime(t *testing.T) {
	n := scaleEnvInt(t, scaleWidgetsEnv, scaleDefaultWidgets)
	rounds := scaleEnvInt(t, scaleRoundsEnv, scaleDefaultRounds)
	if scaleRace() {
		rounds = 1
	}
	c := newClients(t)
	ctx := t.Context()
	ns := cluster.NewNamespace(t)

	writer := rest.CopyConfig(c.config)
	writer.QPS = -1
	created := time.Now()
	scaleCreateWidgets(ctx, t, versioned.NewForConfigOrDie(writer), ns, n)
	createTime := time.Since(created)
	listed, err := c.shop.ShopV1().Widgets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(listed.Items) != n {
		t.Fatalf("LIST returned %d widgets, want %d", len(listed.Items), n)
	}
	want := map[string]string{} // resourceVersion by name
	for _, w := range listed.Items {
		want[w.Name] = w.ResourceVersion
	}

	var requests scaleRequests
	reader := rest.CopyConfig(c.config)
	reader.Wrap(requests.wrap)
	client := versioned.NewForConfigOrDie(reader)
	sides := []struct {
		name  string
		build func() (run func(context.Context), synced func() bool, store clientcache.Store)
	}{
		{"ours", func() (func(context.Context), func() bool, clientcache.Store) {
			inf := shopinformers.NewTypedWidgetInformer(client, ns, 0, nil)
			return inf.RunWithContext, inf.HasSynced, inf.GetStore()
		}},
		{"client-go", func() (func(context.Context), func() bool, clientcache.Store) {
			inf := clientcache.NewSharedIndexInformer(clientcache.ToListWatcherWithWatchListSemantics(&clientcache.ListWatch{
				ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
					return client.ShopV1().Widgets(ns).List(ctx, opts)
				},
				WatchFuncWithContext: client.ShopV1().Widgets(ns).Watch,
			}, client), &shopv1.Widget{}, 0, clientcache.Indexers{clientcache.NamespaceIndex: clientcache.MetaNamespaceIndexFunc})
			return inf.RunWithContext, inf.HasSynced, inf.GetStore()
		}},
	}
	samples := map[string][]scaleSample{}
	var streams []scaleSample
	for r := range rounds {
		stream := scaleWidgetStream(ctx, t, client, ns)
		t.Logf("round %d  %-9s  read  %6.3f s  (the watch-list stream alone, not decoded)", r+1, "stream", stream.Seconds())
		streams = append(streams, scaleSample{sync: stream})
		for i := range sides {
			side := sides[(i+r)%len(sides)]
			run, synced, store := side.build()
			ctx, cancel := context.WithCancel(ctx)
			stopped := make(chan struct{})
			sent := requests.snapshot()
			cpu := scaleCPU()
			start := time.Now()
			go func() {
				defer close(stopped)
				run(ctx)
			}()
			for !synced() {
				if time.Since(start) > scaleSyncTimeout {
					t.Fatalf("%s: not synced after %v", side.name, scaleSyncTimeout)
				}
				time.Sleep(time.Millisecond)
			}
			sync, spent := time.Since(start), scaleCPU()-cpu
			sent = requests.snapshot().minus(sent)
			cancel()
			<-stopped
			t.Logf("round %d  %-9s  sync %6.3f s  client CPU %6.3f s  (%s)", r+1, side.name, sync.Seconds(), spent.Seconds(), sent)
			if sent.watchLists == 0 || sent.lists != 0 {
				t.Errorf("%s: synced by %s, want one watch-list stream", side.name, sent)
			}
			checkWidgets(t, side.name, store, want)
			samples[side.name] = append(samples[side.name], scaleSample{sync: sync, cpu: spent})
		}
	}
	ours, theirs := scaleMedian(samples["ours"]), scaleMedian(samples["client-go"])
	t.Logf("%d widgets, %.0f B each in JSON, created in %.1f s; medians of %d rounds:", n, float64(scaleWidgetJSONBytes(t, listed))/float64(n), createTime.Seconds(), rounds)
	t.Logf("sync, Run to synced (wall)  ours %7.3f s  client-go %7.3f s  ratio %5.2f", ours.sync.Seconds(), theirs.sync.Seconds(), ours.sync.Seconds()/theirs.sync.Seconds())
	t.Logf("client CPU during the sync   ours %7.3f s  client-go %7.3f s  ratio %5.2f", ours.cpu.Seconds(), theirs.cpu.Seconds(), ours.cpu.Seconds()/theirs.cpu.Seconds())
	t.Logf("the watch-list stream alone, read and not decoded: %.3f s", scaleMedian(streams).sync.Seconds())
}

// scaleWidgetStream reads the watch-list stream of the widgets of ns, as the
// informers request it, without decoding it, until the bookmark that ends
// its initial events, and returns how long that took: the time the server
// takes to send what the informers decode.
func scaleWidgetStream(ctx context.Context, t *testing.T, client versioned.Interface, ns string) time.Duration {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	opts := metav1.ListOptions{Watch: true, AllowWatchBookmarks: true, SendInitialEvents: ptr.To(true), ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan}
	body, err := client.ShopV1().RESTClient().Get().Namespace(ns).Resource("widgets").
		VersionedParams(&opts, metav1.ParameterCodec).Stream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	end := []byte(`"` + metav1.InitialEventsAnnotationKey + `":"true"`)
	buf := make([]byte, 64<<10)
	var tail []byte // the end of what was read, where the marker may start
	for {
		n, err := body.Read(buf)
		data := append(tail, buf[:n]...)
		if bytes.Contains(data, end) {
			return time.Since(start)
		}
		tail = append([]byte(nil), data[max(0, len(data)-len(end)):]...)
		if err != nil {
			t.Fatalf("the watch-list stream ended before its initial events did: %v", err)
		}
	}
}

// scaleCreateWidgets creates n widgets in ns with scaleWriters concurrent
// writers; each has a few containers and a few kilobytes of spec.
func scaleCreateWidgets(ctx context.Context, t *testing.T, client versioned.Interface, ns string, n int) {
	t.Helper()
	scaleCreate(ctx, t, n, func(ctx context.Context, i int) error {
		images := []string{fmt.Sprintf("registry.example.com/team-%d/app:%d", i%17, i%5), "registry.example.com/sidecar/log-shipper:1.4"}
		w := newWidget(fmt.Sprintf("widget-%05d", i), []string{"red", "green", "blue"}[i%3], int32(i%9), images...)
		w.Labels = map[string]string{"app": fmt.Sprint("app-", i%50), "team": fmt.Sprint("team-", i%17)}
		w.Annotations = map[string]string{
			"example.com/config": strings.Repeat(fmt.Sprintf(`{"key-%d":"value of setting %d","enabled":true},`, i%13, i), 30),
		}
		if _, err := client.ShopV1().Widgets(ns).Create(ctx, w, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating widget %d: %w", i, err)
		}
		return nil
	})
}

// checkWidgets fails t unless store holds exactly the widgets of want, at
// their resource versions.
func checkWidgets(t *testing.T, side string, store clientcache.Store, want map[string]string) {
	t.Helper()
	cached := store.List()
	if len(cached) != len(want) {
		t.Errorf("%s: cache holds %d widgets, the LIST %d", side, len(cached), len(want))
	}
	for _, obj := range cached {
		w := obj.(*shopv1.Widget)
		if rv, ok := want[w.Name]; !ok || rv != w.ResourceVersion {
			t.Errorf("%s: widget %s at resourceVersion %s, the LIST has %q", side, w.Name, w.ResourceVersion, rv)
		}
	}
}

// scaleWidgetJSONBytes returns the size of the listed widgets in JSON.
func scaleWidgetJSONBytes(t *testing.T, list *shopv1.WidgetList) int {
	t.Helper()
	total := 0
	for i := range list.Items {
		b, err := json.Marshal(&list.Items[i])
		if err != nil {
			t.Fatal(err)
		}
		total += len(b)
	}
	return total
}

//go:build unix

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	clientcache "k8s.io/client-go/tools/cache"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	shopinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions/shop/v1"
)

// shopListOnly is a clientset of the custom resources that says it does
// not support watch-list streaming, so that reflectors over it sync by
// LIST.
type shopListOnly struct{ versioned.Interface }

func (shopListOnly) IsWatchListSemanticsUnSupported() bool { return true }

// The generated informer of a custom resource, which the API server serves
// in JSON only, syncs by LIST and by a watch-list stream and follows the
// watch; the runtime decodes the watch streams itself. Its cache must hold
// exactly what client-go's informer over the same clientset holds, field
// for field, after the sync and after updates.
func TestGeneratedWidgetInformerDecodesJSONAsClientGo(t *testing.T) {
	c := newClients(t)
	ctx := t.Context()
	ns := cluster.NewNamespace(t)
	const n = 150 // several events per decoding goroutine
	api := c.shop.ShopV1().Widgets(ns)
	for i := range n {
		w := newWidget(fmt.Sprint("w-", i), []string{"red", "blue"}[i%2], int32(i), "nginx", fmt.Sprint("img-", i))
		w.Annotations = map[string]string{"note": `quotes " and brackets } ] inside`}
		if _, err := api.Create(ctx, w, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	config := rest.CopyConfig(c.config)
	var mu sync.Mutex
	watchAccepts := map[string]int{} // Accept headers of the watches, answered in JSON
	watchLists := 0                  // watch-list requests
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return scaleRoundTripper(func(req *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(req)
			mu.Lock()
			defer mu.Unlock()
			if err == nil && req.URL.Query().Get("watch") == "true" && strings.HasPrefix(resp.Header.Get("Content-Type"), runtime.ContentTypeJSON) {
				watchAccepts[req.Header.Get("Accept")]++
			}
			if req.URL.Query().Get("sendInitialEvents") == "true" {
				watchLists++
			}
			return resp, err
		})
	})
	client := versioned.NewForConfigOrDie(config)

	for _, path := range []struct {
		name   string
		client versioned.Interface
	}{{"LIST", shopListOnly{client}}, {"watch-list", client}} {
		mu.Lock()
		before := watchLists
		mu.Unlock()
		ctx, cancel := context.WithCancel(ctx)
		ours := shopinformers.NewTypedWidgetInformer(path.client, ns, 0, nil)
		theirs := clientcache.NewSharedIndexInformer(clientcache.ToListWatcherWithWatchListSemantics(&clientcache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				return path.client.ShopV1().Widgets(ns).List(ctx, opts)
			},
			WatchFuncWithContext: path.client.ShopV1().Widgets(ns).Watch,
		}, path.client), &shopv1.Widget{}, 0, clientcache.Indexers{})
		go ours.RunWithContext(ctx)
		go theirs.RunWithContext(ctx)
		if !clientcache.WaitForCacheSync(ctx.Done(), ours.HasSynced, theirs.HasSynced) {
			t.Fatalf("%s: informers did not sync", path.name)
		}
		mu.Lock()
		streams := watchLists - before
		mu.Unlock()
		if streamed := path.name == "watch-list"; streamed && streams < 2 || !streamed && streams != 0 {
			t.Fatalf("%s: %d watch-list requests, want one per informer on that path only", path.name, streams)
		}
		sameWidgets(t, path.name+", synced", ours.GetStore(), theirs.GetStore(), n, "")

		// Updates come through the watch.
		for i := range 20 {
			w, err := api.Get(ctx, fmt.Sprint("w-", i), metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			w.Labels = map[string]string{"updated": path.name}
			if _, err := api.Update(ctx, w, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		sameWidgets(t, path.name+", updated", ours.GetStore(), theirs.GetStore(), n, path.name)
		cancel()
	}
	mu.Lock()
	defer mu.Unlock()
	if watchAccepts[runtime.ContentTypeJSON] == 0 || len(watchAccepts) < 2 {
		t.Fatalf("watches answered in JSON, by Accept header: %v; want some of the runtime's own (%q) and some of client-go's", watchAccepts, runtime.ContentTypeJSON)
	}
}

// sameWidgets waits until both stores hold the same n widgets, field for
// field, 20 of them labelled updated=label when label is not empty.
func sameWidgets(t *testing.T, what string, ours, theirs clientcache.Store, n int, label string) {
	t.Helper()
	eventually(t, what+": the caches hold the same widgets", func() string {
		if len(ours.ListKeys()) != n || len(theirs.ListKeys()) != n {
			return fmt.Sprintf("%d widgets cached, client-go %d, want %d", len(ours.ListKeys()), len(theirs.ListKeys()), n)
		}
		updated := 0
		for _, key := range theirs.ListKeys() {
			want, _, _ := theirs.GetByKey(key)
			got, ok, err := ours.GetByKey(key)
			if err != nil || !ok {
				return fmt.Sprintf("%s: not cached (%v)", key, err)
			}
			if !reflect.DeepEqual(got, want) {
				return key + " differs from client-go's"
			}
			if label != "" && got.(*shopv1.Widget).Labels["updated"] == label {
				updated++
			}
		}
		if label != "" && updated != 20 {
			return fmt.Sprintf("%d widgets updated, want 20", updated)
		}
		return ""
	})
}

package dynamicinformer_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/rest"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
)

// With the WatchListClient feature, the informers of a real dynamic client
// sync from a watch-list stream (no LIST request), as client-go's do.
func TestWatchListStreamSyncs(t *testing.T) {
	clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, true)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if _, ok := req.URL.Query()["watch"]; !ok {
			t.Errorf("expected only watch requests, got %s", req.URL)
			http.Error(w, "unexpected request", http.StatusInternalServerError)
			return
		}
		bookmark, err := json.Marshal(map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"resourceVersion": "10", "annotations": map[string]any{metav1.InitialEventsAnnotationKey: "true"}},
		})
		if err != nil {
			t.Error(err)
			return
		}
		event, err := json.Marshal(&metav1.WatchEvent{Type: string(watch.Bookmark), Object: runtime.RawExtension{Raw: bookmark}})
		if err != nil {
			t.Error(err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(event)
	}))
	defer server.Close()
	client, err := dynamic.NewForConfig(&rest.Config{Host: server.URL})
	if err != nil {
		t.Fatal(err)
	}
	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, 0, "ns", nil)
	inf := f.ForResource(deploymentsGVR).Informer()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer func() { cancel(); f.Shutdown() }()
	f.Start(ctx.Done())
	if !clientcache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		t.Fatal("the informer did not sync from the watch-list stream")
	}
}

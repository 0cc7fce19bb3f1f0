//go:build unix

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	clientcache "k8s.io/client-go/tools/cache"

	kubepods "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions/core/v1"
	kubelisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
)

// listOnly is a clientset that says it does not support watch-list
// streaming, so that reflectors over it sync by LIST.
type listOnly struct{ kubernetes.Interface }

func (listOnly) IsWatchListSemanticsUnSupported() bool { return true }

// The generated pod informer syncs from the API server, by LIST and by a
// watch-list stream, and then follows the watch; the server answers in
// protobuf and the informer decodes lists and streams itself (on several
// goroutines). The cached pods must be exactly what the typed client's List
// returns, field for field, after the sync and after updates.
func TestGeneratedInformerDecodesAsTheTypedClient(t *testing.T) {
	c := newClients(t)
	ctx := t.Context()
	ns := cluster.NewNamespace(t)
	const n = 150 // several batches of the parallel decode
	scaleCreatePods(ctx, t, c.kube, scalePods(n, []string{ns}, ns))

	config := rest.CopyConfig(c.config)
	var protobufAnswers, watchLists atomic.Int64
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return scaleRoundTripper(func(req *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(req)
			if err == nil && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/vnd.kubernetes.protobuf") {
				protobufAnswers.Add(1)
			}
			if req.URL.Query().Get("sendInitialEvents") == "true" {
				watchLists.Add(1)
			}
			return resp, err
		})
	})
	client := kubernetes.NewForConfigOrDie(config)

	for _, path := range []struct {
		name   string
		client kubernetes.Interface
	}{{"LIST", listOnly{client}}, {"watch-list", client}} {
		before := watchLists.Load()
		inf := kubepods.NewTypedPodInformer(path.client, ns, 0, nil)
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go inf.RunWithContext(ctx)
		if !clientcache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
			t.Fatalf("%s: informer did not sync", path.name)
		}
		if streamed := watchLists.Load() > before; streamed != (path.name == "watch-list") {
			t.Fatalf("%s: synced by watch-list: %v", path.name, streamed)
		}
		lister := kubelisters.NewPodLister(inf.GetIndexer())
		checkCached(t, path.name+", synced", c.kube, lister, ns, n)

		// Updates come through the watch.
		pods, err := c.kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			p := pods.Items[i].DeepCopy()
			p.Labels["updated"] = path.name
			if _, err := c.kube.CoreV1().Pods(ns).Update(ctx, p, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		checkCached(t, path.name+", updated", c.kube, lister, ns, n)
		cancel()
	}
	if protobufAnswers.Load() == 0 {
		t.Fatal("no answer of the server was in protobuf")
	}
}

// checkCached waits until the pods lister caches in ns are exactly those
// the typed client lists (n of them), field for field.
func checkCached(t *testing.T, what string, client kubernetes.Interface, lister kubelisters.PodLister, ns string, n int) {
	t.Helper()
	eventually(t, what+": cached pods equal to the listed ones", func() string {
		list, err := client.CoreV1().Pods(ns).List(t.Context(), metav1.ListOptions{})
		if err != nil {
			return err.Error()
		}
		if len(list.Items) != n {
			return fmt.Sprintf("LIST returned %d pods, want %d", len(list.Items), n)
		}
		cached, err := lister.Pods(ns).List(labels.Everything())
		if err != nil {
			return err.Error()
		}
		if len(cached) != n {
			return fmt.Sprintf("%d pods cached, want %d", len(cached), n)
		}
		for i := range list.Items {
			want := &list.Items[i]
			got, err := lister.Pods(ns).Get(want.Name)
			if err != nil {
				return err.Error()
			}
			if !reflect.DeepEqual(got, want) {
				return "pod " + want.Name + " differs from the typed client's"
			}
		}
		return ""
	})
}

//go:build unix

package e2e

import (
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

// The generated pod informer syncs by LIST from the API server, which
// answers in protobuf; the informer decodes the items itself (on several
// goroutines). The cached pods must be exactly what the typed client's List
// returns, field for field.
func TestGeneratedInformerListDecodesAsTheTypedClient(t *testing.T) {
	c := newClients(t)
	ctx := t.Context()
	ns := cluster.NewNamespace(t)
	const n = 150 // several chunks of the parallel decode
	scaleCreatePods(ctx, t, c.kube, scalePods(n, []string{ns}, ns))

	config := rest.CopyConfig(c.config)
	var protobufLists atomic.Int64
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return scaleRoundTripper(func(req *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(req)
			if err == nil && req.URL.Query().Get("watch") != "true" &&
				strings.HasPrefix(resp.Header.Get("Content-Type"), "application/vnd.kubernetes.protobuf") {
				protobufLists.Add(1)
			}
			return resp, err
		})
	})
	client := kubernetes.NewForConfigOrDie(config)

	inf := kubepods.NewTypedPodInformer(listOnly{client}, ns, 0, nil)
	go inf.RunWithContext(ctx)
	if !clientcache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		t.Fatal("informer did not sync")
	}
	if protobufLists.Load() == 0 {
		t.Fatal("the informer's LIST was not answered in protobuf")
	}
	list, err := c.kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{ResourceVersion: inf.LastSyncResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != n {
		t.Fatalf("LIST returned %d pods, want %d", len(list.Items), n)
	}
	lister := kubelisters.NewPodLister(inf.GetIndexer())
	eventually(t, "cached pods equal to the listed ones", func() string {
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

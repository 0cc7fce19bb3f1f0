package shard_test

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"os"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testcluster"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

// cluster is the control plane of the package's tests, with sharded list
// and watch enabled.
var cluster *testcluster.Cluster

// shardingGate is the feature gate of server-side sharded list and watch.
const shardingGate = "ShardedListAndWatch"

// TestMain runs the package's tests against one cluster, started with
// sharded list and watch enabled.
func TestMain(m *testing.M) {
	os.Exit(testcluster.Main(m, &cluster, testcluster.Options{
		FeatureGates: map[string]bool{shardingGate: true},
	}))
}

// slots is the number of slots the tests split the hash space into.
const slots = shard.DefaultSlots

// members are the members of the tests' ring.
var members = []string{"member-a", "member-b", "member-c"}

// keys are the fields the tests shard by.
var keys = []shard.Key{shard.ByUID, shard.ByNamespace}

// encoding is a content type the clients of the tests talk.
type encoding struct {
	name        string
	contentType string
}

// encodings are the content types the tests list and watch in.
var encodings = []encoding{
	{"JSON", runtime.ContentTypeJSON},
	{"protobuf", runtime.ContentTypeProtobuf},
}

// assignment is the tests' split of the slots among the members; every
// member owns some.
func assignment(t testing.TB) shard.Assignment {
	t.Helper()
	a, err := shard.Assign(members, slots)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		if len(a.SlotsOf(m)) == 0 {
			t.Fatalf("member %s owns no slot", m)
		}
	}
	return a
}

// selectorOf is the shard selector, as ListOptions.ShardSelector takes it,
// of the given slots on key.
func selectorOf(t testing.TB, key shard.Key, owned []int) string {
	t.Helper()
	sel, err := shard.Selector(key, owned, slots)
	if err != nil {
		t.Fatal(err)
	}
	s := sel.String()
	if s == "" {
		t.Fatalf("the selector of slots %v on %s selects everything", owned, key)
	}
	return s
}

// slotOf returns the slot obj falls in when sharded by key.
func slotOf(t testing.TB, obj runtime.Object, key shard.Key) int {
	t.Helper()
	v, err := shard.ValueOf(obj, key)
	if err != nil {
		t.Fatal(err)
	}
	return shard.SlotOf(shard.Hash(v), slots)
}

// objectKey is namespace/name.
func objectKey(cm *corev1.ConfigMap) string { return cm.Namespace + "/" + cm.Name }

// byKey returns the uids of objs by namespace/name.
func byKey(objs []*corev1.ConfigMap) map[string]types.UID {
	out := make(map[string]types.UID, len(objs))
	for _, cm := range objs {
		out[objectKey(cm)] = cm.UID
	}
	return out
}

// selected returns the objects of created in the owned slots on key, by
// namespace/name.
func selected(t testing.TB, created []*corev1.ConfigMap, key shard.Key, owned []int) map[string]types.UID {
	t.Helper()
	out := map[string]types.UID{}
	for _, cm := range created {
		if slices.Contains(owned, slotOf(t, cm, key)) {
			out[objectKey(cm)] = cm.UID
		}
	}
	return out
}

// diff describes how got differs from want: the missing and the extra keys,
// and the keys whose uids differ; "" when they are equal.
func diff(got, want map[string]types.UID) string {
	var missing, extra, changed []string
	for k, uid := range want {
		switch g, ok := got[k]; {
		case !ok:
			missing = append(missing, k)
		case g != uid:
			changed = append(changed, k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			extra = append(extra, k)
		}
	}
	if len(missing)+len(extra)+len(changed) == 0 {
		return ""
	}
	sort.Strings(missing)
	sort.Strings(extra)
	sort.Strings(changed)
	return fmt.Sprintf("%d objects, want %d: missing %s; unexpected %s; other uid %s",
		len(got), len(want), short(missing), short(extra), short(changed))
}

// short lists at most ten of items.
func short(items []string) string {
	if len(items) > 10 {
		return fmt.Sprintf("%q and %d more", items[:10], len(items)-10)
	}
	return fmt.Sprintf("%q", items)
}

// client is a clientset that talks one content type, without a client-side
// rate limit that matters, and counts the media types of the server's
// answers.
type client struct {
	kubernetes.Interface
	config      *rest.Config
	contentType string
	mu          sync.Mutex
	answers     map[string]int // media type of the answers' bodies
}

// newClient returns a client of c that sends and accepts contentType.
func newClient(t testing.TB, c *testcluster.Cluster, contentType string) *client {
	t.Helper()
	cl := &client{contentType: contentType, answers: map[string]int{}}
	config := c.Config()
	config.QPS, config.Burst = 1000, 2000
	config.ContentType, config.AcceptContentTypes = contentType, contentType
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripper(func(req *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(req)
			if err == nil {
				if mediaType, _, perr := mime.ParseMediaType(resp.Header.Get("Content-Type")); perr == nil {
					cl.mu.Lock()
					cl.answers[mediaType]++
					cl.mu.Unlock()
				}
			}
			return resp, err
		})
	})
	cl.config = config
	cl.Interface = kubernetes.NewForConfigOrDie(config)
	return cl
}

// checkAnswers fails t unless the server answered c, and in c's content
// type only.
func (c *client) checkAnswers(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.answers) != 1 || c.answers[c.contentType] == 0 {
		t.Errorf("the server answered a %s client with bodies of these media types: %v", c.contentType, c.answers)
	}
}

// roundTripper adapts a function to http.RoundTripper.
type roundTripper func(*http.Request) (*http.Response, error)

// RoundTrip calls f.
func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// newNamespaces creates n namespaces for the test and returns their names.
func newNamespaces(t *testing.T, c *testcluster.Cluster, n int) []string {
	t.Helper()
	out := make([]string, n)
	for i := range out {
		out[i] = c.NewNamespace(t)
	}
	return out
}

// writers is how many ConfigMaps createConfigMaps creates at once.
const writers = 4

// createConfigMaps creates n ConfigMaps named prefix-NNN, spread in turn
// over namespaces, on writers concurrent writers, and returns them as the
// server created them (with their uids), in the order of their names. The
// first error fails the test; no more are created after it.
func createConfigMaps(t *testing.T, cs kubernetes.Interface, namespaces []string, n int, prefix string) []*corev1.ConfigMap {
	t.Helper()
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	out := make([]*corev1.ConfigMap, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				cm := &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{
						Namespace: namespaces[i%len(namespaces)],
						Name:      fmt.Sprintf("%s-%03d", prefix, i),
					},
					Data: map[string]string{"i": fmt.Sprint(i)},
				}
				created, err := cs.CoreV1().ConfigMaps(cm.Namespace).Create(ctx, cm, metav1.CreateOptions{})
				if err != nil {
					cancel(fmt.Errorf("creating ConfigMap %s: %w", objectKey(cm), err))
					return
				}
				out[i] = created
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		t.Fatal(err)
	}
	return out
}

// listAll lists the ConfigMaps of all namespaces with opts, following
// Continue when opts.Limit is set, and returns the items and the ListMeta
// of every page.
func listAll(t testing.TB, cs kubernetes.Interface, opts metav1.ListOptions) ([]corev1.ConfigMap, []metav1.ListMeta) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var items []corev1.ConfigMap
	var pages []metav1.ListMeta
	for {
		list, err := cs.CoreV1().ConfigMaps("").List(ctx, opts)
		if err != nil {
			t.Fatalf("LIST %+v: %v", opts, err)
		}
		items = append(items, list.Items...)
		pages = append(pages, list.ListMeta)
		if list.Continue == "" {
			return items, pages
		}
		if opts.Limit == 0 {
			t.Fatalf("LIST without a limit returned a continue token")
		}
		if len(pages) > 1000 {
			t.Fatalf("LIST did not end after %d pages", len(pages))
		}
		opts.Continue = list.Continue
	}
}

// checkShardInfo fails t unless meta echoes selector.
func checkShardInfo(t testing.TB, what string, meta metav1.ListMeta, selector string) {
	t.Helper()
	switch {
	case meta.ShardInfo == nil:
		t.Errorf("%s: the list has no shardInfo; want the selector %q echoed", what, selector)
	case meta.ShardInfo.Selector != selector:
		t.Errorf("%s: shardInfo.selector = %q, want %q", what, meta.ShardInfo.Selector, selector)
	}
}

// namespaceSet is a set of namespace names.
func namespaceSet(namespaces []string) map[string]bool {
	out := make(map[string]bool, len(namespaces))
	for _, ns := range namespaces {
		out[ns] = true
	}
	return out
}

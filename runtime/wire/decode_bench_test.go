package wire

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/procstat"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// decodeObjects is the number of pods of one iteration of
// BenchmarkWatchDecode (MODIFIED events) and BenchmarkListDecode (items).
const decodeObjects = 10_000

// decodeEncodings are the encodings the decode benchmarks serve.
var decodeEncodings = []struct{ name, mediaType, watchContentType string }{
	{"json", runtime.ContentTypeJSON, runtime.ContentTypeJSON},
	{"protobuf", runtime.ContentTypeProtobuf, runtime.ContentTypeProtobuf + ";stream=watch"},
}

// decodePods returns the pods of the decode benchmarks.
func decodePods() []*corev1.Pod {
	return testpods.Generate(testpods.Config{Namespaces: 10, PodsPerNamespace: decodeObjects / 10, Nodes: 100})
}

// decodeClient returns a clientset of a server that answers every request
// with body in contentType, configured for mediaType, and the server's
// Close.
func decodeClient(b *testing.B, mediaType, contentType string, body []byte) (kubernetes.Interface, func()) {
	srv := httptest.NewServer(streamServer{contentType, body})
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, QPS: -1, ContentConfig: rest.ContentConfig{ContentType: mediaType}})
	if err != nil {
		b.Fatal(err)
	}
	return cs, srv.Close
}

// decodeLoop runs one decoding of decodeObjects objects per iteration of
// b and reports, per object (per: "event" or "item"), the wall and CPU time
// and the allocations.
func decodeLoop(b *testing.B, per string, decode func()) {
	var sum procstat.Totals
	for b.Loop() {
		var before, after procstat.Sample
		before.MustRead(b)
		decode()
		after.MustRead(b)
		sum.Add(&before, &after)
	}
	total := float64(b.N * decodeObjects)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/total, "ns/"+per)
	b.ReportMetric(float64(sum.CPU.Nanoseconds())/total, "cpu-ns/"+per)
	b.ReportMetric(float64(sum.Mallocs)/total, "allocs/"+per)
}

// streamServer answers every request with body, in contentType.
type streamServer struct {
	contentType string
	body        []byte
}

func (s streamServer) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", s.contentType)
	_, _ = w.Write(s.body)
}

// BenchmarkWatchDecode measures how fast a watch stream of pods is decoded:
// a server on the loopback interface answers every WATCH with
// decodeObjects MODIFIED events of internal/testing/testpods pods, prebuilt in
// JSON or in protobuf; an iteration opens a watch and receives every event
// from its result channel. ours is the runtime's watch (NewWatch: the
// runtime decodes the events, on up to four goroutines), clientgo the typed
// client's Watch (client-go's decoder, on the watch's goroutine), both
// through client-go's REST client and StreamWatcher. Reported per event:
// wall and CPU time (the process's, so the server's writing included on
// both sides) and allocations.
func BenchmarkWatchDecode(b *testing.B) {
	pods := decodePods()
	events := make([]watch.Event, len(pods))
	for i, p := range pods {
		events[i] = watch.Event{Type: watch.Modified, Object: p}
	}
	for _, encoding := range decodeEncodings {
		body, err := encodeWatchEvents(encoding.mediaType, events)
		if err != nil {
			b.Fatal(err)
		}
		cs, stop := decodeClient(b, encoding.mediaType, encoding.watchContentType, body)
		typed := cs.CoreV1().Pods("")
		lw := clientListWatch[*corev1.Pod](typed, "pods")
		for _, side := range []struct {
			name  string
			watch func(context.Context, metav1.ListOptions) (watch.Interface, error)
		}{{"ours", lw.lw.WatchFuncWithContext}, {"clientgo", typed.Watch}} {
			b.Run(encoding.name+"/"+side.name, func(b *testing.B) {
				decodeLoop(b, "event", func() {
					w, err := side.watch(context.Background(), metav1.ListOptions{})
					if err != nil {
						b.Fatal(err)
					}
					n := 0
					for e := range w.ResultChan() {
						if e.Type != watch.Modified {
							b.Fatalf("event %d: %s %v", n, e.Type, e.Object)
						}
						n++
					}
					if n != len(events) {
						b.Fatalf("%d events, want %d", n, len(events))
					}
				})
			})
		}
		stop()
	}
}

// BenchmarkListDecode measures how fast a LIST of pods is decoded: the
// server answers every request with a PodList of decodeObjects pods,
// prebuilt in JSON or in protobuf; an iteration lists once. ours is the
// runtime's list (NewList: the runtime decodes the items while the body is
// read, on GOMAXPROCS goroutines), clientgo the typed client's List
// (client-go reads the whole body, then decodes it on one goroutine); the
// items are not copied out of the list, which client-go's reflector does
// next for its side only. Reported per item, as BenchmarkWatchDecode.
func BenchmarkListDecode(b *testing.B) {
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1000"}}
	for _, p := range decodePods() {
		list.Items = append(list.Items, *p)
	}
	for _, encoding := range decodeEncodings {
		body, err := encodeAs(encoding.mediaType, list)
		if err != nil {
			b.Fatal(err)
		}
		cs, stop := decodeClient(b, encoding.mediaType, encoding.mediaType, body)
		typed := cs.CoreV1().Pods("")
		lw := clientListWatch[*corev1.Pod](typed, "pods")
		for _, side := range []struct {
			name string
			list func(context.Context, metav1.ListOptions) (runtime.Object, error)
		}{{"ours", lw.lw.ListWithContextFunc}, {"clientgo", func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return typed.List(ctx, opts)
		}}} {
			b.Run(encoding.name+"/"+side.name, func(b *testing.B) {
				decodeLoop(b, "item", func() {
					got, err := side.list(context.Background(), metav1.ListOptions{})
					if err != nil {
						b.Fatal(err)
					}
					if _, isOurs := got.(*ItemList[*corev1.Pod]); isOurs != (side.name == "ours") {
						b.Fatalf("a %T", got)
					}
				})
			})
		}
		stop()
	}
}

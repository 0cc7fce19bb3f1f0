package cache

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

	"github.com/informer-gen-plus/informer-gen-plus/internal/procstat"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testpods"
)

// watchDecodeEvents is the number of MODIFIED events of one iteration of
// BenchmarkWatchDecode.
const watchDecodeEvents = 10_000

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
// watchDecodeEvents MODIFIED events of internal/testpods pods, prebuilt in
// JSON or in protobuf; an iteration opens a watch and receives every event
// from its result channel. ours is NewClientListWatch's watch (the runtime
// decodes the events, on up to four goroutines), clientgo the typed client's
// Watch (client-go's decoder, on the watch's goroutine), both through
// client-go's REST client and StreamWatcher. Reported per event: wall and
// CPU time (the process's, so the server's writing included on both sides)
// and allocations.
func BenchmarkWatchDecode(b *testing.B) {
	pods := testpods.Generate(testpods.Config{Namespaces: 10, PodsPerNamespace: watchDecodeEvents / 10, Nodes: 100})
	events := make([]watch.Event, len(pods))
	for i, p := range pods {
		events[i] = watch.Event{Type: watch.Modified, Object: p}
	}
	for _, encoding := range []struct{ name, mediaType, contentType string }{
		{"json", runtime.ContentTypeJSON, runtime.ContentTypeJSON},
		{"protobuf", runtime.ContentTypeProtobuf, runtime.ContentTypeProtobuf + ";stream=watch"},
	} {
		body, err := encodeWatchEvents(encoding.mediaType, events)
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(streamServer{encoding.contentType, body})
		cs, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, QPS: -1, ContentConfig: rest.ContentConfig{ContentType: encoding.mediaType}})
		if err != nil {
			b.Fatal(err)
		}
		typed := cs.CoreV1().Pods("")
		lw := NewClientListWatch[*corev1.Pod](typed, "pods", nil, nil)
		for _, side := range []struct {
			name  string
			watch func(context.Context, metav1.ListOptions) (watch.Interface, error)
		}{{"ours", lw.lw.WatchFuncWithContext}, {"clientgo", typed.Watch}} {
			b.Run(encoding.name+"/"+side.name, func(b *testing.B) {
				var sum procstat.Totals
				for b.Loop() {
					var before, after procstat.Sample
					before.MustRead(b)
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
					after.MustRead(b)
					sum.Add(&before, &after)
					if n != len(events) {
						b.Fatalf("%d events, want %d", n, len(events))
					}
				}
				total := float64(b.N * len(events))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/total, "ns/event")
				b.ReportMetric(float64(sum.CPU.Nanoseconds())/total, "cpu-ns/event")
				b.ReportMetric(float64(sum.Mallocs)/total, "allocs/event")
			})
		}
		srv.Close()
	}
}

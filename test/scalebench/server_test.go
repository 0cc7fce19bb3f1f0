package scalebench

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// server is a stand-in for the API server's pods endpoint, for one set of
// bodies. It answers:
//
//   - GET /api/v1/pods (no watch): the prebuilt LIST body, content type
//     application/vnd.kubernetes.protobuf;
//   - GET /api/v1/pods?watch=true&sendInitialEvents=true: the prebuilt
//     initial events (ADDED per pod, then the initial-events-end BOOKMARK),
//     then keeps the stream open;
//   - GET /api/v1/pods?watch=true: keeps the stream open with no event.
//
// Watch streams have the content type
// application/vnd.kubernetes.protobuf;stream=watch. An open stream writes
// every body sent on updates; a body is taken by one stream only. The server
// counts the requests of each kind; anything else is answered 404 and counted
// as other.
type server struct {
	srv     *httptest.Server
	b       *bodies
	updates chan []byte

	lists, watches, watchLists, other atomic.Int32
}

const (
	contentProtobuf = "application/vnd.kubernetes.protobuf"
	contentWatch    = "application/vnd.kubernetes.protobuf;stream=watch"
)

func newServer(b *bodies) *server {
	s := &server{b: b, updates: make(chan []byte)}
	s.srv = httptest.NewServer(s)
	return s
}

func (s *server) close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// serve starts a server of bd, closed when tb ends, and returns it with a
// clientset for it.
func serve(tb testing.TB, bd *bodies) (*server, *kubernetes.Clientset) {
	tb.Helper()
	srv := newServer(bd)
	tb.Cleanup(srv.close)
	cs, err := srv.clientset()
	if err != nil {
		tb.Fatal(err)
	}
	return srv, cs
}

// requests is the count of each kind of request since the last reset.
type requests struct{ lists, watches, watchLists, other int32 }

func (r requests) String() string {
	return fmt.Sprintf("%d LIST, %d WATCH, %d WATCH with sendInitialEvents, %d other",
		r.lists, r.watches, r.watchLists, r.other)
}

func (s *server) requests() requests {
	return requests{s.lists.Load(), s.watches.Load(), s.watchLists.Load(), s.other.Load()}
}

func (s *server) reset() {
	s.lists.Store(0)
	s.watches.Store(0)
	s.watchLists.Store(0)
	s.other.Store(0)
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != "/api/v1/pods" {
		s.other.Add(1)
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	if watch, _ := strconv.ParseBool(q.Get("watch")); !watch {
		s.lists.Add(1)
		w.Header().Set("Content-Type", contentProtobuf)
		_, _ = w.Write(s.b.list)
		return
	}
	w.Header().Set("Content-Type", contentWatch)
	w.WriteHeader(http.StatusOK)
	if initial, _ := strconv.ParseBool(q.Get("sendInitialEvents")); initial {
		s.watchLists.Add(1)
		if _, err := w.Write(s.b.initial); err != nil {
			return
		}
	} else {
		s.watches.Add(1)
	}
	flusher, _ := w.(http.Flusher)
	if flusher != nil {
		flusher.Flush()
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case body := <-s.updates:
			if _, err := w.Write(body); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
	}
}

// clientset returns a real clientset for the server that asks for protobuf,
// with client-side rate limiting off (the benchmarks make one or two
// requests per informer run, but many runs).
func (s *server) clientset() (*kubernetes.Clientset, error) {
	return kubernetes.NewForConfig(&rest.Config{
		Host:          s.srv.URL,
		ContentConfig: rest.ContentConfig{ContentType: contentProtobuf},
		QPS:           -1,
	})
}

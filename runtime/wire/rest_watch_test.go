package wire

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
)

// watchServer answers every WATCH of pods with the same events, in the
// encoding the client accepts first, then ends the stream; it records the
// path and query of every request.
type watchServer struct {
	t      *testing.T
	events []watch.Event
	// jsonOnly answers in JSON, whatever else the client accepts, and
	// refuses a client that does not accept JSON, as a server without
	// protobuf does.
	jsonOnly bool
	// corrupt, when set, changes the stream before it is sent.
	corrupt func([]byte) []byte

	mu      sync.Mutex
	queries []string
	accepts []string
	// answers are the media types of the next answers, one per request in
	// order, whatever the fields above and the client's Accept header say;
	// notAcceptable refuses the request (set with answerNext).
	answers []string
}

// notAcceptable is the answer of watchServer.answerNext that refuses a
// request as not acceptable.
const notAcceptable = "not acceptable"

// answerNext has the next requests answered in answers, one each, in
// order: media types, or notAcceptable.
func (s *watchServer) answerNext(answers ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers = append(s.answers, answers...)
}

// requests returns the number of requests s received.
func (s *watchServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queries)
}

func (s *watchServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	accept := r.Header.Get("Accept")
	s.mu.Lock()
	s.queries = append(s.queries, r.URL.Path+"?"+r.URL.RawQuery)
	s.accepts = append(s.accepts, accept)
	var answer string
	if len(s.answers) > 0 {
		answer, s.answers = s.answers[0], s.answers[1:]
	}
	s.mu.Unlock()
	mediaType := runtime.ContentTypeJSON
	switch {
	case answer == notAcceptable, answer == "" && s.jsonOnly && !strings.Contains(accept, runtime.ContentTypeJSON):
		w.Header().Set("Content-Type", runtime.ContentTypeJSON)
		w.WriteHeader(http.StatusNotAcceptable)
		body, _ := runtime.Encode(scheme.Codecs.LegacyCodec(corev1.SchemeGroupVersion), &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusNotAcceptable, Reason: metav1.StatusReasonNotAcceptable, Message: "only json"})
		_, _ = w.Write(body)
		return
	case answer != "":
		mediaType = answer
	case !s.jsonOnly && strings.HasPrefix(accept, runtime.ContentTypeProtobuf):
		mediaType = runtime.ContentTypeProtobuf
	}
	var body []byte
	if mediaType != runtime.ContentTypeYAML { // YAML has no watch streams: client-go reads no body
		var err error
		if body, err = encodeWatchEvents(mediaType, s.events); err != nil {
			s.t.Error(err)
			return
		}
	}
	if s.corrupt != nil {
		body = s.corrupt(body)
	}
	contentType := mediaType
	if mediaType == runtime.ContentTypeProtobuf {
		contentType += ";stream=watch"
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// encodeWatchEvents encodes events as the API server streams them in
// mediaType: each a framed metav1.WatchEvent whose object is encodeAs's.
func encodeWatchEvents(mediaType string, events []watch.Event) ([]byte, error) {
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok || info.StreamSerializer == nil {
		return nil, fmt.Errorf("no stream serializer for %s", mediaType)
	}
	var buf bytes.Buffer
	enc := streaming.NewEncoder(info.StreamSerializer.Framer.NewFrameWriter(&buf), info.StreamSerializer.Serializer)
	for _, e := range events {
		raw, err := encodeAs(mediaType, e.Object)
		if err != nil {
			return nil, err
		}
		if err := enc.Encode(&metav1.WatchEvent{Type: string(e.Type), Object: runtime.RawExtension{Raw: raw}}); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// serveWatch starts s and returns a real clientset for it.
func serveWatch(t *testing.T, s *watchServer) kubernetes.Interface {
	t.Helper()
	s.t = t
	return serveClientset(t, s)
}

// testWatchEvents returns n events of every type over generated pods, and
// an ERROR event.
func testWatchEvents(t *testing.T, n int) []watch.Event {
	t.Helper()
	pods := testPodList(t, n).Items
	types := []watch.EventType{watch.Added, watch.Modified, watch.Deleted, watch.Bookmark}
	var events []watch.Event
	for i := range pods {
		events = append(events, watch.Event{Type: types[i%len(types)], Object: &pods[i]})
	}
	return append(events, watch.Event{Type: watch.Error, Object: &metav1.Status{
		Status: metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonExpired, Message: "too old resource version",
	}})
}

// collect returns every event of w until it closes (at most 30 s).
func collect(t *testing.T, w watch.Interface) []watch.Event {
	t.Helper()
	defer w.Stop()
	var out []watch.Event
	timeout := time.After(30 * time.Second)
	for {
		select {
		case e, ok := <-w.ResultChan():
			if !ok {
				return out
			}
			out = append(out, e)
		case <-timeout:
			t.Fatalf("watch still open after %d events", len(out))
		}
	}
}

// watchBoth watches through lw and through the typed client pods, and
// returns both streams' events; the two requests must be the same.
func watchBoth(t *testing.T, s *watchServer, lw *testListWatch, pods typedClient[*corev1.PodList], opts metav1.ListOptions) (got, want []watch.Event) {
	t.Helper()
	w, err := lw.lw.WatchFuncWithContext(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	got = collect(t, w)
	if w, err = pods.Watch(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	want = collect(t, w)
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.queries); s.queries[n-2] != s.queries[n-1] {
		t.Errorf("requests differ:\n ListWatch: %s\n typed:     %s", s.queries[n-2], s.queries[n-1])
	}
	return got, want
}

func TestClientListWatchDecodesProtobufWatchesAsTheTypedClientDoes(t *testing.T) {
	for _, n := range []int{0, 1, 300} {
		s := &watchServer{events: testWatchEvents(t, n)}
		cs := serveWatch(t, s)
		for _, ns := range []string{"", "ns-1"} {
			pods := cs.CoreV1().Pods(ns)
			lw := clientListWatch[*corev1.Pod](pods, "pods")
			timeout := int64(300)
			opts := metav1.ListOptions{LabelSelector: "app=a", ResourceVersion: "10", AllowWatchBookmarks: true, TimeoutSeconds: &timeout}
			got, want := watchBoth(t, s, lw, pods, opts)
			if len(want) != n+1 {
				t.Fatalf("n=%d: the typed client got %d events, want %d", n, len(want), n+1)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("n=%d, namespace %q: events differ from the typed client's (%d against %d)", n, ns, len(got), len(want))
			}
			if a, typed := s.accepts[len(s.accepts)-2], s.accepts[len(s.accepts)-1]; a != typed || !strings.HasPrefix(a, runtime.ContentTypeProtobuf) {
				t.Errorf("the ListWatch's watch accepted %q, the typed client's %q; want the same, protobuf first", a, typed)
			}
		}
	}
}

// badEventCase is a corruption of a watch stream of five events.
type badEventCase struct {
	name    string
	corrupt func([]byte) []byte
	want    int // events before the error event; -1: the watch ends quietly
}

func TestClientListWatchEndsAWatchOnABadEventAsTheTypedClientDoes(t *testing.T) {
	events := testWatchEvents(t, 5)
	secondName := events[1].Object.(*corev1.Pod).Name
	runBadEventCases(t, events, false, []badEventCase{
		{"bad object", func(b []byte) []byte {
			// The second pod's name, its first byte replaced by a tag of
			// an impossible wire type.
			i := bytes.Index(b, []byte(secondName))
			out := bytes.Clone(b)
			out[i-2] = 0x0f
			return out
		}, 1},
		{"another kind", func(b []byte) []byte {
			return bytes.Replace(b, []byte("\x12\x03Pod"), []byte("\x12\x03Pot"), 1)
		}, 0},
		{"cut short", func(b []byte) []byte { return b[:len(b)/2] }, -1},
	})
}

func TestClientListWatchEndsAJSONWatchOnABadEventAsTheTypedClientDoes(t *testing.T) {
	events := testWatchEvents(t, 5)
	secondName := events[1].Object.(*corev1.Pod).Name
	runBadEventCases(t, events, true, []badEventCase{
		{"bad object", func(b []byte) []byte {
			// The second pod's name unquoted: its event is no valid JSON.
			return bytes.Replace(b, []byte(`"`+secondName+`"`), []byte(secondName), 1)
		}, 1},
		{"another kind", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"kind":"Pod"`), []byte(`"kind":"Pot"`), 1)
		}, 0},
		{"no object", func(b []byte) []byte {
			i := bytes.IndexByte(b, '\n') + 1
			return append(append(bytes.Clone(b[:i]), "17\n"...), b[i:]...)
		}, 1},
		{"cut short", func(b []byte) []byte { return b[:len(b)/2] }, -1},
	})
}

// runBadEventCases runs checkBadEventWatch on each case, the events served
// in JSON or in protobuf.
func runBadEventCases(t *testing.T, events []watch.Event, inJSON bool, cases []badEventCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkBadEventWatch(t, &watchServer{events: events, corrupt: tc.corrupt, jsonOnly: inJSON}, len(events), tc.want)
		})
	}
}

// checkBadEventWatch watches through a ListWatch and through the typed
// client, both served by s, whose stream of n events is corrupted: the
// ListWatch must give the typed client's events, want of them and then an
// ERROR event; or, for want < 0, end quietly after the same events, fewer
// than n.
func checkBadEventWatch(t *testing.T, s *watchServer, n, want int) {
	t.Helper()
	cs := serveWatch(t, s)
	pods := cs.CoreV1().Pods("")
	lw := clientListWatch[*corev1.Pod](pods, "pods")
	before := len(s.queries)
	got, typed := watchBoth(t, s, lw, pods, metav1.ListOptions{})
	if requests := len(s.queries) - before; requests != 2 {
		t.Fatalf("%d requests, want one of the ListWatch's (decoding the stream itself) and one of the typed client's", requests)
	}
	if want < 0 {
		// A body cut short ends the watch quietly, after the events read
		// whole, as client-go's decoder does.
		if len(got) == 0 || len(got) >= n || !reflect.DeepEqual(got, typed) {
			t.Fatalf("%d events, the typed client's watch %d; want the same events, fewer than %d", len(got), len(typed), n)
		}
		return
	}
	if len(got) != want+1 || got[want].Type != watch.Error {
		t.Fatalf("%d events, want %d then an ERROR event", len(got), want)
	}
	if len(typed) != len(got) || typed[want].Type != watch.Error {
		t.Fatalf("the typed client's watch gave %d events, want %d then an ERROR event", len(typed), want)
	}
	if !reflect.DeepEqual(got[:want], typed[:want]) {
		t.Errorf("events before the error differ from the typed client's")
	}
	if status, ok := got[want].Object.(*metav1.Status); !ok || status.Code != http.StatusInternalServerError {
		t.Errorf("error event %#v, want client-go's internal error", got[want].Object)
	}
}

func TestClientListWatchDecodesJSONWatchesAsTheTypedClientDoes(t *testing.T) {
	for _, n := range []int{0, 1, 300} {
		s := &watchServer{events: testWatchEvents(t, n), jsonOnly: true}
		cs := serveWatch(t, s)
		pods := cs.CoreV1().Pods("ns-1")
		lw := clientListWatch[*corev1.Pod](pods, "pods")
		for i := range 2 {
			before := len(s.queries)
			got, want := watchBoth(t, s, lw, pods, metav1.ListOptions{ResourceVersion: "10", AllowWatchBookmarks: true})
			if len(want) != n+1 {
				t.Fatalf("n=%d: the typed client got %d events, want %d", n, len(want), n+1)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("n=%d, watch %d: events differ from the typed client's (%d against %d)", n, i, len(got), len(want))
			}
			// One request of the ListWatch's (answered in JSON, which it
			// decodes), one of the typed client's.
			if len(s.queries)-before != 2 {
				t.Fatalf("n=%d, watch %d: %d requests, want 2", n, i, len(s.queries)-before)
			}
		}
	}
}

// Each WATCH response is decided alone, and the watch has no fallback: a
// refused watch, or one answered in an encoding client-go has no watch
// decoder for (YAML), fails as the typed client's fails, in one request;
// the next one in protobuf or JSON is decoded again, into the typed
// client's events.
func TestClientListWatchDecidesEachWatchResponseAlone(t *testing.T) {
	s := &watchServer{events: testWatchEvents(t, 3)}
	cs := serveWatch(t, s)
	pods := cs.CoreV1().Pods("")
	lw := clientListWatch[*corev1.Pod](pods, "pods")
	for i, answer := range []string{notAcceptable, runtime.ContentTypeProtobuf, runtime.ContentTypeYAML, runtime.ContentTypeJSON, notAcceptable, runtime.ContentTypeProtobuf} {
		s.answerNext(answer, answer) // the ListWatch's request, then the typed client's
		before := s.requests()
		// client-go leaves the body of a watch it has no decoder for open
		// until the request's context ends.
		ctx, cancel := context.WithCancel(context.Background())
		got, gotErr := lw.lw.WatchFuncWithContext(ctx, metav1.ListOptions{})
		want, wantErr := pods.Watch(ctx, metav1.ListOptions{})
		if n := s.requests() - before; n != 2 {
			t.Errorf("watch %d, answered %s: %d requests, want one of the ListWatch's and one of the typed client's", i, answer, n)
		}
		switch answer {
		case notAcceptable, runtime.ContentTypeYAML:
			if gotErr == nil || !reflect.DeepEqual(gotErr, wantErr) {
				t.Errorf("watch %d, answered %s: error %#v, want the typed client's %#v", i, answer, gotErr, wantErr)
			}
			if answer == notAcceptable && !apierrors.IsNotAcceptable(gotErr) {
				t.Errorf("watch %d: error %v, want the server's refusal", i, gotErr)
			}
		default:
			if gotErr != nil || wantErr != nil {
				t.Fatalf("watch %d, answered %s: errors %v, %v", i, answer, gotErr, wantErr)
			}
			gotEvents, wantEvents := collect(t, got), collect(t, want)
			if len(wantEvents) != 4 || !reflect.DeepEqual(gotEvents, wantEvents) {
				t.Errorf("watch %d, answered %s: %d events, the typed client's %d; want the same 4", i, answer, len(gotEvents), len(wantEvents))
			}
		}
		cancel()
	}
}

func TestClientListWatchStopsAWatchMidStream(t *testing.T) {
	s := &watchServer{events: testWatchEvents(t, 2000)}
	cs := serveWatch(t, s)
	lw := clientListWatch[*corev1.Pod](cs.CoreV1().Pods(""), "pods")
	w, err := lw.lw.WatchFuncWithContext(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if e := <-w.ResultChan(); e.Type == watch.Error {
			t.Fatalf("error event %v", e.Object)
		}
	}
	w.Stop()
	// The result channel closes; the package's goroutine check (TestMain)
	// fails if the stream's goroutines are left behind.
	for range w.ResultChan() {
	}
}

func TestClientListWatchReportsWatchErrorsAsTheTypedClient(t *testing.T) {
	s := &listServer{status: &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonExpired, Message: "too old"}}
	cs := serveList(t, s)
	pods := cs.CoreV1().Pods("")
	lw := clientListWatch[*corev1.Pod](pods, "pods")
	_, gotErr := lw.lw.WatchFuncWithContext(context.Background(), metav1.ListOptions{})
	_, wantErr := pods.Watch(context.Background(), metav1.ListOptions{})
	if !apierrors.IsResourceExpired(gotErr) || !reflect.DeepEqual(gotErr, wantErr) {
		t.Errorf("error %#v, want the typed client's %#v", gotErr, wantErr)
	}
}

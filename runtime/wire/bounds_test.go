package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	goruntime "runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/protobuf/encoding/protowire"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	f()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// podListDecoder is the protobuf LIST decoder of pods.
func podListDecoder() *protobufList[*corev1.Pod] {
	return &protobufList[*corev1.Pod]{apiVersion: "v1", listKind: "PodList", newItem: func() *corev1.Pod { return &corev1.Pod{} }}
}

// decodeListBody decodes body with d, as a LIST response would be.
func decodeListBody(d interface {
	decode(*bufio.Reader, *recorder) (*ItemList[*corev1.Pod], outcome, error)
}, body []byte) (outcome, error) {
	rec := &recorder{r: bytes.NewReader(body), on: true}
	_, out, err := d.decode(bufio.NewReaderSize(rec, decodeChunk), rec)
	return out, err
}

// smallHostileBodies are bodies of at most 64 bytes whose length fields
// claim far more than they hold: the envelope's TypeMeta, the list's
// metadata, an item, an unknown field, a watch frame.
var smallHostileBodies = map[string]string{
	"envelope TypeMeta of 2^31-1 bytes": "k8s\x00\n\xff\xff\xff\xff\a",
	"an item of 2^31-7 bytes":           "k8s\x00\n\r\n\x02v1\x12\aPodList\x12\xff\xff\xff\xff\a\x12\xf9\xff\xff\xff\a",
	"list metadata of 2^31-7 bytes":     "k8s\x00\n\r\n\x02v1\x12\aPodList\x12\xff\xff\xff\xff\a\n\xf9\xff\xff\xff\a",
	"an item of 900 KiB":                "k8s\x00\n\r\n\x02v1\x12\aPodList\x12\xff\xff\xff\xff\a\x12\x80\x80\x38",
	"an unknown field of 2^31-1 bytes":  "k8s\x00\x2a\xff\xff\xff\xff\a",
	"a JSON list with an open string":   `{"kind":"PodList","items":[{"metadata":{"name":"`,
}

// No body of at most 64 bytes makes a LIST decoder allocate more than
// 1 MiB, whatever its length fields claim: buffers grow with the bytes that
// arrived.
func TestListDecodersTrustNoLengthField(t *testing.T) {
	pb := podListDecoder()
	js := &jsonList[*corev1.Pod]{apiVersion: "v1", listKind: "PodList", newItem: pb.newItem}
	for name, body := range smallHostileBodies {
		if len(body) > 64 {
			t.Fatalf("%s: %d bytes, want at most 64", name, len(body))
		}
		for _, d := range []interface {
			decode(*bufio.Reader, *recorder) (*ItemList[*corev1.Pod], outcome, error)
		}{pb, js} {
			var out outcome
			var err error
			if n := allocated(func() { out, err = decodeListBody(d, []byte(body)) }); n > 1<<20 {
				t.Errorf("%s, %T: %d KiB allocated (outcome %v, %v), want at most 1 MiB", name, d, n>>10, out, err)
			}
			if out == decoded {
				t.Errorf("%s, %T: decoded, want an error or client-go's decoder", name, d)
			}
		}
	}
}

// Through the whole LIST and WATCH, a body of at most 64 bytes that claims
// gigabytes allocates little, and ends as client-go's ends.
func TestSmallHostileBodiesAllocateLittle(t *testing.T) {
	header := binary.BigEndian.AppendUint32(nil, maxWatchFrame) // a frame of 16 MiB, then nothing
	for name, c := range map[string]struct {
		contentType string
		body        string
	}{
		"protobuf list, item of 2^31-7 bytes": {runtime.ContentTypeProtobuf, smallHostileBodies["an item of 2^31-7 bytes"]},
		"protobuf watch frame of 16 MiB":      {runtime.ContentTypeProtobuf + ";stream=watch", string(header)},
		"protobuf watch frame of 4 GiB":       {runtime.ContentTypeProtobuf + ";stream=watch", "\xff\xff\xff\xff\x00"},
		"JSON watch, an open string":          {runtime.ContentTypeJSON, `{"type":"ADDED","object":{"kind":"Pod","x":"`},
	} {
		cs := serveClientset(t, streamServer{c.contentType, []byte(c.body)})
		pods := cs.CoreV1().Pods("")
		lw := clientListWatch[*corev1.Pod](pods, "pods").lw
		if strings.Contains(c.contentType, "watch") || c.contentType == runtime.ContentTypeJSON {
			var got []watch.Event
			n := allocated(func() {
				w, err := lw.WatchFuncWithContext(t.Context(), metav1.ListOptions{})
				if err != nil {
					t.Fatal(err)
				}
				got = collect(t, w)
			})
			w, err := pods.Watch(t.Context(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if want := collect(t, w); !sameEvents(got, want) {
				t.Errorf("%s: runtime %v, client-go %v", name, got, want)
			}
			if n > 1<<20 {
				t.Errorf("%s: the watch allocated %d KiB, want at most 1 MiB", name, n>>10)
			}
			continue
		}
		var err error
		n := allocated(func() { _, err = lw.ListWithContextFunc(t.Context(), metav1.ListOptions{}) })
		if _, wantErr := pods.List(t.Context(), metav1.ListOptions{}); (err == nil) != (wantErr == nil) {
			t.Errorf("%s: runtime %v, client-go %v", name, err, wantErr)
		}
		if n > 1<<20 {
			t.Errorf("%s: the list allocated %d KiB, want at most 1 MiB", name, n>>10)
		}
	}
}

// sameEvents reports whether two watches delivered the same events: the
// same types and objects, and for ERROR events the same code and reason.
func sameEvents(got, want []watch.Event) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Type != want[i].Type {
			return false
		}
		if got[i].Type == watch.Error {
			g, ok1 := got[i].Object.(*metav1.Status)
			w, ok2 := want[i].Object.(*metav1.Status)
			if ok1 != ok2 || ok1 && (g.Code != w.Code || g.Reason != w.Reason) {
				return false
			}
			continue
		}
		if !reflect.DeepEqual(got[i].Object, want[i].Object) {
			return false
		}
	}
	return true
}

// openBodies serves h, counting the responses still open (whose handler
// has not returned).
type openBodies struct {
	h    http.Handler
	open atomic.Int32
}

func (o *openBodies) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.open.Add(1)
	defer o.open.Add(-1)
	o.h.ServeHTTP(w, r)
}

// waitClosed fails t unless every response of o is closed within a
// few seconds.
func (o *openBodies) waitClosed(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); o.open.Load() != 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%d response(s) still open: a body was never closed", o.open.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// untilClosed writes head, flushes, and waits until the client closes the
// response.
func untilClosed(contentType *string, head string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType == nil {
			w.Header()["Content-Type"] = nil
		} else {
			w.Header().Set("Content-Type", *contentType)
		}
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, head)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
}

// serveStopPath serves h and returns a clientset on a transport of its
// own, and a check that no goroutine started after it is left once the
// transport's idle connections are closed.
func serveStopPath(t *testing.T, h http.Handler) (kubernetes.Interface, func()) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	tr := &http.Transport{}
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, QPS: -1, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	ignore := goleak.IgnoreCurrent()
	return cs, func() {
		t.Helper()
		tr.CloseIdleConnections()
		goleak.VerifyNone(t, ignore, goleak.IgnoreAnyFunction("net/http.(*conn).serve"), goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"), goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
	}
}

const podEventJSON = `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}` + "\n"

// A watch answered without a Content-Type is read as JSON, as client-go
// reads it, and its response is closed once the watch stops; one answered
// in a content type client-go cannot stream fails as client-go's fails,
// with its response closed at once.
func TestWatchesWithoutOrWithAnUnknownContentTypeCloseTheirBody(t *testing.T) {
	o := &openBodies{h: untilClosed(nil, podEventJSON)}
	cs, verify := serveStopPath(t, o)
	w, err := clientListWatch[*corev1.Pod](cs.CoreV1().Pods(""), "pods").lw.WatchFuncWithContext(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-w.ResultChan(); ev.Type != watch.Added || ev.Object.(*corev1.Pod).Name != "a" {
		t.Fatalf("event %v %#v, want pod a ADDED, as client-go reads JSON", ev.Type, ev.Object)
	}
	w.Stop()
	o.waitClosed(t)
	verify()

	html := "text/html"
	o = &openBodies{h: untilClosed(&html, "<html>")}
	cs, verify = serveStopPath(t, o)
	_, err = clientListWatch[*corev1.Pod](cs.CoreV1().Pods(""), "pods").lw.WatchFuncWithContext(t.Context(), metav1.ListOptions{})
	var negotiate runtime.NegotiateError
	if !errors.As(err, &negotiate) {
		t.Fatalf("watch error %v, want client-go's runtime.NegotiateError", err)
	}
	o.waitClosed(t)
	verify()
}

// A list or a watch stopped at any point (mid-list, mid-watch, on a body
// that stalls) closes its response and ends every goroutine it started.
func TestStoppedListsAndWatchesLeaveNothingBehind(t *testing.T) {
	pb, err := encodeAs(runtime.ContentTypeProtobuf, testPodList(t, 300))
	if err != nil {
		t.Fatal(err)
	}
	events, err := encodeWatchEvents(runtime.ContentTypeProtobuf, testWatchEvents(t, 200))
	if err != nil {
		t.Fatal(err)
	}
	protobuf, watchPB := runtime.ContentTypeProtobuf, runtime.ContentTypeProtobuf+";stream=watch"
	t.Run("mid-list", func(t *testing.T) {
		o := &openBodies{h: untilClosed(&protobuf, string(pb[:len(pb)/2]))}
		cs, verify := serveStopPath(t, o)
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(200*time.Millisecond, cancel)
		if _, err := clientListWatch[*corev1.Pod](cs.CoreV1().Pods(""), "pods").lw.ListWithContextFunc(ctx, metav1.ListOptions{}); err == nil {
			t.Fatal("a list cut short succeeded")
		}
		o.waitClosed(t)
		verify()
	})
	for name, head := range map[string]string{"mid-watch": string(events[:len(events)/2]), "stalled body": ""} {
		t.Run(name, func(t *testing.T) {
			o := &openBodies{h: untilClosed(&watchPB, head)}
			cs, verify := serveStopPath(t, o)
			w, err := clientListWatch[*corev1.Pod](cs.CoreV1().Pods(""), "pods").lw.WatchFuncWithContext(t.Context(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if head != "" {
				<-w.ResultChan() // one event taken; the rest wait, decoded
			}
			time.Sleep(100 * time.Millisecond)
			w.Stop()
			o.waitClosed(t)
			verify()
		})
	}
}

// pbPodEvent is the protobuf WatchEvent of an ADDED pod a, its envelope
// changed by envelope and the event by event (when not nil).
func pbPodEvent(t *testing.T, envelope, event func([]byte) []byte) []byte {
	t.Helper()
	pod, err := encodeAs(runtime.ContentTypeProtobuf, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	if envelope != nil {
		pod = envelope(pod)
	}
	ev, err := (&metav1.WatchEvent{Type: "ADDED", Object: runtime.RawExtension{Raw: pod}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if event != nil {
		ev = event(ev)
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(ev))), ev...)
}

// watchBothOf watches a stream through the runtime and through client-go's
// typed client.
func watchBothOf(t *testing.T, contentType string, stream []byte) (got, want []watch.Event) {
	t.Helper()
	cs := serveClientset(t, streamServer{contentType, stream})
	pods := cs.CoreV1().Pods("")
	w, err := clientListWatch[*corev1.Pod](pods, "pods").lw.WatchFuncWithContext(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got = collect(t, w)
	if w, err = pods.Watch(t.Context(), metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	return got, collect(t, w)
}

// A protobuf watch event is read by the wire rules, as the generated code
// reads it: unknown fields in every message skipped, the last of a repeated
// field winning, the envelope's ContentEncoding ignored; a frame that is no
// message ends the watch as quietly as client-go's; an object of another
// kind is delivered as client-go delivers it.
func TestProtobufWatchEventsAreReadByTheWireRules(t *testing.T) {
	unknownVarint := func(b []byte) []byte {
		return protowire.AppendVarint(protowire.AppendTag(b, 9, protowire.VarintType), 1)
	}
	unknownGroup := func(b []byte) []byte {
		b = protowire.AppendTag(b, 11, protowire.StartGroupType)
		b = protowire.AppendVarint(protowire.AppendTag(b, 1, protowire.VarintType), 5)
		return protowire.AppendTag(b, 11, protowire.EndGroupType)
	}
	envelopeField := func(num protowire.Number, v string) func([]byte) []byte {
		return func(b []byte) []byte {
			return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), v)
		}
	}
	cm, err := encodeWatchEvents(runtime.ContentTypeProtobuf, []watch.Event{{Type: watch.Added, Object: &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for name, stream := range map[string][]byte{
		"an unknown varint field of the event":    pbPodEvent(t, nil, unknownVarint),
		"an unknown group of the event":           pbPodEvent(t, nil, unknownGroup),
		"an unknown field of the envelope":        pbPodEvent(t, unknownVarint, nil),
		"a ContentEncoding of the envelope":       pbPodEvent(t, envelopeField(unknownContentEncoding, "gzip"), nil),
		"a ContentType of the envelope":           pbPodEvent(t, envelopeField(unknownContentType, "application/json"), nil),
		"a second TypeMeta naming the kind again": pbPodEvent(t, func(b []byte) []byte { return append(b, "\n\x05\x12\x03Pod"...) }, nil),
		"an unknown field of the RawExtension": pbPodEvent(t, nil, func(b []byte) []byte {
			return protowire.AppendBytes(protowire.AppendTag(b, watchEventObject, protowire.BytesType), unknownVarint(nil))
		}),
		"a repeated object, the last winning": pbPodEvent(t, nil, func(b []byte) []byte {
			other, _ := encodeAs(runtime.ContentTypeProtobuf, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "b"}})
			raw := protowire.AppendBytes(protowire.AppendTag(nil, rawExtensionRaw, protowire.BytesType), other)
			return protowire.AppendBytes(protowire.AppendTag(b, watchEventObject, protowire.BytesType), raw)
		}),
		"a garbage frame":                   append(binary.BigEndian.AppendUint32(nil, 3), 0xff, 0xff, 0xff),
		"an empty frame":                    binary.BigEndian.AppendUint32(nil, 0),
		"an invalid event type":             pbPodEvent(t, nil, func(b []byte) []byte { return append(b, "\n\x04JUNK"...) }),
		"an object of another kind":         cm,
		"a frame cut short":                 pbPodEvent(t, nil, nil)[:20],
		"a header cut short":                {0, 0},
		"a frame longer than client-go's":   binary.BigEndian.AppendUint32(nil, maxWatchFrame+1),
		"an object not in protobuf at all":  pbPodEvent(t, func([]byte) []byte { return []byte(`{"kind":"Pod","apiVersion":"v1"}`) }, nil),
		"an envelope with nothing after it": pbPodEvent(t, func([]byte) []byte { return []byte("k8s\x00") }, nil),
	} {
		got, want := watchBothOf(t, runtime.ContentTypeProtobuf+";stream=watch", stream)
		if !sameEvents(got, want) {
			t.Errorf("%s: runtime %s\nclient-go %s", name, describeEvents(got), describeEvents(want))
		}
	}
}

// describeEvents summarises events for a failure message.
func describeEvents(events []watch.Event) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString(string(e.Type))
		switch o := e.Object.(type) {
		case *metav1.Status:
			b.WriteString("(" + o.Message + ")")
		case metav1.Object:
			b.WriteString("(" + reflect.TypeOf(o).Elem().Name() + " " + o.GetName() + ")")
		}
		b.WriteString(" ")
	}
	return "[" + b.String() + "]"
}

// A LIST's Content-Type decides how it is read, as in client-go: JSON
// labelled as HTML fails, protobuf labelled as JSON fails, YAML is read by
// client-go's decoder, an unparsable type is an internal error.
func TestListsAreReadByTheirContentType(t *testing.T) {
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "5"}, Items: []corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}}}
	js, err := encodeAs(runtime.ContentTypeJSON, list)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := encodeAs(runtime.ContentTypeProtobuf, list)
	if err != nil {
		t.Fatal(err)
	}
	yaml, err := encodeAs(runtime.ContentTypeYAML, list)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		contentType string
		body        []byte
	}{
		{"text/html", js},
		{runtime.ContentTypeJSON, pb},
		{runtime.ContentTypeProtobuf, js},
		{runtime.ContentTypeYAML, yaml},
		{runtime.ContentTypeJSON + "; charset=utf-8", js},
		{"application/json; charset", js},
		{runtime.ContentTypeJSON, nil},
		{runtime.ContentTypeProtobuf, nil},
	} {
		cs := serveClientset(t, streamServer{c.contentType, c.body})
		pods := cs.CoreV1().Pods("")
		got, err := clientListWatch[*corev1.Pod](pods, "pods").lw.ListWithContextFunc(t.Context(), metav1.ListOptions{})
		want, wantErr := pods.List(t.Context(), metav1.ListOptions{})
		if (err == nil) != (wantErr == nil) || apierrors.IsInternalError(err) != apierrors.IsInternalError(wantErr) {
			t.Errorf("%s: runtime %T %v; client-go %v", c.contentType, got, err, wantErr)
			continue
		}
		if err == nil && !sameList(got, want) {
			t.Errorf("%s: runtime %#v, client-go %#v", c.contentType, got, want)
		}
	}
}

// sameList reports whether a list the runtime returned holds what
// client-go's does: its metadata and items.
func sameList(got runtime.Object, want *corev1.PodList) bool {
	switch l := got.(type) {
	case *corev1.PodList:
		return reflect.DeepEqual(l.ListMeta, want.ListMeta) && reflect.DeepEqual(l.Items, want.Items)
	case *ItemList[*corev1.Pod]:
		if !reflect.DeepEqual(l.ListMeta, want.ListMeta) || len(l.Items) != len(want.Items) {
			return false
		}
		for i := range l.Items {
			if !reflect.DeepEqual(l.Items[i], &want.Items[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// A LIST that ends before its first byte fails as client-go's does, and the
// next one is decoded by the runtime again: nothing is switched off.
func TestAListCutShortLeavesTheNextOneToTheRuntime(t *testing.T) {
	pb, err := encodeAs(runtime.ContentTypeProtobuf, &corev1.PodList{Items: []corev1.Pod{{}}})
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int32
	cs := serveClientset(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", runtime.ContentTypeProtobuf)
		if n.Add(1) == 1 {
			w.Header().Set("Content-Length", "100") // headers, then the connection drops
			return
		}
		_, _ = w.Write(pb)
	}))
	lw := clientListWatch[*corev1.Pod](cs.CoreV1().Pods(""), "pods").lw
	if _, err := lw.ListWithContextFunc(t.Context(), metav1.ListOptions{}); err == nil {
		t.Error("a list cut short succeeded")
	}
	if got, err := lw.ListWithContextFunc(t.Context(), metav1.ListOptions{}); err != nil || reflect.TypeOf(got) != reflect.TypeFor[*ItemList[*corev1.Pod]]() {
		t.Errorf("second list: %T, %v; want an *ItemList, decoded by the runtime", got, err)
	}
}

// A JSON list with an item the runtime does not decode costs one request:
// client-go's decoder reads the same bytes.
func TestAJSONListTheRuntimeDoesNotDecodeCostsOneRequest(t *testing.T) {
	for _, body := range []string{
		`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":5}}]}`,
		`{"items":[{"metadata":{"name":"a"}}],"kind":"PodList","apiVersion":"v1","Kind":"PodList"}`,
		`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"metadata":{"continue":"c"},"items":[]}`,
	} {
		var requests atomic.Int32
		cs := serveClientset(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			requests.Add(1)
			w.Header().Set("Content-Type", runtime.ContentTypeJSON)
			_, _ = io.WriteString(w, body)
		}))
		pods := cs.CoreV1().Pods("")
		got, err := clientListWatch[*corev1.Pod](pods, "pods").lw.ListWithContextFunc(t.Context(), metav1.ListOptions{})
		if n := requests.Load(); n != 1 {
			t.Errorf("%s: %d requests, want 1", body, n)
		}
		want, wantErr := pods.List(t.Context(), metav1.ListOptions{})
		if (err == nil) != (wantErr == nil) || err == nil && !sameList(got, want) {
			t.Errorf("%s: runtime %#v, %v; client-go %#v, %v", body, got, err, want, wantErr)
		}
	}
}

// A consumer that takes one event and stalls, behind a stream of 2 MiB
// events, has at most the read-ahead budget of events decoded ahead of it:
// live memory stays within the budget, the events it holds, and those
// client-go's stream watcher holds (one taken, one being sent).
func TestAStalledConsumerHoldsAtMostTheReadAhead(t *testing.T) {
	const eventSize = 2 << 20
	big := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "big", Annotations: map[string]string{"x": strings.Repeat("y", eventSize)}}}
	ev, err := encodeWatchEvents(runtime.ContentTypeProtobuf, []watch.Event{{Type: watch.Modified, Object: big}})
	if err != nil {
		t.Fatal(err)
	}
	big = nil
	goruntime.GC()
	var before goruntime.MemStats
	goruntime.ReadMemStats(&before)
	written := atomic.Int64{}
	cs := serveClientset(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", runtime.ContentTypeProtobuf+";stream=watch")
		for range 300 {
			if _, err := w.Write(ev); err != nil {
				return
			}
			written.Add(1)
		}
	}))
	w, err := clientListWatch[*corev1.Pod](cs.CoreV1().Pods(""), "pods").lw.WatchFuncWithContext(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	<-w.ResultChan() // a consumer that takes one event, then stalls
	time.Sleep(2 * time.Second)
	goruntime.GC()
	var after goruntime.MemStats
	goruntime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	// Each event held is its decoded pod (the frame is freed once decoded):
	// the budget's events, the one taken, the one the stream watcher sends.
	limit := int64(ReadAheadBytes + 3*eventSize + 4<<20)
	t.Logf("%d MiB live after %d events written (limit %d MiB)", held>>20, written.Load(), limit>>20)
	if held > limit {
		t.Errorf("%d MiB live ahead of a stalled consumer, want at most %d MiB", held>>20, limit>>20)
	}
}

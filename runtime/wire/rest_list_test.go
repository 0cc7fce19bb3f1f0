package wire

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// listServer answers LIST and WATCH requests for pods with what its fields
// say, and records the query of every request.
type listServer struct {
	t    *testing.T
	list runtime.Object // what a LIST answers, in the encoding the client accepts first
	json bool           // answer in JSON even when the client accepts protobuf
	yaml bool           // answer in YAML, whatever the client accepts
	// status, when set, answers every request with this error.
	status *metav1.Status
	// corrupt, when set, changes a LIST body before it is sent.
	corrupt func([]byte) []byte
	// drop is how many of the next requests get their connection closed
	// without an answer.
	drop atomic.Int32

	mu      sync.Mutex
	queries []string
	accepts []string
	// answers are the media types of the next answers, one per request in
	// order, whatever the fields above and the client's Accept header say
	// (set with answerNext).
	answers []string
}

// answerNext has the next requests answered in mediaTypes, one each, in
// order.
func (s *listServer) answerNext(mediaTypes ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers = append(s.answers, mediaTypes...)
}

// requests returns the number of requests s received.
func (s *listServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queries)
}

func (s *listServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.queries = append(s.queries, r.URL.Path+"?"+r.URL.RawQuery)
	s.accepts = append(s.accepts, r.Header.Get("Accept"))
	var answer string
	if len(s.answers) > 0 {
		answer, s.answers = s.answers[0], s.answers[1:]
	}
	s.mu.Unlock()
	if s.drop.Add(-1) >= 0 {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			s.t.Error(err)
			return
		}
		_ = conn.Close()
		return
	}
	mediaType := runtime.ContentTypeJSON
	switch {
	case answer != "":
		mediaType = answer
	case s.yaml:
		mediaType = runtime.ContentTypeYAML
	case !s.json && strings.HasPrefix(r.Header.Get("Accept"), runtime.ContentTypeProtobuf):
		mediaType = runtime.ContentTypeProtobuf
	}
	obj, code := s.list, http.StatusOK
	if s.status != nil {
		obj, code = s.status, int(s.status.Code)
	} else if r.URL.Query().Get("watch") == "true" {
		w.Header().Set("Content-Type", mediaType)
		w.WriteHeader(http.StatusOK)
		return // an empty stream, closed at once
	}
	body, err := encodeAs(mediaType, obj)
	if err != nil {
		s.t.Error(err)
		return
	}
	if s.corrupt != nil {
		body = s.corrupt(body)
	}
	w.Header().Set("Content-Type", mediaType)
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// encodeAs encodes obj in mediaType as the API server does (core/v1, with
// the protobuf envelope).
func encodeAs(mediaType string, obj runtime.Object) ([]byte, error) {
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok {
		return nil, fmt.Errorf("no serializer for %s", mediaType)
	}
	return runtime.Encode(scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), obj)
}

// lastTwo returns the queries and Accept headers of the last two requests.
func (s *listServer) lastTwo() (queries, accepts [2]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.queries)
	if n < 2 {
		s.t.Fatalf("%d requests, want at least 2", n)
	}
	return [2]string(s.queries[n-2:]), [2]string(s.accepts[n-2:])
}

// serveList starts s and returns a real clientset for it.
func serveList(t *testing.T, s *listServer) kubernetes.Interface {
	t.Helper()
	s.t = t
	return serveClientset(t, s)
}

// serveClientset starts a server of h, closed when t ends, and returns a
// real clientset for it, with client-go's default content types.
func serveClientset(t *testing.T, h http.Handler) kubernetes.Interface {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// testPodList returns a list of generated pods with every list field set.
func testPodList(t *testing.T, n int) *corev1.PodList {
	t.Helper()
	pods := testpods.Generate(testpods.Config{Namespaces: 3, PodsPerNamespace: (n + 2) / 3, Nodes: 4, Seed: 7})[:n]
	remaining := int64(17)
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1234", Continue: "next-page", RemainingItemCount: &remaining}}
	for _, p := range pods {
		list.Items = append(list.Items, *p)
	}
	if n > 500 {
		// An item larger than the buffers items are read into.
		list.Items[n/2].Annotations["large"] = strings.Repeat("x", itemArena+itemArena/2)
	}
	return list
}

// listBoth lists through lw and through the typed client pods with opts,
// and returns both results; the two requests must be the same.
func listBoth(t *testing.T, s *listServer, lw *testListWatch, pods typedClient[*corev1.PodList], opts metav1.ListOptions) (runtime.Object, error, *corev1.PodList, error) {
	t.Helper()
	got, gotErr := lw.lw.ListWithContextFunc(context.Background(), opts)
	want, wantErr := pods.List(context.Background(), opts)
	queries, accepts := s.lastTwo()
	if queries[0] != queries[1] {
		t.Errorf("requests differ:\n ListWatch: %s\n typed:     %s", queries[0], queries[1])
	}
	if accepts[0] != accepts[1] {
		t.Errorf("Accept headers differ: ListWatch %q, typed %q", accepts[0], accepts[1])
	}
	return got, gotErr, want, wantErr
}

// itemsOf returns the items of a list either path returned, as pointers.
func itemsOf(t *testing.T, obj runtime.Object) []*corev1.Pod {
	t.Helper()
	switch l := obj.(type) {
	case *ItemList[*corev1.Pod]:
		return l.Items
	case *corev1.PodList:
		out := make([]*corev1.Pod, len(l.Items))
		for i := range l.Items {
			out[i] = &l.Items[i]
		}
		return out
	}
	t.Fatalf("list of type %T", obj)
	return nil
}

func TestClientListWatchDecodesProtobufListsAsTheTypedClientDoes(t *testing.T) {
	checkListsDecodedAsTheTypedClient(t, false)
}

func TestClientListWatchDecodesJSONListsAsTheTypedClientDoes(t *testing.T) {
	checkListsDecodedAsTheTypedClient(t, true)
}

// checkListsDecodedAsTheTypedClient lists pods through a ListWatch and
// through the typed client, served in JSON or in protobuf: the ListWatch
// must decode the answer itself, into the typed client's items.
func checkListsDecodedAsTheTypedClient(t *testing.T, inJSON bool) {
	for _, n := range []int{0, 1, 5, 3*decodeBatch + 7, 700} {
		s := &listServer{list: testPodList(t, n), json: inJSON}
		cs := serveList(t, s)
		for _, ns := range []string{"", "ns-1"} {
			pods := cs.CoreV1().Pods(ns)
			lw := clientListWatch[*corev1.Pod](pods, "pods")
			timeout := int64(30)
			opts := metav1.ListOptions{LabelSelector: "app=a,tier!=b", FieldSelector: "spec.nodeName=n", ResourceVersion: "0", ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan, Limit: 500, Continue: "c", TimeoutSeconds: &timeout}
			before := len(s.queries)
			got, gotErr, want, wantErr := listBoth(t, s, lw, pods, opts)
			if gotErr != nil || wantErr != nil {
				t.Fatalf("n=%d: errors %v, %v", n, gotErr, wantErr)
			}
			if requests := len(s.queries) - before; requests != 2 {
				t.Fatalf("n=%d: %d requests, want one of the ListWatch's and one of the typed client's", n, requests)
			}
			il, ok := got.(*ItemList[*corev1.Pod])
			if !ok {
				t.Fatalf("n=%d: got a %T, want the items decoded one by one (*ItemList)", n, got)
			}
			if !reflect.DeepEqual(il.ListMeta, want.ListMeta) {
				t.Errorf("n=%d: list metadata %+v, want %+v", n, il.ListMeta, want.ListMeta)
			}
			if len(il.Items) != len(want.Items) {
				t.Fatalf("n=%d: %d items, want %d", n, len(il.Items), len(want.Items))
			}
			for i := range want.Items {
				if !reflect.DeepEqual(il.Items[i], &want.Items[i]) {
					t.Fatalf("n=%d: item %d differs from the typed client's", n, i)
				}
			}
			if n > 0 && !strings.HasPrefix(s.accepts[len(s.accepts)-1], runtime.ContentTypeProtobuf) {
				t.Errorf("typed client accepted %q, want protobuf first", s.accepts[len(s.accepts)-1])
			}
			// What the reflector does with a list.
			copied := il.DeepCopyObject().(*ItemList[*corev1.Pod])
			if !reflect.DeepEqual(copied, il) || (n > 0 && copied.Items[0] == il.Items[0]) {
				t.Errorf("n=%d: DeepCopyObject is not a deep copy", n)
			}
		}
	}
}

// Responses the runtime does not decode itself (in another encoding, of
// another kind) are decoded by client-go's decoder from the same bytes, and
// responses it fails on fail as the typed client fails: in one request of
// the ListWatch's, never listed again through the typed client.
func TestClientListWatchDecodesOtherResponsesAsTheTypedClientDoes(t *testing.T) {
	list := testPodList(t, 4)
	corruptItem := func(body []byte) []byte {
		// The first byte of the first pod's name, replaced by a tag of an
		// impossible wire type: the list is cut into items, and decoding
		// that item fails.
		i := strings.Index(string(body), list.Items[0].Name)
		out := append([]byte(nil), body...)
		out[i-2] = 0x0f
		return out
	}
	corruptKind := func(body []byte) []byte {
		return []byte(strings.Replace(string(body), "PodList", "PodLisT", 1))
	}
	for _, tc := range []struct {
		name     string
		s        *listServer
		wantType any
		wantErr  func(error) bool
	}{
		{name: "yaml", s: &listServer{list: list, yaml: true}, wantType: &corev1.PodList{}},
		{name: "json, another kind", s: &listServer{list: list, json: true, corrupt: corruptKind}, wantErr: runtime.IsNotRegisteredError},
		{name: "json, bad item", s: &listServer{list: list, json: true, corrupt: func(b []byte) []byte {
			return []byte(strings.Replace(string(b), `"name":"`+list.Items[2].Name+`"`, `"name":7`, 1))
		}}, wantErr: func(err error) bool { return err != nil }},
		{name: "json, cut short", s: &listServer{list: list, json: true, corrupt: func(b []byte) []byte { return b[:len(b)/2] }}, wantErr: func(err error) bool { return err != nil }},
		{name: "another kind", s: &listServer{list: list, corrupt: corruptKind}, wantErr: runtime.IsNotRegisteredError},
		{name: "bad item", s: &listServer{list: list, corrupt: corruptItem}, wantErr: func(err error) bool { return err != nil }},
		{name: "cut short", s: &listServer{list: list, corrupt: func(b []byte) []byte { return b[:len(b)/2] }}, wantErr: func(err error) bool { return err != nil }},
		{name: "gone", s: &listServer{status: &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonExpired, Message: "too old resource version: 1 (2)"}}, wantErr: apierrors.IsResourceExpired},
		{name: "forbidden", s: &listServer{status: &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusForbidden, Reason: metav1.StatusReasonForbidden, Message: "no"}}, wantErr: apierrors.IsForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := serveList(t, tc.s)
			pods := cs.CoreV1().Pods("")
			lw := clientListWatch[*corev1.Pod](pods, "pods")
			got, gotErr, want, wantErr := listBoth(t, tc.s, lw, pods, metav1.ListOptions{})
			if n := tc.s.requests(); n != 2 {
				t.Errorf("%d requests, want one of the ListWatch's and one of the typed client's", n)
			}
			if tc.wantErr != nil {
				if !tc.wantErr(gotErr) || !tc.wantErr(wantErr) {
					t.Fatalf("errors %v and %v, want both to match", gotErr, wantErr)
				}
				if ae, ok := wantErr.(apierrors.APIStatus); ok && !reflect.DeepEqual(gotErr, wantErr) {
					t.Errorf("error %#v, want the typed client's %#v", gotErr, ae)
				}
				return
			}
			if gotErr != nil || wantErr != nil {
				t.Fatalf("errors %v, %v", gotErr, wantErr)
			}
			if reflect.TypeOf(got) != reflect.TypeOf(tc.wantType) {
				t.Fatalf("got a %T, want a %T", got, tc.wantType)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("list differs from the typed client's")
			}
		})
	}
}

// Each LIST response is decided alone: one in an encoding the runtime does
// not decode (YAML) is decoded by client-go's decoder, in one request, into
// the typed client's list; the next one in protobuf or JSON is decoded by
// the runtime again, into an *ItemList.
func TestClientListWatchDecidesEachListResponseAlone(t *testing.T) {
	s := &listServer{list: testPodList(t, 3)}
	cs := serveList(t, s)
	pods := cs.CoreV1().Pods("")
	lw := clientListWatch[*corev1.Pod](pods, "pods")
	for i, mediaType := range []string{runtime.ContentTypeYAML, runtime.ContentTypeProtobuf, runtime.ContentTypeYAML, runtime.ContentTypeJSON, runtime.ContentTypeYAML, runtime.ContentTypeProtobuf} {
		s.answerNext(mediaType, mediaType) // the ListWatch's request, then the typed client's
		before := s.requests()
		got, gotErr, want, wantErr := listBoth(t, s, lw, pods, metav1.ListOptions{})
		if gotErr != nil || wantErr != nil {
			t.Fatalf("list %d, in %s: errors %v, %v", i, mediaType, gotErr, wantErr)
		}
		if n := s.requests() - before; n != 2 {
			t.Fatalf("list %d, in %s: %d requests, want one of the ListWatch's and one of the typed client's", i, mediaType, n)
		}
		if mediaType == runtime.ContentTypeYAML {
			if _, ok := got.(*corev1.PodList); !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("list %d, in YAML: a %T, want the typed client's *corev1.PodList (client-go's decoder)", i, got)
			}
			continue
		}
		il, ok := got.(*ItemList[*corev1.Pod])
		if !ok {
			t.Fatalf("list %d, in %s: a %T, want the runtime's *ItemList", i, mediaType, got)
		}
		if !reflect.DeepEqual(il.ListMeta, want.ListMeta) || !reflect.DeepEqual(il.Items, itemsOf(t, want)) {
			t.Errorf("list %d, in %s: differs from the typed client's", i, mediaType)
		}
	}
}

func TestClientListWatchRetriesThroughTheTypedClientAfterAConnectionError(t *testing.T) {
	s := &listServer{list: testPodList(t, 3)}
	s.drop.Store(1)
	cs := serveList(t, s)
	lw := clientListWatch[*corev1.Pod](cs.CoreV1().Pods(""), "pods")
	got, err := lw.lw.ListWithContextFunc(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if items := itemsOf(t, got); len(items) != 3 || s.requests() != 2 {
		t.Errorf("%d items in %d requests, want 3 in 2", len(items), s.requests())
	}
	// Later lists decode the stream again.
	if got, err = lw.lw.ListWithContextFunc(context.Background(), metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := got.(*ItemList[*corev1.Pod]); !ok {
		t.Errorf("after the error, a %T, want an *ItemList", got)
	}
}

// noProtobuf is an API type without generated protobuf code.
type noProtobuf struct{ corev1.Pod }

func (p *noProtobuf) DeepCopyObject() runtime.Object { return &noProtobuf{*p.DeepCopy()} }

// Unmarshal hides the pod's: a method of another signature.
func (p *noProtobuf) Unmarshal() {}

// unnamedPod is a pointer to an unnamed struct type: no kind names it.
type unnamedPod = *struct{ corev1.Pod }

// unnamedPodList is a pointer to an unnamed struct type: no kind names it.
type unnamedPodList = *struct{ corev1.PodList }

// testRESTClients returns the REST client of a clientset's core/v1 group,
// and one of no group version, neither connected to a server.
func testRESTClients(t *testing.T) (rc, noVersion *rest.RESTClient) {
	t.Helper()
	cs, err := kubernetes.NewForConfig(&rest.Config{Host: "http://localhost:1"})
	if err != nil {
		t.Fatal(err)
	}
	noVersion, err = rest.RESTClientFor(&rest.Config{Host: "http://localhost:1", ContentConfig: rest.ContentConfig{
		GroupVersion: &schema.GroupVersion{}, NegotiatedSerializer: scheme.Codecs.WithoutConversion(),
	}})
	if err != nil {
		t.Fatal(err)
	}
	return cs.CoreV1().RESTClient().(*rest.RESTClient), noVersion
}

func TestNewListNeedsAClientOfAGroupVersionAndNamedTypes(t *testing.T) {
	rc, noVersion := testRESTClients(t)
	var nilClient *rest.RESTClient
	fakeClient := fake.NewClientset().CoreV1().RESTClient()
	for _, tc := range []struct {
		name string
		fast func(context.Context, metav1.ListOptions) (runtime.Object, error)
		want bool
	}{
		{"pods", NewList[*corev1.Pod, *corev1.PodList](rc, "", "pods", nil), true},
		{"no protobuf (decoded from JSON)", NewList[*noProtobuf, *corev1.PodList](rc, "", "pods", nil), true},
		{"nil client", NewList[*corev1.Pod, *corev1.PodList](nilClient, "", "pods", nil), false},
		{"fake clientset", NewList[*corev1.Pod, *corev1.PodList](fakeClient, "", "pods", nil), false},
		{"no resource", NewList[*corev1.Pod, *corev1.PodList](rc, "", "", nil), false},
		{"no version", NewList[*corev1.Pod, *corev1.PodList](noVersion, "", "pods", nil), false},
		{"unnamed type", NewList[unnamedPod, *corev1.PodList](rc, "", "pods", nil), false},
		{"unnamed list type", NewList[*corev1.Pod, unnamedPodList](rc, "", "pods", nil), false},
	} {
		if got := tc.fast != nil; got != tc.want {
			t.Errorf("%s: runtime's list %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestNewWatchNeedsAClientOfAGroupVersionAndANamedType(t *testing.T) {
	rc, noVersion := testRESTClients(t)
	var nilClient *rest.RESTClient
	fakeClient := fake.NewClientset().CoreV1().RESTClient()
	for _, tc := range []struct {
		name string
		fast func(context.Context, metav1.ListOptions) (watch.Interface, error)
		want bool
	}{
		{"pods", NewWatch[*corev1.Pod](rc, "", "pods"), true},
		{"no protobuf (decoded from JSON)", NewWatch[*noProtobuf](rc, "", "pods"), true},
		{"nil client", NewWatch[*corev1.Pod](nilClient, "", "pods"), false},
		{"fake clientset", NewWatch[*corev1.Pod](fakeClient, "", "pods"), false},
		{"no resource", NewWatch[*corev1.Pod](rc, "", ""), false},
		{"no version", NewWatch[*corev1.Pod](noVersion, "", "pods"), false},
		{"unnamed type", NewWatch[unnamedPod](rc, "", "pods"), false},
	} {
		if got := tc.fast != nil; got != tc.want {
			t.Errorf("%s: runtime's watch %v, want %v", tc.name, got, tc.want)
		}
	}
}

// typedClientListOf returns what client-go's typed client of pods returns
// for a LIST answered with body in mediaType: its decoder, negotiated by the
// typed client's codecs, decodes body into a new list, as Result.Into does.
func typedClientListOf(mediaType string, body []byte) (*corev1.PodList, error) {
	codecs := rest.CodecFactoryForGeneratedClient(scheme.Scheme, scheme.Codecs).WithoutConversion()
	decoder, err := runtime.NewClientNegotiator(codecs, corev1.SchemeGroupVersion).Decoder(mediaType, nil)
	if err != nil {
		return nil, err
	}
	into := &corev1.PodList{}
	out, _, err := decoder.Decode(body, nil, into)
	if err != nil {
		return nil, err
	}
	if status, ok := out.(*metav1.Status); ok && status.Status != metav1.StatusSuccess {
		return nil, apierrors.FromObject(status)
	}
	return into, nil
}

// checkListDecode fails t unless the runtime's decoding of body, a LIST
// response in mediaType, ends as the LIST then ends as the typed client's:
// a list it decoded is the typed client's list; a failure is one of the
// typed client's too; a body it hands over is handed whole to client-go's
// decoder (which then decides, as for the typed client).
func checkListDecode(t *testing.T, d interface {
	decode(*bufio.Reader, *recorder) (*ItemList[*corev1.Pod], outcome, error)
}, mediaType string, body []byte) {
	t.Helper()
	rec := &recorder{r: bytes.NewReader(body), on: true}
	got, out, err := d.decode(bufio.NewReaderSize(rec, 16), rec)
	want, wantErr := typedClientListOf(mediaType, body)
	switch out {
	case handOver:
		replay, err := io.ReadAll(rec.replay())
		if err != nil || !bytes.Equal(replay, body) {
			t.Fatalf("%q: handed over %d bytes (%v) of the body's %d, want all of them", body, len(replay), err, len(body))
		}
	case relist:
		// Listed again through the typed client.
	case failed:
		if err == nil || wantErr == nil {
			t.Fatalf("%q: the runtime fails (%v), the typed client's decoder gives a list (%v)", body, err, wantErr)
		}
	case decoded:
		if err != nil || wantErr != nil {
			t.Fatalf("%q: decoded (%v), the typed client's decoder fails: %v", body, err, wantErr)
		}
		if !reflect.DeepEqual(got.ListMeta, want.ListMeta) || len(got.Items) != len(want.Items) {
			t.Fatalf("%q: list %+v with %d items, the typed client's %+v with %d", body, got.ListMeta, len(got.Items), want.ListMeta, len(want.Items))
		}
		for i := range want.Items {
			if !reflect.DeepEqual(got.Items[i], &want.Items[i]) {
				t.Fatalf("%q: item %d differs from the typed client's", body, i)
			}
		}
	default:
		t.Fatalf("%q: outcome %d", body, out)
	}
}

// FuzzProtobufList checks the streaming decode of protobuf LIST bodies
// against client-go's decoder: what the runtime decodes, the typed client
// decodes to the same list; where it fails, the typed client fails; what it
// hands over, it hands over whole.
func FuzzProtobufList(f *testing.F) {
	for _, n := range []int{0, 1, 3} {
		list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "9"}}
		for i := range n {
			list.Items = append(list.Items, corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: strings.Repeat("p", i+1), Labels: map[string]string{"a": "b"}}})
		}
		body, err := encodeAs(runtime.ContentTypeProtobuf, list)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body)
		if n == 3 {
			// The second item's name, its first byte replaced by a tag of
			// an impossible wire type: that item fails to decode.
			bad := bytes.Clone(body)
			bad[bytes.Index(bad, []byte("pp"))-2] = 0x0f
			f.Add(bad)
		}
	}
	// Repeated fields, which decoding merges.
	meta := func(m metav1.ListMeta) []byte {
		b, err := m.Marshal()
		if err != nil {
			f.Fatal(err)
		}
		return protowire.AppendBytes(protowire.AppendTag(nil, listMetadata, protowire.BytesType), b)
	}
	pod, err := (&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}).Marshal()
	if err != nil {
		f.Fatal(err)
	}
	continueOnly := protowire.AppendBytes(protowire.AppendTag(nil, 3, protowire.BytesType), []byte("c")) // ListMeta.continue
	raw := append(meta(metav1.ListMeta{ResourceVersion: "1"}), protowire.AppendBytes(protowire.AppendTag(nil, listMetadata, protowire.BytesType), continueOnly)...)
	raw = protowire.AppendBytes(protowire.AppendTag(raw, listItems, protowire.BytesType), pod)
	typeMeta := protowire.AppendBytes(protowire.AppendTag(nil, typeMetaAPIVersion, protowire.BytesType), []byte("v1"))
	typeMeta = protowire.AppendBytes(protowire.AppendTag(typeMeta, typeMetaKind, protowire.BytesType), []byte("PodList"))
	body := protowire.AppendBytes(protowire.AppendTag([]byte("k8s\x00"), unknownTypeMeta, protowire.BytesType), typeMeta)
	body = protowire.AppendBytes(protowire.AppendTag(body, unknownRaw, protowire.BytesType), raw)
	f.Add(body)
	// A second list in the envelope, which replaces the first.
	f.Add(protowire.AppendBytes(protowire.AppendTag(bytes.Clone(body), unknownRaw, protowire.BytesType), raw))
	// A malformed list (a varint field without its value) replaced by a
	// second, empty one: the envelope's generated code keeps the last, and
	// never reads the first.
	f.Add([]byte("k8s\x00\n\r\n\x02v1\x12\aPodList\x12\x010\x12\x00"))
	f.Add([]byte("k8s\x00"))
	f.Add([]byte(`{"kind":"PodList"}`))
	d := &protobufList[*corev1.Pod]{apiVersion: "v1", listKind: "PodList", newItem: func() *corev1.Pod { return &corev1.Pod{} }}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkListDecode(t, d, runtime.ContentTypeProtobuf, body)
	})
}

package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// jsonValues reads every value of stream with readJSONValue, through a
// reader that returns one byte per Read when oneByte is set (so that every
// value spans many reads), into a small arena; it returns the values, their
// nesting depths, and the error that ended the stream.
func jsonValues(stream string, oneByte bool, limit int) ([]string, []int, error) {
	var r io.Reader = strings.NewReader(stream)
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	br := bufio.NewReaderSize(r, 16)
	a := &arena{max: 64, read: func() int64 { return 0 }}
	var (
		values []string
		depths []int
	)
	for {
		v, depth, err := readJSONValue(br, a, limit)
		if err != nil {
			return values, depths, err
		}
		values = append(values, string(v))
		depths = append(depths, depth)
	}
}

// jsonDepth returns the nesting depth of the arrays and objects of the
// valid JSON value v, as encoding/json's decoder reads its tokens.
func jsonDepth(v string) int {
	dec := json.NewDecoder(strings.NewReader(v))
	depth, deepest := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return deepest
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			deepest = max(deepest, depth)
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

// isJSONScalar reports whether the JSON value v is a number or a literal,
// which only whitespace or a bracket ends.
func isJSONScalar(v string) bool {
	return v != "" && !strings.ContainsAny(v[:1], `{["`)
}

func TestReadJSONValueCutsValuesAtTheirEnd(t *testing.T) {
	values := []string{
		`{}`,
		`[]`,
		`{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a"}}}`,
		`{"s":"brackets } ] { [ in a string"}`,
		`{"s":"an escaped quote \" and } bracket","t":"\\"}`,
		`{"s":"a backslash before the quote \\","n":[1,[2,{"x":"]"}]]}`,
		`[{"a":1},{"b":"\u007d"}]`,
		`{"long":"` + strings.Repeat("x", 300) + `"}`,
		`"a string with } and \" in it"`,
		`""`,
	}
	scalars := []string{`12`, `-1.5e3`, `null`, `true`, `false`}
	for _, sep := range []string{"", "\n", " \t\r\n "} {
		want := values
		if sep != "" {
			// Only whitespace, a comma or a bracket ends a number or a
			// literal.
			want = append(slices.Clone(scalars), values...)
			want = append(want, scalars...)
		}
		stream := sep + strings.Join(want, sep) + sep
		for _, oneByte := range []bool{false, true} {
			got, depths, err := jsonValues(stream, oneByte, 1<<20)
			if err != io.EOF {
				t.Fatalf("separator %q, one byte %v: error %v, want io.EOF after the values", sep, oneByte, err)
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("separator %q, one byte %v: values\n%q\nwant\n%q", sep, oneByte, got, want)
			}
			for i, v := range want {
				if depths[i] != jsonDepth(v) {
					t.Errorf("%s: depth %d, want %d", v, depths[i], jsonDepth(v))
				}
			}
		}
	}
}

func TestReadJSONValueReportsHowTheStreamEnds(t *testing.T) {
	for _, tc := range []struct {
		stream string
		values int
		want   error
	}{
		{"", 0, io.EOF},
		{" \n ", 0, io.EOF},
		{`{"a":1}` + "\n" + `{"a":`, 1, io.ErrUnexpectedEOF},
		{`{"a":"}`, 0, io.ErrUnexpectedEOF},
		{`"an open string`, 0, io.ErrUnexpectedEOF},
		{`[1,"]"`, 0, io.ErrUnexpectedEOF},
		{`{"a":1}` + "\n   ", 1, io.EOF},
		{`"a string"`, 1, io.EOF},
		{`12`, 1, io.EOF},
		{`{"a":1} null`, 2, io.EOF},
		{`true false 1.5 "s"`, 4, io.EOF},
		{`{"a":"` + strings.Repeat("x", 100) + `"}`, 0, streaming.ErrObjectTooLarge},
		{`"` + strings.Repeat("x", 100) + `"`, 0, streaming.ErrObjectTooLarge},
		{`{"a":1} {"b":"` + strings.Repeat("x", 100) + `"}`, 1, streaming.ErrObjectTooLarge},
		{`{"a":1} {"b":"` + strings.Repeat("x", 100), 1, io.ErrUnexpectedEOF},
	} {
		for _, oneByte := range []bool{false, true} {
			got, _, err := jsonValues(tc.stream, oneByte, 64)
			if len(got) != tc.values || !errors.Is(err, tc.want) {
				t.Errorf("%q, one byte %v: %d values, error %v; want %d, %v", tc.stream, oneByte, len(got), err, tc.values, tc.want)
			}
		}
	}
}

func TestReadJSONValueReturnsTheBytesOfAValueCutShort(t *testing.T) {
	for _, stream := range []string{`  {"a":"}`, "\n" + `[1,{"b":[`, `"abc`} {
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = strings.NewReader(stream)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			v, _, err := readJSONValue(bufio.NewReaderSize(r, 16), nil, 1<<20)
			if err != io.ErrUnexpectedEOF || string(v) != strings.TrimLeft(stream, " \n") {
				t.Errorf("%q, one byte %v: %q, %v; want the value's bytes and io.ErrUnexpectedEOF", stream, oneByte, v, err)
			}
		}
	}
}

func TestReadJSONValueReadsPastAValueTooLarge(t *testing.T) {
	stream := `{"a":1} {"b":"` + strings.Repeat("}", 100) + `"} {"c":[2]}`
	br := bufio.NewReaderSize(strings.NewReader(stream), 16)
	for _, want := range []struct {
		value string
		err   error
	}{{`{"a":1}`, nil}, {"", streaming.ErrObjectTooLarge}, {`{"c":[2]}`, nil}, {"", io.EOF}} {
		v, _, err := readJSONValue(br, nil, 64)
		if string(v) != want.value || err != want.err {
			t.Fatalf("%q, %v; want %q, %v", v, err, want.value, want.err)
		}
	}
}

// FuzzReadJSONValue checks readJSONValue against encoding/json's decoder on
// streams of two valid JSON values: it must cut the same values, at the
// same nesting depths.
func FuzzReadJSONValue(f *testing.F) {
	f.Add(`{"a":"}\\\"{"}`, `[1,{"b":[]}]`, "\n")
	f.Add(`{}`, `{"x":"\u005c"}`, " ")
	f.Add(`"a \" string"`, `12`, "")
	f.Add(`-1.5e3`, `null`, "\t")
	f.Fuzz(func(t *testing.T, a, b, sep string) {
		if strings.Trim(sep, " \t\r\n") != "" {
			return
		}
		var want []string
		for _, v := range []string{a, b} {
			if !json.Valid([]byte(v)) {
				return
			}
			want = append(want, strings.Trim(v, " \t\r\n"))
		}
		if sep == "" && isJSONScalar(want[0]) {
			return // 1 and 2 make the value 12
		}
		stream := strings.Join(want, sep)
		for _, oneByte := range []bool{false, true} {
			got, depths, err := jsonValues(stream, oneByte, 1<<20)
			if err != io.EOF || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Fatalf("stream %q, one byte %v: values %q, error %v; want %q", stream, oneByte, got, err, want)
			}
			for i, v := range want {
				if depths[i] != jsonDepth(v) {
					t.Fatalf("%q: depth %d, want %d", v, depths[i], jsonDepth(v))
				}
			}
		}
	})
}

// Widget is an API type without generated protobuf code, as custom
// resources are; its kind is its name, as the runtime expects.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              widgetSpec `json:"spec"`
}

type widgetSpec struct {
	Color string   `json:"color"`
	Sizes []int32  `json:"sizes,omitempty"`
	Extra *float64 `json:"extra,omitempty"`
}

func (w *Widget) DeepCopyObject() runtime.Object {
	out := *w
	w.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.Sizes = slices.Clone(w.Spec.Sizes)
	if w.Spec.Extra != nil {
		extra := *w.Spec.Extra
		out.Spec.Extra = &extra
	}
	return &out
}

var widgetVersion = schema.GroupVersion{Group: "shop.example.com", Version: "v1"}

// widgetServer answers every request with events (a watch stream or a
// list), in JSON, as the API server answers for a custom resource; it
// records the Accept headers.
type widgetServer struct {
	events  []byte
	accepts []string
}

func (s *widgetServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.accepts = append(s.accepts, r.Header.Get("Accept"))
	w.Header().Set("Content-Type", runtime.ContentTypeJSON)
	_, _ = w.Write(s.events)
}

// serveWidgets starts s and returns a REST client for it, as the generated
// clientset of the custom resource Widget makes.
func serveWidgets(t *testing.T, s *widgetServer) *rest.RESTClient {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	scheme := runtime.NewScheme()
	scheme.AddKnownTypes(widgetVersion, &Widget{}, &WidgetList{})
	metav1.AddToGroupVersion(scheme, widgetVersion)
	rc, err := rest.RESTClientFor(&rest.Config{
		Host:    srv.URL,
		APIPath: "/apis",
		QPS:     -1,
		ContentConfig: rest.ContentConfig{
			GroupVersion:         &widgetVersion,
			NegotiatedSerializer: rest.CodecFactoryForGeneratedClient(scheme, serializer.NewCodecFactory(scheme)).WithoutConversion(),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rc
}

// widgetEvents returns the JSON stream of n events of every type over
// widgets, and an ERROR event.
func widgetEvents(t *testing.T, n int) []byte {
	t.Helper()
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	types := []watch.EventType{watch.Added, watch.Modified, watch.Deleted, watch.Bookmark}
	for i := range n {
		extra := float64(i) / 3
		w := &Widget{
			TypeMeta:   metav1.TypeMeta{APIVersion: widgetVersion.String(), Kind: "Widget"},
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("w-", i), Namespace: "ns", ResourceVersion: fmt.Sprint(100 + i), Labels: map[string]string{"app": "shop"}},
			Spec:       widgetSpec{Color: `"red" \ {}`, Sizes: []int32{int32(i), 2}, Extra: &extra},
		}
		raw, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(&metav1.WatchEvent{Type: string(types[i%len(types)]), Object: runtime.RawExtension{Raw: raw}}); err != nil {
			t.Fatal(err)
		}
	}
	status, err := json.Marshal(&metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonExpired})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode(&metav1.WatchEvent{Type: string(watch.Error), Object: runtime.RawExtension{Raw: status}}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// A type without protobuf code is watched in JSON, which the runtime
// decodes itself into the objects client-go's REST client decodes, for
// the generated clientset of a custom resource.
func TestNewWatchDecodesJSONForTypesWithoutProtobuf(t *testing.T) {
	for _, n := range []int{0, 1, 300} {
		s := &widgetServer{events: widgetEvents(t, n)}
		rc := serveWidgets(t, s)
		typed := func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.Watch = true
			return rc.Get().Namespace("ns").Resource("widgets").VersionedParams(&opts, metav1.ParameterCodec).Watch(ctx)
		}
		own := NewWatch[*Widget](rc, "ns", "widgets")
		if own == nil {
			t.Fatal("no REST watch for a type without protobuf code")
		}
		w, err := own(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := collect(t, w)
		if w, err = typed(context.Background(), metav1.ListOptions{}); err != nil {
			t.Fatal(err)
		}
		want := collect(t, w)
		if len(want) != n+1 || !reflect.DeepEqual(got, want) {
			t.Fatalf("n=%d: %d events, client-go's REST client %d; they differ\n%#v\n%#v", n, len(got), len(want), got, want)
		}
		if n > 0 {
			if w := got[0].Object.(*Widget); w.Kind != "" || w.Spec.Color != `"red" \ {}` || *w.Spec.Extra != 0 {
				t.Errorf("first widget %+v, want its spec, and its kind cleared as client-go clears it", w)
			}
		}
		if s.accepts[0] != runtime.ContentTypeJSON {
			t.Errorf("the watch accepted %q, want JSON only", s.accepts[0])
		}
	}
}

// jsonWatchCases are watch streams in JSON, each decoded alike by the
// runtime's JSON format and by client-go's serializer and object decoder
// alone.
var jsonWatchCases = []string{
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","labels":{"x":"}"}}}}`,
	`{"object":{"apiVersion":"v1","kind":"Pod","spec":{"nodeName":"n"}},"type":"MODIFIED"}` + "\n",
	` { "type" : "DELETED" , "object" : { "kind" : "Pod" , "apiVersion" : "v1" } } `,
	`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"7","annotations":{"k8s.io/initial-events-end":"true"}}}}`,
	`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","code":410}}`,
	`{"type":"ADDED","object":{"kind":"Status","apiVersion":"v1","status":"Failure","code":410}}`,
	`{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","data":{"a":"b"}}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v2"}}`,
	`{"type":"ADDED","object":{"apiVersion":"v1","metadata":{"name":"no kind"}}}`,
	`{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"no version"}}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","KIND":"Status","status":"Failure"}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","Kind":"ConfigMap"}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","ApiVersion":"v2"}}`,
	`{"type":"ADDED","object":{"kind":"Pod","kind":"ConfigMap","apiVersion":"v1"}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","spec":{"nodeName":5}}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","spec":{"nodeName":"n",}}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"\u0061"},"k\u0069nd":"Pod"}}`,
	`{"type":"ADDED","object":{"kind":"P\u006fd","apiVersion":"v1"}}`,
	`{"type":"AD\u0044ED","object":{"kind":"Pod","apiVersion":"v1"}}`,
	`{"type":"ADDED","type":"DELETED","object":{"kind":"Pod","apiVersion":"v1"}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"},"object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"second"}}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"},"extra":[1,2]}`,
	`{"type":"ADDED","object":null}`,
	`{"type":"ADDED"}`,
	`{"type":5,"object":{"kind":"Pod","apiVersion":"v1"}}`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}} trailing`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}`,
	`["ADDED",{"kind":"Pod","apiVersion":"v1"}]`,
	`17`,
	`"ADDED"`,
	`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1"}} {"type":"DELETED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"}}}`,
	// Nested as deep as encoding/json reads, and one deeper.
	nestedJSONEvent(maxNestingDepth),
	nestedJSONEvent(maxNestingDepth + 1),
}

// nestedJSONEvent returns an ADDED event of a pod with an unknown member
// nested so that the event is nested depth deep.
func nestedJSONEvent(depth int) string {
	return `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","x":` + strings.Repeat("[", depth-2) + strings.Repeat("]", depth-2) + `}}`
}

// clientGoFormat is a watchFormat that reads events as its format does,
// and leaves every event and every object to client-go's serializer and
// object decoder.
type clientGoFormat struct{ watchFormat }

func (clientGoFormat) event(frame) (string, []byte, bool) { return "", nil, false }

func (clientGoFormat) object([]byte) (runtime.Object, error, bool) { return nil, nil, false }

// podJSONStreams returns two decodings of a watch of pods in JSON, over the
// serializer and object decoder client-go's negotiator gives the typed
// client of pods: fast with the runtime's JSON format, clientGo with that
// format's reading only.
func podJSONStreams(t testing.TB) (fast, clientGo *watchStream) {
	t.Helper()
	codecs := rest.CodecFactoryForGeneratedClient(scheme.Scheme, scheme.Codecs).WithoutConversion()
	objects, events, _, err := runtime.NewClientNegotiator(codecs, corev1.SchemeGroupVersion).StreamDecoder(runtime.ContentTypeJSON, nil)
	if err != nil {
		t.Fatal(err)
	}
	format := jsonFormat[*corev1.Pod]{gvk: corev1.SchemeGroupVersion.WithKind("Pod"), newItem: func() *corev1.Pod { return &corev1.Pod{} }}
	return &watchStream{format: format, events: events, objects: objects},
		&watchStream{format: clientGoFormat{format}, events: events, objects: objects}
}

// decodeFrame decodes f with s, as a decoding goroutine of s does.
func decodeFrame(s *watchStream, f frame) *watchEvent {
	ev := &watchEvent{done: make(chan struct{})}
	s.decode(ev, frame{b: bytes.Clone(f.b), size: f.size, deep: f.deep})
	return ev
}

// sameErrorClass reports whether the errors got and want are of the same
// class, as client-go's watch tells them apart: io.EOF and
// io.ErrUnexpectedEOF by identity, any other error by being one.
func sameErrorClass(got, want error) bool {
	for _, quiet := range []error{io.EOF, io.ErrUnexpectedEOF} {
		if (got == quiet) != (want == quiet) {
			return false
		}
	}
	return (got == nil) == (want == nil)
}

// checkJSONWatchDecode reads the events of stream as the runtime's JSON
// format reads them, and fails t unless fast decodes each as clientGo does:
// the same type, the same object, errors of the same class. It returns the
// number of events read.
func checkJSONWatchDecode(t *testing.T, fast, clientGo *watchStream, stream string) int {
	t.Helper()
	br := bufio.NewReaderSize(strings.NewReader(stream), 16)
	a := &arena{max: decodeChunk, read: func() int64 { return math.MaxInt64 }}
	for n := 0; ; n++ {
		f, err := fast.format.read(br, a, func(int) bool { return true })
		if err != nil {
			return n
		}
		got, want := decodeFrame(fast, f), decodeFrame(clientGo, f)
		if got.typ != want.typ || !reflect.DeepEqual(got.obj, want.obj) || !sameErrorClass(got.eventErr, want.eventErr) || !sameErrorClass(got.objErr, want.objErr) {
			t.Errorf("%.200s:\n got %q, %#v, errors %v, %v\nwant %q, %#v, errors %v, %v", f.b, got.typ, got.obj, got.eventErr, got.objErr, want.typ, want.obj, want.eventErr, want.objErr)
		}
	}
}

func TestJSONWatchDecodesAsTheSerializer(t *testing.T) {
	fast, clientGo := podJSONStreams(t)
	for _, stream := range jsonWatchCases {
		checkJSONWatchDecode(t, fast, clientGo, stream)
	}
	// Events as the API server writes them: the runtime decodes every pod
	// itself.
	events := testWatchEvents(t, 20)
	stream, err := encodeWatchEvents(runtime.ContentTypeJSON, events)
	if err != nil {
		t.Fatal(err)
	}
	if n := checkJSONWatchDecode(t, fast, clientGo, string(stream)); n != len(events) {
		t.Fatalf("%d events read, want %d", n, len(events))
	}
	for _, f := range strings.Split(strings.TrimSuffix(string(stream), "\n"), "\n") {
		typ, raw, ok := fast.format.event(frame{b: []byte(f)})
		if !ok {
			t.Errorf("the API server's event was not cut: %.80s", f)
			continue
		}
		if _, _, ok := fast.format.object(raw); typ != string(watch.Error) && !ok {
			t.Errorf("the API server's pod was not decoded by the runtime: %.80s", raw)
		}
	}
}

// FuzzJSONWatchDecode checks that the runtime's JSON format decodes the
// events of any stream as client-go's serializer and object decoder alone
// do.
func FuzzJSONWatchDecode(f *testing.F) {
	for _, stream := range jsonWatchCases {
		f.Add(stream)
	}
	fast, clientGo := podJSONStreams(f)
	f.Fuzz(func(t *testing.T, stream string) {
		checkJSONWatchDecode(t, fast, clientGo, stream)
	})
}

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}

func (l *WidgetList) DeepCopyObject() runtime.Object {
	out := &WidgetList{TypeMeta: l.TypeMeta}
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	for i := range l.Items {
		out.Items = append(out.Items, *l.Items[i].DeepCopyObject().(*Widget))
	}
	return out
}

// A list of a type without protobuf code is read in JSON, which the
// runtime decodes itself into the items client-go's REST client decodes.
func TestNewListDecodesJSONForTypesWithoutProtobuf(t *testing.T) {
	for _, n := range []int{0, 1, 3*decodeBatch + 7} {
		list := &WidgetList{TypeMeta: metav1.TypeMeta{APIVersion: widgetVersion.String(), Kind: "WidgetList"}, ListMeta: metav1.ListMeta{ResourceVersion: "77"}}
		for i := range n {
			extra := float64(i) / 7
			list.Items = append(list.Items, Widget{
				TypeMeta:   metav1.TypeMeta{APIVersion: widgetVersion.String(), Kind: "Widget"},
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("w-", i), Namespace: "ns"},
				Spec:       widgetSpec{Color: `{"not":"json"}`, Sizes: []int32{int32(i)}, Extra: &extra},
			})
		}
		body, err := json.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		s := &widgetServer{events: body}
		rc := serveWidgets(t, s)
		typed := func(ctx context.Context, opts metav1.ListOptions) (*WidgetList, error) {
			out := &WidgetList{}
			err := rc.Get().Namespace("ns").Resource("widgets").VersionedParams(&opts, metav1.ParameterCodec).Do(ctx).Into(out)
			return out, err
		}
		own := NewList[*Widget](rc, "ns", "widgets", func(context.Context, metav1.ListOptions) (*WidgetList, error) {
			return nil, errors.New("the typed client's list was called")
		})
		if own == nil {
			t.Fatal("no REST list for a type without protobuf code")
		}
		got, err := own(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := typed(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		il, ok := got.(*ItemList[*Widget])
		if !ok {
			t.Fatalf("n=%d: a %T, want the runtime's *ItemList", n, got)
		}
		if len(il.Items) != n || len(want.Items) != n || !reflect.DeepEqual(il.ListMeta, want.ListMeta) {
			t.Fatalf("n=%d: %d items (%+v), client-go's REST client %d (%+v)", n, len(il.Items), il.ListMeta, len(want.Items), want.ListMeta)
		}
		for i := range want.Items {
			if !reflect.DeepEqual(il.Items[i], &want.Items[i]) {
				t.Fatalf("n=%d: item %d differs from client-go's", n, i)
			}
		}
		if s.accepts[0] != runtime.ContentTypeJSON {
			t.Errorf("the list accepted %q, want JSON only", s.accepts[0])
		}
	}
}

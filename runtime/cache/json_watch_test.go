package cache

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	"k8s.io/client-go/rest"
)

// jsonValues reads every value of stream with readJSONValue, through a
// reader that returns one byte per Read when oneByte is set (so that every
// value spans many reads), with a small arena.
func jsonValues(stream string, oneByte bool, limit int) ([]string, error) {
	var r io.Reader = strings.NewReader(stream)
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	br := bufio.NewReaderSize(r, 16)
	var arena []byte
	var out []string
	for {
		v, err := readJSONValue(br, &arena, 64, limit)
		if err != nil {
			return out, err
		}
		out = append(out, string(v))
	}
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
	}
	for _, sep := range []string{"", "\n", " \t\r\n "} {
		stream := sep + strings.Join(values, sep) + sep
		for _, oneByte := range []bool{false, true} {
			got, err := jsonValues(stream, oneByte, 1<<20)
			if err != io.EOF {
				t.Fatalf("separator %q, one byte %v: error %v, want io.EOF after the values", sep, oneByte, err)
			}
			if strings.Join(got, "|") != strings.Join(values, "|") {
				t.Fatalf("separator %q, one byte %v: values\n%q\nwant\n%q", sep, oneByte, got, values)
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
		{`{"a":1}` + "\n   ", 1, io.EOF},
		{`{"a":"` + strings.Repeat("x", 100) + `"}`, 0, streaming.ErrObjectTooLarge},
		{`{"a":1} {"b":"` + strings.Repeat("x", 100) + `"}`, 1, streaming.ErrObjectTooLarge},
	} {
		for _, oneByte := range []bool{false, true} {
			got, err := jsonValues(tc.stream, oneByte, 64)
			if len(got) != tc.values || !errors.Is(err, tc.want) {
				t.Errorf("%q, one byte %v: %d values, error %v; want %d, %v", tc.stream, oneByte, len(got), err, tc.values, tc.want)
			}
		}
	}
	for _, stream := range []string{`"a string"`, `12`, `{"a":1} null`} {
		got, err := jsonValues(stream, false, 64)
		if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || len(got) != strings.Count(stream, "{") {
			t.Errorf("%q: %d values, error %v; want an error of the value that is no object", stream, len(got), err)
		}
	}
}

// FuzzReadJSONValue checks readJSONValue against encoding/json's decoder on
// streams of valid JSON objects and arrays: it must cut the same values.
func FuzzReadJSONValue(f *testing.F) {
	f.Add(`{"a":"}\\\"{"}`, `[1,{"b":[]}]`, "\n")
	f.Add(`{}`, `{"x":"\u005c"}`, " ")
	f.Fuzz(func(t *testing.T, a, b, sep string) {
		if strings.Trim(sep, " \t\r\n") != "" {
			return
		}
		var want []string
		for _, v := range []string{a, b} {
			var compact bytes.Buffer
			if json.Compact(&compact, []byte(v)) != nil || !strings.ContainsAny(compact.String()[:1], "{[") {
				return // not an object or an array
			}
			want = append(want, strings.Trim(v, " \t\r\n"))
		}
		stream := strings.Join(want, sep)
		for _, oneByte := range []bool{false, true} {
			got, err := jsonValues(stream, oneByte, 1<<20)
			if err != io.EOF || strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Fatalf("stream %q, one byte %v: values %q, error %v; want %q", stream, oneByte, got, err, want)
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
func TestRESTWatchDecodesJSONForTypesWithoutProtobuf(t *testing.T) {
	for _, n := range []int{0, 1, 300} {
		s := &widgetServer{events: widgetEvents(t, n)}
		rc := serveWidgets(t, s)
		typed := func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.Watch = true
			return rc.Get().Namespace("ns").Resource("widgets").VersionedParams(&opts, metav1.ParameterCodec).Watch(ctx)
		}
		own := newRESTWatch[*Widget](rc, "ns", "widgets", func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			return nil, errors.New("the typed client's watch was called")
		})
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

// jsonWatchCases are watch events in JSON, each decoded alike by the
// format's own cutting and by the serializer alone.
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
}

// checkJSONWatchDecode fails t unless the JSON format decodes frame as the
// serializer alone does: the same type, the same object, the same error.
func checkJSONWatchDecode(t *testing.T, j jsonWatch[*corev1.Pod], frame string) {
	t.Helper()
	typ, obj, err := j.decode([]byte(frame))
	wantTyp, wantObj, wantErr := j.decodeBySerializer([]byte(frame))
	if typ != wantTyp || !reflect.DeepEqual(obj, wantObj) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%s:\n got %q, %#v, %v\nwant %q, %#v, %v", frame, typ, obj, err, wantTyp, wantObj, wantErr)
	}
}

func TestJSONWatchDecodesAsTheSerializer(t *testing.T) {
	j := newJSONWatch(corev1.SchemeGroupVersion, "Pod", func() *corev1.Pod { return &corev1.Pod{} })
	for _, frame := range jsonWatchCases {
		checkJSONWatchDecode(t, j, frame)
	}
	// Events as the API server writes them.
	events := testWatchEvents(t, 20)
	stream, err := encodeWatchEvents(runtime.ContentTypeJSON, events)
	if err != nil {
		t.Fatal(err)
	}
	frames := strings.Split(strings.TrimSuffix(string(stream), "\n"), "\n")
	if len(frames) != len(events) {
		t.Fatalf("%d frames for %d events", len(frames), len(events))
	}
	for _, frame := range frames {
		if _, _, ok := cutJSONWatchEvent([]byte(frame)); !ok {
			t.Errorf("the API server's event was not cut: %.80s", frame)
		}
		checkJSONWatchDecode(t, j, frame)
	}
}

// FuzzJSONWatchDecode checks that the JSON format decodes any frame as the
// serializer alone does.
func FuzzJSONWatchDecode(f *testing.F) {
	for _, frame := range jsonWatchCases {
		f.Add(frame)
	}
	j := newJSONWatch(corev1.SchemeGroupVersion, "Pod", func() *corev1.Pod { return &corev1.Pod{} })
	f.Fuzz(func(t *testing.T, frame string) {
		checkJSONWatchDecode(t, j, frame)
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
func TestRESTListDecodesJSONForTypesWithoutProtobuf(t *testing.T) {
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
		own := newRESTList[*Widget](rc, "ns", "widgets", func(context.Context, metav1.ListOptions) (*WidgetList, error) {
			return nil, errors.New("the typed client's list was called")
		})
		got, err := own(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := typed(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		il := got.(*ItemList[*Widget])
		if len(il.Items) != n || len(want.Items) != n || !reflect.DeepEqual(il.ListMeta, want.ListMeta) {
			t.Fatalf("n=%d: %d items (%+v), client-go's REST client %d (%+v)", n, len(il.Items), il.ListMeta, len(want.Items), want.ListMeta)
		}
		for i := range want.Items {
			if !reflect.DeepEqual(il.Items[i], &want.Items[i]) {
				t.Fatalf("n=%d: item %d differs from client-go's", n, i)
			}
		}
		if s.accepts[0] != s.accepts[1] || strings.Contains(s.accepts[0], "protobuf") {
			t.Errorf("the list accepted %q, client-go's %q; want the same, without protobuf", s.accepts[0], s.accepts[1])
		}
	}
}

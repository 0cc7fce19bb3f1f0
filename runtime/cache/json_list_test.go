package cache

import (
	"bufio"
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/client-go/kubernetes/scheme"
)

// jsonListCases are JSON list bodies, each decoded by the runtime as the
// serializer decodes it, or left to the serializer.
var jsonListCases = []string{
	`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"5","continue":"c"},"items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b","labels":{"x":"]"}}}]}`,
	` {"items":[],"metadata":{}} `,
	`{"items":null}`,
	`{}`,
	`{"items":[null,{"metadata":{"name":"a"}}]}`,
	`{"items":[{"kind":"Pod","apiVersion":"v1","metadata":{"name":"typed"}}]}`,
	`{"kind":"PodList","apiVersion":"v2","items":[]}`,
	`{"kind":"ConfigMapList","apiVersion":"v1","items":[]}`,
	`{"kind":"Status","apiVersion":"v1","status":"Failure","code":410}`,
	`{"Kind":"ConfigMapList","kind":"PodList","items":[]}`,
	`{"Items":[{"metadata":{"name":"a"}}],"items":[]}`,
	`{"Items":[{"metadata":{"name":"a"}}]}`,
	`{"METADATA":{"resourceVersion":"9"},"items":[]}`,
	`{"items":[{"metadata":{"name":"a"}}],"items":[{"metadata":{"name":"b"}}]}`,
	`{"items":[{"metadata":{"name":"a","labels":{"x":"y"}}}],"items":[{"metadata":{"name":"b"}}]}`,
	`{"metadata":{"resourceVersion":"1"},"metadata":{"continue":"c"},"items":[]}`,
	`{"extra":{"a":[1,"}"]},"items":[],"more":true,"n":-1.5e3,"s":"\"q\""}`,
	`{"extra":{bad},"items":[]}`,
	`{"extra":tru,"items":[]}`,
	`{"items":[{"metadata":{"name":5}}]}`,
	`{"items":[1]}`,
	`{"items":"none"}`,
	`{"items":[{"metadata":{"name":"a"}} {"metadata":{}}]}`,
	`{"items":[]} trailing`,
	`{"items":[]}{}`,
	`{"items":[]`,
	`{"items":[{"metadata":{"name":"a"}}`,
	`{"it\u0065ms":[{"metadata":{"name":"a"}}]}`,
	`{"items":[],}`,
	`{"kind":5,"items":[]}`,
	`{"metadata":{"resourceVersion":5},"items":[]}`,
	`[]`,
	`null`,
}

// checkJSONListDecode fails t unless the runtime's decoding of body either
// leaves it to the serializer (errJSONOther, or errNotDecoded for a body
// that is no JSON object), fails where the serializer fails, or gives the
// list the serializer gives.
func checkJSONListDecode(t *testing.T, body string) {
	t.Helper()
	d := jsonList[*corev1.Pod]{apiVersion: "v1", listKind: "PodList", newItem: func() *corev1.Pod { return &corev1.Pod{} }}
	got, err := d.decode(bufio.NewReaderSize(strings.NewReader(body), 16))
	s := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme.Scheme, scheme.Scheme, json.SerializerOptions{})
	into := &corev1.PodList{}
	out, _, wantErr := runtime.WithoutVersionDecoder{Decoder: s}.Decode([]byte(body), nil, into)
	switch {
	case errors.Is(err, errJSONOther), errors.Is(err, errNotDecoded):
	case err != nil:
		if wantErr == nil && out == into {
			t.Fatalf("%s: error %v, the serializer decodes it", body, err)
		}
	case wantErr != nil || out != into:
		t.Fatalf("%s: decoded, the serializer gives %T, %v", body, out, wantErr)
	default:
		if !reflect.DeepEqual(got.ListMeta, into.ListMeta) || len(got.Items) != len(into.Items) {
			t.Fatalf("%s: list %+v with %d items, the serializer's %+v with %d", body, got.ListMeta, len(got.Items), into.ListMeta, len(into.Items))
		}
		for i := range into.Items {
			if !reflect.DeepEqual(got.Items[i], &into.Items[i]) {
				t.Fatalf("%s: item %d differs from the serializer's", body, i)
			}
		}
	}
}

func TestJSONListDecodesAsTheSerializer(t *testing.T) {
	for _, body := range jsonListCases {
		checkJSONListDecode(t, body)
	}
	body, err := encodeAs(runtime.ContentTypeJSON, testPodList(t, 40))
	if err != nil {
		t.Fatal(err)
	}
	checkJSONListDecode(t, string(body))
	d := jsonList[*corev1.Pod]{apiVersion: "v1", listKind: "PodList", newItem: func() *corev1.Pod { return &corev1.Pod{} }}
	if l, err := d.decode(bufio.NewReader(bytes.NewReader(body))); err != nil || len(l.Items) != 40 {
		t.Errorf("the API server's list: %v; want its 40 items decoded by the runtime", err)
	}
}

// FuzzJSONListDecode checks that the runtime decodes any JSON body as the
// serializer does, or leaves it to the serializer.
func FuzzJSONListDecode(f *testing.F) {
	for _, body := range jsonListCases {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		checkJSONListDecode(t, body)
	})
}

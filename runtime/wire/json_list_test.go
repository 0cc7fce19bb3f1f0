package wire

import (
	"bufio"
	"bytes"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// jsonListCases are JSON list bodies, each decoded by the runtime as the
// typed client's decoder decodes it, or left to that decoder.
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
	`{"kind":"PodList","apiVersion":"v1","items":[],"kind":"ConfigMapList"}`,
	`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":5}}]}`,
	`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}}],"metadata":{"resourceVersion":"5"}}`,
	`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}}]`,
	`{"apiVersion":"v1","kind":"PodList","items":[],"extra":{bad}}`,
	`{"kind":5,"items":[]}`,
	`{"metadata":{"resourceVersion":5},"items":[]}`,
	`[]`,
	`null`,
}

// checkJSONListDecode fails t unless the runtime's decoding of body, a JSON
// LIST response of pods, ends as the typed client's LIST would (see
// checkListDecode).
func checkJSONListDecode(t *testing.T, body string) {
	t.Helper()
	d := &jsonList[*corev1.Pod]{apiVersion: "v1", listKind: "PodList", newItem: func() *corev1.Pod { return &corev1.Pod{} }}
	checkListDecode(t, d, runtime.ContentTypeJSON, []byte(body))
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
	rec := &recorder{r: bytes.NewReader(body), on: true}
	if l, out, err := d.decode(bufio.NewReader(rec), rec); out != decoded || err != nil || len(l.Items) != 40 {
		t.Errorf("the API server's list: outcome %d, %v; want its 40 items decoded by the runtime", out, err)
	}
	if rec.pieces != nil {
		t.Errorf("%d pieces of the API server's list kept, want none once its items started", len(rec.pieces))
	}
}

// FuzzJSONListDecode checks that the runtime decodes any JSON body as the
// typed client's decoder does, or leaves it to that decoder.
func FuzzJSONListDecode(f *testing.F) {
	for _, body := range jsonListCases {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body string) {
		checkJSONListDecode(t, body)
	})
}

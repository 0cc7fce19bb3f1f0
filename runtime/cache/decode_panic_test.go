package cache

import (
	"bytes"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
)

// panicky is a pod whose generated decoder panics.
type panicky struct{ corev1.Pod }

func (p *panicky) DeepCopyObject() runtime.Object { return &panicky{*p.DeepCopy()} }
func (p *panicky) Unmarshal([]byte) error         { panic("a decoder bug") }

// protobufBody encodes obj in the protobuf envelope.
func protobufBody(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	body, err := runtime.Encode(scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), obj)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func TestADecoderPanicIsAnErrorOfTheList(t *testing.T) {
	body := protobufBody(t, testPodList(t, 3))
	d := protobufList[*panicky]{apiVersion: "v1", listKind: "PodList", newItem: func() *panicky { return &panicky{} }}
	if _, err := d.decode(bytes.NewReader(body)); err == nil || !strings.Contains(err.Error(), "a decoder bug") {
		t.Errorf("error %v, want the decoder's panic as an error", err)
	}
}

func TestADecoderPanicIsAnErrorOfTheWatchEvent(t *testing.T) {
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	var stream bytes.Buffer
	enc := streaming.NewEncoder(info.StreamSerializer.Framer.NewFrameWriter(&stream), info.StreamSerializer.Serializer)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}
	if err := enc.Encode(&metav1.WatchEvent{Type: string(watch.Added), Object: runtime.RawExtension{Raw: protobufBody(t, pod)}}); err != nil {
		t.Fatal(err)
	}
	p := newProtobufWatch(corev1.SchemeGroupVersion, "Pod", func() *panicky { return &panicky{} })
	objects, events, framer, err := p.StreamDecoder(runtime.ContentTypeProtobuf, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := framer.NewFrameReader(io.NopCloser(&stream))
	defer r.Close()
	token := make([]byte, watchToken)
	if _, err := r.Read(token); err != nil {
		t.Fatal(err)
	}
	var ev metav1.WatchEvent
	if _, _, err := events.Decode(token, nil, &ev); err != nil || ev.Type != string(watch.Added) {
		t.Fatalf("event %+v, %v; want an ADDED event", ev, err)
	}
	if _, _, err := objects.Decode(ev.Object.Raw, nil, nil); err == nil || !strings.Contains(err.Error(), "a decoder bug") {
		t.Errorf("error %v, want the decoder's panic as an error", err)
	}
}

package cache

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// panicky is a pod whose generated decoder panics.
type panicky struct{ corev1.Pod }

func (p *panicky) DeepCopyObject() runtime.Object { return &panicky{*p.DeepCopy()} }
func (p *panicky) Unmarshal([]byte) error         { panic("a decoder bug") }

func TestADecoderPanicIsAnErrorOfTheList(t *testing.T) {
	body, err := encodeAs(runtime.ContentTypeProtobuf, testPodList(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	d := protobufList[*panicky]{apiVersion: "v1", listKind: "PodList", newItem: func() *panicky { return &panicky{} }}
	if _, err := d.decode(bufio.NewReader(bytes.NewReader(body))); err == nil || !strings.Contains(err.Error(), "a decoder bug") {
		t.Errorf("error %v, want the decoder's panic as an error", err)
	}
}

func TestADecoderPanicIsAnErrorOfTheWatchEvent(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}
	stream, err := encodeWatchEvents(runtime.ContentTypeProtobuf, []watch.Event{{Type: watch.Added, Object: pod}})
	if err != nil {
		t.Fatal(err)
	}
	p := newProtobufWatch(corev1.SchemeGroupVersion, "Pod", func() *panicky { return &panicky{} })
	n := newWatchNegotiator(corev1.SchemeGroupVersion, map[string]watchFormat{runtime.ContentTypeProtobuf: p})
	objects, events, framer, err := n.StreamDecoder(runtime.ContentTypeProtobuf, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := framer.NewFrameReader(io.NopCloser(bytes.NewReader(stream)))
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

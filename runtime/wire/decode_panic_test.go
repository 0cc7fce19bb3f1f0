package wire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// panicky is a pod whose generated decoder panics.
type panicky struct{ corev1.Pod }

func (p *panicky) DeepCopyObject() runtime.Object { return &panicky{*p.DeepCopy()} }
func (p *panicky) Unmarshal([]byte) error         { panic("a decoder bug") }

// A panic of the generated decoder of an item fails the list's decoding
// (or hands the body to client-go's decoder), and the LIST returns an
// error: it never takes the process down.
func TestADecoderPanicIsAnErrorOfTheList(t *testing.T) {
	body, err := encodeAs(runtime.ContentTypeProtobuf, testPodList(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	d := protobufList[*panicky]{apiVersion: "v1", listKind: "PodList", newItem: func() *panicky { return &panicky{} }}
	rec := &recorder{r: bytes.NewReader(body), on: true}
	switch _, out, err := d.decode(bufio.NewReader(rec), rec); out {
	case failed:
		if err == nil || !strings.Contains(err.Error(), "a decoder bug") {
			t.Errorf("error %v, want the decoder's panic as an error", err)
		}
	case handOver:
	default:
		t.Errorf("outcome %d (%v), want the list failed, or handed to client-go's decoder", out, err)
	}

	// The whole LIST.
	cs := serveClientset(t, streamServer{runtime.ContentTypeProtobuf, body})
	pods := cs.CoreV1().Pods("")
	list := NewList[*panicky](cs.CoreV1().RESTClient(), "", "pods", pods.List)
	if list == nil {
		t.Fatal("no runtime's list")
	}
	if got, err := list(context.Background(), metav1.ListOptions{}); err == nil {
		t.Errorf("a %T, want an error", got)
	}
}

// A panic of the generated decoder of a watch event's object is an ERROR
// event of the watch, which then ends: it never takes the process down.
func TestADecoderPanicIsAnErrorOfTheWatchEvent(t *testing.T) {
	pod, err := (&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	// An ADDED event whose object is of panicky's kind, in protobuf: the
	// runtime decodes it with panicky's Unmarshal.
	typeMeta := protowire.AppendBytes(protowire.AppendTag(nil, typeMetaAPIVersion, protowire.BytesType), []byte("v1"))
	typeMeta = protowire.AppendBytes(protowire.AppendTag(typeMeta, typeMetaKind, protowire.BytesType), []byte("panicky"))
	envelope := protowire.AppendBytes(protowire.AppendTag(bytes.Clone(protobufPrefix), unknownTypeMeta, protowire.BytesType), typeMeta)
	envelope = protowire.AppendBytes(protowire.AppendTag(envelope, unknownRaw, protowire.BytesType), pod)
	object := protowire.AppendBytes(protowire.AppendTag(nil, rawExtensionRaw, protowire.BytesType), envelope)
	event := protowire.AppendBytes(protowire.AppendTag(nil, watchEventType, protowire.BytesType), []byte(watch.Added))
	event = protowire.AppendBytes(protowire.AppendTag(event, watchEventObject, protowire.BytesType), object)
	stream := binary.BigEndian.AppendUint32(nil, uint32(len(event)))
	stream = append(stream, event...)

	cs := serveClientset(t, streamServer{runtime.ContentTypeProtobuf + ";stream=watch", stream})
	w := NewWatch[*panicky](cs.CoreV1().RESTClient(), "", "pods")
	if w == nil {
		t.Fatal("no runtime's watch")
	}
	wi, err := w(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	events := collect(t, wi)
	if len(events) != 1 || events[0].Type != watch.Error {
		t.Fatalf("events %v, want one ERROR event", events)
	}
	if status, ok := events[0].Object.(*metav1.Status); !ok || !strings.Contains(status.Message, "a decoder bug") {
		t.Errorf("error event %#v, want the decoder's panic as its error", events[0].Object)
	}
}

package scalebench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// listRV is the resourceVersion of the LIST and of the bookmark that ends the
// initial events: above every generated pod's, below every update's.
const listRV = "50000000"

// moveEvery: one update in moveEvery changes spec.nodeName.
const moveEvery = 10

// bodies are the prebuilt responses of the test server for one set of pods.
type bodies struct {
	n    int
	keys []string // namespace/name of every pod, sorted
	// list is a LIST response: a PodList in the protobuf envelope.
	list []byte
	// initial is the start of a watch-list response: a length-delimited
	// ADDED event per pod, then the BOOKMARK that ends the initial events.
	initial []byte
	// updates are two sets of m MODIFIED events each, in the same framing,
	// their resourceVersions above listRV and disjoint: sending them in
	// turn, every event changes its pod's resourceVersion, so that no
	// informer takes it for a resync.
	updates [2][]byte
	m       int
	// release frees the bodies (when they are not on the Go heap).
	release func() error
}

// protobufSerializer returns client-go's protobuf serializer, which both the
// bodies' encoders (the server's side) and the decoders measured as the floor
// (the client's side) are made of.
func protobufSerializer() (runtime.SerializerInfo, error) {
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok || info.StreamSerializer == nil {
		return info, errors.New("no protobuf stream serializer in client-go's scheme")
	}
	return info, nil
}

// codecs are the protobuf encoders of client-go's scheme, as the API server
// uses them: obj encodes an object (with the protobuf envelope), stream
// frames watch events.
type codecs struct {
	obj    runtime.Encoder
	stream *runtime.StreamSerializerInfo
}

func newCodecs() (*codecs, error) {
	info, err := protobufSerializer()
	if err != nil {
		return nil, err
	}
	return &codecs{
		obj:    scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion),
		stream: info.StreamSerializer,
	}, nil
}

// events returns a function that writes watch events to w as the API server
// streams them: each a length-delimited metav1.WatchEvent whose object is the
// object's protobuf encoding, envelope included.
func (c *codecs) events(w io.Writer) func(watch.EventType, runtime.Object) error {
	enc := streaming.NewEncoder(c.stream.Framer.NewFrameWriter(w), c.stream.Serializer)
	return func(t watch.EventType, obj runtime.Object) error {
		raw, err := runtime.Encode(c.obj, obj)
		if err != nil {
			return err
		}
		return enc.Encode(&metav1.WatchEvent{Type: string(t), Object: runtime.RawExtension{Raw: raw}})
	}
}

// sink keeps the bodies buildBodies writes: body returns the bytes write
// wrote, sizeHint an estimate of their number.
type sink interface {
	body(sizeHint int, write func(io.Writer) error) ([]byte, error)
}

// heapSink keeps bodies on the Go heap.
type heapSink struct{}

func (heapSink) body(sizeHint int, write func(io.Writer) error) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(sizeHint)
	if err := write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// buildBodies generates the pods of cfg and encodes the responses into sk,
// with m updates per update set. The pods are dropped once encoded.
func buildBodies(cfg testpods.Config, m int, sk sink) (*bodies, error) {
	c, err := newCodecs()
	if err != nil {
		return nil, err
	}
	pods := testpods.Generate(cfg)
	b := &bodies{n: len(pods), m: m, keys: make([]string, len(pods)), release: func() error { return nil }}
	for i, p := range pods {
		b.keys[i] = p.Namespace + "/" + p.Name
	}
	slices.Sort(b.keys)
	if len(slices.Compact(slices.Clone(b.keys))) != len(pods) {
		return nil, errors.New("generated pods have duplicate keys")
	}
	const podSize = 3300 // about a pod's protobuf encoding

	b.list, err = sk.body(len(pods)*podSize, func(w io.Writer) error {
		list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: listRV}, Items: make([]corev1.Pod, len(pods))}
		for i, p := range pods {
			list.Items[i] = *p
		}
		data, err := runtime.Encode(c.obj, list)
		if err != nil {
			return fmt.Errorf("encoding the list: %w", err)
		}
		_, err = w.Write(data)
		return err
	})
	if err != nil {
		return nil, err
	}

	b.initial, err = sk.body(len(pods)*(podSize+64), func(w io.Writer) error {
		event := c.events(w)
		for _, p := range pods {
			if err := event(watch.Added, p); err != nil {
				return fmt.Errorf("encoding pod %s/%s: %w", p.Namespace, p.Name, err)
			}
		}
		bookmark := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			ResourceVersion: listRV,
			Annotations:     map[string]string{metav1.InitialEventsAnnotationKey: "true"},
		}}
		if err := event(watch.Bookmark, bookmark); err != nil {
			return fmt.Errorf("encoding the bookmark: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	// Update set s, event j: pod j%n in round j/n; in one pod in moveEvery
	// the node changes, to the next pod's node in even rounds (counted
	// over both sets) and back in odd ones.
	rounds := (m + len(pods) - 1) / len(pods)
	rv := 60_000_000
	for s := range b.updates {
		b.updates[s], err = sk.body(m*(podSize+64), func(w io.Writer) error {
			event := c.events(w)
			for j := range m {
				i, round := j%len(pods), s*rounds+j/len(pods)
				p := pods[i]
				node := ""
				if i%moveEvery == 0 && round%2 == 0 {
					node = pods[(i+1)%len(pods)].Spec.NodeName
				} else if i%moveEvery == 0 {
					node = p.Spec.NodeName
				}
				rv++
				if err := event(watch.Modified, testpods.Updated(p, rv, node)); err != nil {
					return fmt.Errorf("encoding update %d: %w", j, err)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// sizeName names a number of pods: 10k, 100k, 500k.
func sizeName(n int) string {
	if n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

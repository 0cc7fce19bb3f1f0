package cache

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
)

// Field numbers of metav1.WatchEvent and runtime.RawExtension.
const (
	watchEventType   = 1
	watchEventObject = 2
	rawExtensionRaw  = 1
)

// protobufWatch is the watchFormat of Kubernetes' protobuf encoding, for a
// watch of T: length-delimited metav1.WatchEvent messages.
//
// Objects of T's kind are decoded by T's generated Unmarshal, a Status (the
// object of an ERROR event) by metav1.Status's, as the protobuf serializer
// would; an object of any other kind is an error of its event.
type protobufWatch[T Object] struct {
	apiVersion, kind string
	newItem          func() T
}

func newProtobufWatch[T Object](gv schema.GroupVersion, kind string, newItem func() T) protobufWatch[T] {
	return protobufWatch[T]{apiVersion: gv.String(), kind: kind, newItem: newItem}
}

// read reads a length-delimited event.
func (p protobufWatch[T]) read(br *bufio.Reader, arena *[]byte) ([]byte, error) {
	var header [4]byte
	if _, err := io.ReadFull(br, header[:]); err != nil {
		return nil, err
	}
	n := int(binary.BigEndian.Uint32(header[:]))
	if n > maxWatchFrame {
		return nil, streaming.ErrObjectTooLarge
	}
	frame := carve(arena, n, watchArena)
	if _, err := io.ReadFull(br, frame); err != nil {
		return nil, unexpectedEOF(err)
	}
	return frame, nil
}

// decode decodes an event and its object.
func (p protobufWatch[T]) decode(frame []byte) (string, runtime.Object, error) {
	typ, raw, err := parseWatchEvent(frame)
	if err != nil {
		return "", nil, err
	}
	obj, err := recovered(func() (runtime.Object, error) { return p.decodeObject(raw) })
	return typ, obj, err
}

// parseWatchEvent cuts a metav1.WatchEvent message into its type and its
// object's bytes, as metav1.WatchEvent's generated code reads them.
func parseWatchEvent(frame []byte) (typ string, raw []byte, err error) {
	err = eachField(frame, func(num protowire.Number, v []byte) bool {
		switch num {
		case watchEventType:
			typ = string(v)
		case watchEventObject:
			raw = nil
			if err := eachField(v, func(num protowire.Number, v []byte) bool {
				if num == rawExtensionRaw {
					raw = v
				}
				return true
			}); err != nil {
				return false
			}
		}
		return true
	})
	if err != nil {
		return "", nil, fmt.Errorf("decoding a watch event: %w", err)
	}
	if raw == nil {
		raw = []byte{}
	}
	return typ, raw, nil
}

// decodeObject decodes an event's object: the protobuf envelope and the
// object of T's kind or a Status.
func (p protobufWatch[T]) decodeObject(data []byte) (runtime.Object, error) {
	l, err := splitEnvelope(data)
	if err != nil {
		return nil, err
	}
	var obj runtime.Object
	switch {
	case l.apiVersion == p.apiVersion && l.kind == p.kind:
		obj = p.newItem()
	case l.kind == "Status" && (l.apiVersion == "v1" || l.apiVersion == "meta.k8s.io/v1"):
		obj = &metav1.Status{}
	default:
		return nil, fmt.Errorf("no kind %q is registered for version %q in the watch of %s", l.kind, l.apiVersion, p.kind)
	}
	if err := obj.(protobufUnmarshaler).Unmarshal(l.raw); err != nil {
		return nil, err
	}
	return obj, nil
}

// envelope is an object in Kubernetes' protobuf envelope, cut into its type
// and its message.
type envelope struct {
	apiVersion, kind string
	raw              []byte
}

// splitEnvelope cuts an enveloped object as runtime.Unknown's generated code
// reads it.
func splitEnvelope(data []byte) (envelope, error) {
	var e envelope
	if len(data) < len(protobufPrefix) || string(data[:len(protobufPrefix)]) != string(protobufPrefix) {
		return e, errors.New("provided data does not appear to be a protobuf message")
	}
	var encoding []byte
	err := eachField(data[len(protobufPrefix):], func(num protowire.Number, v []byte) bool {
		switch num {
		case unknownTypeMeta:
			return readTypeMeta(v, &e.apiVersion, &e.kind) == nil
		case unknownRaw:
			e.raw = v
		case unknownContentEncoding:
			encoding = v
		}
		return true
	})
	if err != nil {
		return e, err
	}
	if len(encoding) > 0 {
		return e, fmt.Errorf("unsupported content encoding %q", encoding)
	}
	return e, nil
}

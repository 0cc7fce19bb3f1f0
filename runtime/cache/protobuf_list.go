package cache

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"reflect"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// protobufPrefix starts every body in Kubernetes' protobuf encoding: the
// magic number before the runtime.Unknown envelope.
var protobufPrefix = []byte{'k', '8', 's', 0}

// Field numbers of the messages a protobuf LIST response is made of:
// runtime.Unknown (the envelope), its runtime.TypeMeta, and every
// Kubernetes list type (metadata first, items second).
const (
	unknownTypeMeta        = 1
	unknownRaw             = 2
	unknownContentEncoding = 3
	unknownContentType     = 4
	typeMetaAPIVersion     = 1
	typeMetaKind           = 2
	listMetadata           = 1
	listItems              = 2
)

var (
	// errNotProtobuf: the body is not in the protobuf encoding.
	errNotProtobuf = errors.New("not a protobuf body")
	// errOtherBody: the body is in protobuf but not a plain list of the
	// expected kind (another kind, a content encoding, an unexpected
	// field of the envelope).
	errOtherBody = errors.New("not a protobuf list of the expected kind")
)

// protobufList decodes LIST responses of one list kind as they arrive.
type protobufList[T Object] struct {
	apiVersion string // the envelope's apiVersion a list must have
	listKind   string // and its kind
	newItem    func() T
}

// decode reads a LIST response body in Kubernetes' protobuf encoding and
// decodes it into an ItemList[T]: the list's metadata, and every item
// decoded by its type's generated Unmarshal into a new object, as the list
// type's own generated code decodes it, on up to GOMAXPROCS goroutines while
// the body is still being read. It returns errNotProtobuf or errOtherBody
// (having read at most a few bytes, or the whole body) when body is not a
// protobuf list of the expected kind, for the caller to decode it some other
// way; any other error is an error of the body: it cannot be read, or it is
// not a valid message.
func (d *protobufList[T]) decode(br *bufio.Reader) (*ItemList[T], error) {
	if head, err := br.Peek(len(protobufPrefix)); err != nil || !bytes.Equal(head, protobufPrefix) {
		return nil, errNotProtobuf
	}
	s := &pbStream{r: br}
	if _, err := s.Discard(len(protobufPrefix)); err != nil {
		return nil, err
	}
	var apiVersion, kind string
	var typeMeta bool
	var out *ItemList[T]
	for {
		num, typ, err := s.tag()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if typ != protowire.BytesType {
			return nil, errOtherBody
		}
		n, err := s.length(-1)
		if err != nil {
			return nil, err
		}
		switch num {
		case unknownTypeMeta:
			b, err := s.bytes(n)
			if err != nil {
				return nil, err
			}
			// A repeated TypeMeta merges into the earlier one.
			if readTypeMeta(b, &apiVersion, &kind) != nil {
				return nil, errOtherBody
			}
			typeMeta = true
		case unknownRaw:
			if !typeMeta || apiVersion != d.apiVersion || kind != d.listKind {
				return nil, errOtherBody
			}
			// A repeated Raw replaces the earlier one.
			if out, err = d.decodeList(s, s.n+int64(n)); err != nil {
				return nil, err
			}
		case unknownContentEncoding, unknownContentType:
			if n != 0 {
				return nil, errOtherBody
			}
		default:
			return nil, errOtherBody
		}
	}
	if out == nil {
		return nil, errOtherBody
	}
	return out, nil
}

// decodeList decodes a list message from s up to its byte offset end.
func (d *protobufList[T]) decodeList(s *pbStream, end int64) (*ItemList[T], error) {
	out := &ItemList[T]{}
	items := newItemPipeline(func(item []byte) (T, error) {
		obj := d.newItem()
		return obj, any(obj).(protobufUnmarshaler).Unmarshal(item)
	})
	readErr := func() error {
		var arena []byte
		for s.n < end {
			num, typ, err := s.tag()
			if err != nil {
				return unexpectedEOF(err)
			}
			if num != listMetadata && num != listItems {
				if err := s.skip(typ, end); err != nil {
					return err
				}
				continue
			}
			if typ != protowire.BytesType {
				return fmt.Errorf("protobuf list: field %d has wire type %d", num, typ)
			}
			n, err := s.length(end)
			if err != nil {
				return err
			}
			if num == listMetadata {
				b, err := s.bytes(n)
				if err != nil {
					return err
				}
				// A repeated metadata field merges into the earlier one.
				if err := out.ListMeta.Unmarshal(b); err != nil {
					return err
				}
				continue
			}
			item := carve(&arena, n, itemArena)
			if _, err := io.ReadFull(s, item); err != nil {
				return unexpectedEOF(err)
			}
			if !items.add(item) {
				return nil // an item failed to decode
			}
		}
		if s.n != end {
			return errors.New("protobuf list: a field runs past the end of the list")
		}
		return nil
	}()
	decoded, err := items.finish()
	if readErr != nil {
		return nil, readErr
	}
	if err != nil {
		return nil, err
	}
	out.Items = decoded
	return out, nil
}

// carve returns the next n bytes of *arena, first replacing it with a new
// buffer of size bytes (or n, if larger) when fewer than n are left. Many
// items or events are read into one allocation; a decoded object copies what
// it keeps, so a buffer is freed once its last reader is done.
func carve(arena *[]byte, n, size int) []byte {
	if cap(*arena)-len(*arena) < n {
		*arena = make([]byte, 0, max(size, n))
	}
	b := (*arena)[len(*arena) : len(*arena)+n]
	*arena = (*arena)[:len(*arena)+n]
	return b
}

// readTypeMeta reads a runtime.TypeMeta message into apiVersion and kind,
// leaving either as it is when the message does not set it (as a repeated
// field merges).
func readTypeMeta(b []byte, apiVersion, kind *string) error {
	return eachField(b, func(num protowire.Number, v []byte) bool {
		switch num {
		case typeMetaAPIVersion:
			*apiVersion = string(v)
		case typeMetaKind:
			*kind = string(v)
		}
		return true
	})
}

// unexpectedEOF turns the end of the body inside a message into an error.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// pbStream reads protobuf fields off a body, counting the bytes read.
type pbStream struct {
	r *bufio.Reader
	n int64
}

func (s *pbStream) ReadByte() (byte, error) {
	b, err := s.r.ReadByte()
	if err == nil {
		s.n++
	}
	return b, err
}

func (s *pbStream) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.n += int64(n)
	return n, err
}

func (s *pbStream) Discard(n int) (int, error) {
	n, err := s.r.Discard(n)
	s.n += int64(n)
	return n, err
}

// tag reads a field's tag. io.EOF means the body ended before it.
func (s *pbStream) tag() (protowire.Number, protowire.Type, error) {
	start := s.n
	v, err := binary.ReadUvarint(s)
	if err != nil {
		if err == io.EOF && s.n == start {
			return 0, 0, io.EOF
		}
		return 0, 0, unexpectedEOF(err)
	}
	// As the generated code reads tags: the number is an int32.
	num := int32(v >> 3)
	if num <= 0 {
		return 0, 0, fmt.Errorf("protobuf: illegal tag %d", num)
	}
	return protowire.Number(num), protowire.Type(v & 7), nil
}

// length reads a length-delimited field's length; when end is not
// negative, the field must end by then.
func (s *pbStream) length(end int64) (int, error) {
	v, err := binary.ReadUvarint(s)
	if err != nil {
		return 0, unexpectedEOF(err)
	}
	if v > uint64(1<<31-1) || (end >= 0 && s.n+int64(v) > end) {
		return 0, errors.New("protobuf: invalid field length")
	}
	return int(v), nil
}

// bytes reads the next n bytes into a new slice.
func (s *pbStream) bytes(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(s, b); err != nil {
		return nil, unexpectedEOF(err)
	}
	return b, nil
}

// skip skips the value of a field of wire type typ that must end by end,
// as the generated code skips fields it does not know.
func (s *pbStream) skip(typ protowire.Type, end int64) error {
	var n int
	switch typ {
	case protowire.StartGroupType:
		for depth := 1; depth > 0; {
			_, typ, err := s.tag()
			if err != nil {
				return unexpectedEOF(err)
			}
			switch typ {
			case protowire.StartGroupType:
				depth++
			case protowire.EndGroupType:
				depth--
			default:
				if err := s.skip(typ, end); err != nil {
					return err
				}
			}
			if s.n > end {
				return errors.New("protobuf: invalid field length")
			}
		}
		return nil
	case protowire.VarintType:
		_, err := binary.ReadUvarint(s)
		return unexpectedEOF(err)
	case protowire.Fixed32Type:
		n = 4
	case protowire.Fixed64Type:
		n = 8
	case protowire.BytesType:
		var err error
		if n, err = s.length(end); err != nil {
			return err
		}
	default:
		return fmt.Errorf("protobuf list: unsupported wire type %d", typ)
	}
	if s.n+int64(n) > end {
		return errors.New("protobuf: invalid field length")
	}
	_, err := s.Discard(n)
	return unexpectedEOF(err)
}

// eachField calls f with the number and the bytes of every length-delimited
// field of the message msg, in order, until f returns false. A field of any
// other wire type, or a malformed message, is an error.
func eachField(msg []byte, f func(protowire.Number, []byte) bool) error {
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return protowire.ParseError(n)
		}
		msg = msg[n:]
		if typ != protowire.BytesType {
			return fmt.Errorf("protobuf field %d has wire type %d, not length-delimited", num, typ)
		}
		v, n := protowire.ConsumeBytes(msg)
		if n < 0 {
			return protowire.ParseError(n)
		}
		msg = msg[n:]
		if !f(num, v) {
			return errors.New("protobuf field rejected")
		}
	}
	return nil
}

// recovered calls decode and turns a panic into an error: a decoding
// goroutine of the runtime's must not take the process down on a body no
// generated decoder was written for.
func recovered[V any](decode func() (V, error)) (v V, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decoding panicked: %v", r)
		}
	}()
	return decode()
}

// protobufUnmarshaler is what the API types' generated protobuf code
// implements.
type protobufUnmarshaler interface {
	Unmarshal([]byte) error
}

// newObjectFunc returns a function that makes a new zero T, and whether T
// decodes itself from protobuf (the API types' generated Unmarshal); nil
// when T is not a pointer to a struct, which no decoder fills.
func newObjectFunc[T Object]() (func() T, bool) {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	elem := t.Elem()
	newObj := func() T { return reflect.New(elem).Interface().(T) }
	_, ok := any(newObj()).(protobufUnmarshaler)
	return newObj, ok
}

// ItemList is the list a ListWatch returns when it decodes a protobuf LIST
// response itself (NewClientListWatch): the list's metadata and its items,
// each decoded into its own object. client-go's reflector reads it as any
// list (meta.ListAccessor, meta.ExtractList); because its items are
// pointers, it takes them as they are instead of copying each out of the
// list.
type ItemList[T Object] struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []T `json:"items"`
}

// DeepCopyObject returns a deep copy of the list and of every item.
func (l *ItemList[T]) DeepCopyObject() runtime.Object {
	if l == nil {
		return nil
	}
	out := &ItemList[T]{TypeMeta: l.TypeMeta}
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	if l.Items != nil {
		out.Items = make([]T, len(l.Items))
		for i, item := range l.Items {
			var zero T
			if item != zero {
				out.Items[i] = item.DeepCopyObject().(T)
			}
		}
	}
	return out
}

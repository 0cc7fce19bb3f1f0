package wire

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
)

// protobufPrefix starts every object in Kubernetes' protobuf encoding: the
// magic number before the runtime.Unknown envelope.
var protobufPrefix = []byte{'k', '8', 's', 0}

// Field numbers of the messages the runtime reads: runtime.Unknown (the
// envelope), runtime.TypeMeta, every Kubernetes list type (metadata first,
// items second), metav1.WatchEvent and runtime.RawExtension.
const (
	unknownTypeMeta        = 1
	unknownRaw             = 2
	unknownContentEncoding = 3
	unknownContentType     = 4
	typeMetaAPIVersion     = 1
	typeMetaKind           = 2
	listMetadata           = 1
	listItems              = 2
	watchEventType         = 1
	watchEventObject       = 2
	rawExtensionRaw        = 1
)

// maxWatchFrame is the largest event client-go's watch decoder reads
// (streaming.NewDecoder's limit); a larger one ends the watch with
// streaming.ErrObjectTooLarge, as there.
const maxWatchFrame = 16 << 20

// outcome is how a list decoder ended.
type outcome int

const (
	// decoded: the decoder's list is the response's.
	decoded outcome = iota
	// failed: the decoder's error is the response's (the body could not be
	// read, or client-go's decoder fails on it too).
	failed
	// handOver: client-go's decoder decides, from every byte recorded so far
	// and the rest of the body.
	handOver
	// relist: the body changed its kind after the decoder stopped
	// recording (which no API server does); the LIST is sent again through
	// the typed client.
	relist
)

// protobufList decodes LIST responses of one list kind in Kubernetes'
// protobuf encoding as they arrive.
type protobufList[T Object] struct {
	apiVersion string // the envelope's apiVersion a list must have
	listKind   string // and its kind
	newItem    func() T
}

// decode reads a LIST response body in protobuf off br and decodes it into
// an ItemList[T]: the envelope (runtime.Unknown) as its generated code reads
// it, the list as the list type's generated code reads it (ListMeta merged,
// items appended, unknown fields skipped), every item by T's generated
// Unmarshal into a new object, on up to GOMAXPROCS goroutines while the body
// is still being read. rec records the body until the list starts, after an
// envelope of the expected kind; anything else hands the body over.
func (d *protobufList[T]) decode(br *bufio.Reader, rec *recorder) (*ItemList[T], outcome, error) {
	if head, err := br.Peek(len(protobufPrefix)); err != nil || !bytes.Equal(head, protobufPrefix) {
		return nil, handOver, nil
	}
	s := &pbStream{r: br, end: -1}
	_, _ = s.Discard(len(protobufPrefix))
	var (
		apiVersion, kind string
		committed        bool // the list started: rec stopped
		out              *ItemList[T]
		listErr          error
	)
	// bad ends the decoding on an error of the envelope: client-go's
	// decoder decides until the list started, and fails too after.
	bad := func(err error) (*ItemList[T], outcome, error) {
		if !committed {
			return nil, handOver, nil
		}
		return nil, failed, err
	}
	for {
		num, typ, err := s.tag()
		if err == io.EOF {
			break
		}
		if err != nil {
			return bad(err)
		}
		known := num >= unknownTypeMeta && num <= unknownContentType
		if known && typ != protowire.BytesType {
			return bad(fmt.Errorf("proto: wrong wireType = %d for field %d of the envelope", typ, num))
		}
		if !known {
			if err := s.skip(typ, -1); err != nil {
				return bad(err)
			}
			continue
		}
		n, err := s.length(-1)
		if err != nil {
			return bad(err)
		}
		switch num {
		case unknownTypeMeta:
			b, err := readBounded(s, n)
			if err != nil {
				return bad(err)
			}
			// A repeated TypeMeta merges into the earlier one.
			if !readTypeMeta(b, &apiVersion, &kind) {
				return bad(errors.New("proto: malformed TypeMeta in the envelope"))
			}
			if committed && (apiVersion != d.apiVersion || kind != d.listKind) {
				return nil, relist, nil
			}
		case unknownRaw:
			if committed {
				return nil, relist, nil // a second list, which replaces the first
			}
			if apiVersion != d.apiVersion || kind != d.listKind {
				return nil, handOver, nil
			}
			committed = true
			rec.stop()
			var readErr error
			out, readErr, listErr = d.decodeList(s, s.n+int64(n))
			if readErr != nil {
				return nil, failed, readErr
			}
		default: // ContentEncoding, ContentType: the serializer ignores them
			if err := s.discard(n); err != nil {
				return bad(err)
			}
		}
	}
	switch {
	case !committed:
		return nil, handOver, nil
	case listErr != nil:
		return nil, failed, listErr
	}
	return out, decoded, nil
}

// decodeList decodes a list message from s up to its byte offset end. It
// returns the list, or the error of reading it (readErr: the body ended or
// failed) or of decoding it (listErr: a malformed list or item), having read
// the whole list in the latter case: a later list in the envelope may
// replace this one.
func (d *protobufList[T]) decodeList(s *pbStream, end int64) (out *ItemList[T], readErr, listErr error) {
	out = &ItemList[T]{}
	items := newItemPipeline(func(item []byte) (T, error) {
		obj := d.newItem()
		return obj, any(obj).(protobufUnmarshaler).Unmarshal(item)
	})
	items.arena = arena{max: itemArena, read: func() int64 { return s.n }}
	s.end = end
	defer func() { s.end = -1 }()
	err := func() error {
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
				return fmt.Errorf("%w: wrong wireType = %d for field %d of the list", errMalformed, typ, num)
			}
			n, err := s.length(end)
			if err != nil {
				return err
			}
			if num == listMetadata {
				b, err := readBounded(s, n)
				if err != nil {
					return err
				}
				// A repeated metadata field merges into the earlier one.
				if err := out.ListMeta.Unmarshal(b); err != nil {
					return fmt.Errorf("%w: %w", errMalformed, err)
				}
				continue
			}
			item, err := items.arena.next(s, n)
			if err != nil {
				return err
			}
			if !items.add(item) {
				return nil // an item failed to decode
			}
		}
		return nil
	}()
	decodedItems, itemErr := items.finish()
	switch {
	case err != nil && !errors.Is(err, errMalformed):
		return nil, err, nil
	case err == nil && itemErr == nil:
		out.Items = decodedItems
		return out, nil, nil
	case err == nil:
		err = itemErr
	}
	s.end = -1
	if s.n < end {
		if readErr := s.discard(int(end - s.n)); readErr != nil {
			return nil, readErr, nil
		}
	}
	return nil, nil, err
}

// readTypeMeta reads a runtime.TypeMeta message into apiVersion and kind,
// leaving either as it is when the message does not set it (as a repeated
// field merges); false when the message is malformed.
func readTypeMeta(b []byte, apiVersion, kind *string) bool {
	return eachField(b, func(num protowire.Number, typ protowire.Type, v []byte) bool {
		switch num {
		case typeMetaAPIVersion, typeMetaKind:
			if typ != protowire.BytesType {
				return false
			}
			if num == typeMetaAPIVersion {
				*apiVersion = string(v)
			} else {
				*kind = string(v)
			}
		}
		return true
	})
}

// eachField calls f with the number, the wire type and, for a
// length-delimited field, the bytes of every field of the message msg, in
// order, while f returns true. It reads msg as the generated Unmarshal
// methods do: other fields are skipped as their skipGenerated skips them.
// It returns false when f did, or when msg is malformed (when the generated
// code would fail).
func eachField(msg []byte, f func(protowire.Number, protowire.Type, []byte) bool) bool {
	for i := 0; i < len(msg); {
		start := i
		wire, n := consumeVarint(msg[i:])
		if n <= 0 {
			return false
		}
		i += n
		num, typ := int32(wire>>3), protowire.Type(wire&7)
		if typ == protowire.EndGroupType || num <= 0 {
			return false
		}
		var v []byte
		if typ == protowire.BytesType {
			l, n := consumeVarint(msg[i:])
			if n <= 0 || l > uint64(len(msg)-i-n) {
				return false
			}
			i += n
			v, i = msg[i:i+int(l)], i+int(l)
		} else {
			n := skipField(msg[start:])
			if n <= 0 {
				return false
			}
			i = start + n
		}
		if !f(protowire.Number(num), typ, v) {
			return false
		}
	}
	return true
}

// consumeVarint reads a varint as the generated code reads one (at most ten
// bytes, the bits past 64 dropped): its value and length, 0 when b ends
// inside it, -1 when it is longer.
func consumeVarint(b []byte) (uint64, int) {
	var v uint64
	for i, shift := 0, uint(0); shift < 64; i, shift = i+1, shift+7 {
		if i >= len(b) {
			return 0, 0
		}
		v |= uint64(b[i]&0x7f) << shift
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, -1
}

// skipField returns the length of the field b starts with, tag included, as
// the generated code's skipGenerated measures it (a group's inner fields by
// their wire types alone); not positive when b is malformed or ends inside
// it.
func skipField(b []byte) int {
	i, depth := 0, 0
	for i < len(b) {
		wire, n := consumeVarint(b[i:])
		if n <= 0 {
			return -1
		}
		i += n
		switch protowire.Type(wire & 7) {
		case protowire.VarintType:
			_, n := consumeVarint(b[i:])
			if n <= 0 {
				return -1
			}
			i += n
		case protowire.Fixed64Type:
			i += 8
		case protowire.BytesType:
			l, n := consumeVarint(b[i:])
			if n <= 0 || l > uint64(len(b)) {
				return -1
			}
			i += n + int(l)
		case protowire.StartGroupType:
			depth++
		case protowire.EndGroupType:
			if depth == 0 {
				return -1
			}
			depth--
		case protowire.Fixed32Type:
			i += 4
		default:
			return -1
		}
		if depth == 0 {
			if i > len(b) {
				return -1
			}
			return i
		}
	}
	return -1
}

// parseWatchEvent cuts a metav1.WatchEvent message into its type and its
// object's bytes, as its generated code reads them: the last type, and the
// last Raw of the object fields, which merge. ok is false for a message
// it does not read so (malformed, a field of another wire type, no object):
// the serializer then decodes it.
func parseWatchEvent(frame []byte) (typ string, raw []byte, ok bool) {
	hasRaw := false
	ok = eachField(frame, func(num protowire.Number, wt protowire.Type, v []byte) bool {
		switch num {
		case watchEventType:
			if wt != protowire.BytesType {
				return false
			}
			typ = string(v)
		case watchEventObject:
			if wt != protowire.BytesType {
				return false
			}
			return eachField(v, func(num protowire.Number, wt protowire.Type, v []byte) bool {
				if num == rawExtensionRaw {
					if wt != protowire.BytesType {
						return false
					}
					raw, hasRaw = v, true
				}
				return true
			})
		}
		return true
	})
	return typ, raw, ok && hasRaw
}

// splitEnvelope cuts an enveloped object as runtime.Unknown's generated code
// reads it; ok is false when it does not read so (no prefix, nothing after
// it, malformed).
func splitEnvelope(data []byte) (apiVersion, kind string, raw []byte, ok bool) {
	if len(data) <= len(protobufPrefix) || !bytes.Equal(data[:len(protobufPrefix)], protobufPrefix) {
		return "", "", nil, false
	}
	ok = eachField(data[len(protobufPrefix):], func(num protowire.Number, typ protowire.Type, v []byte) bool {
		if num < unknownTypeMeta || num > unknownContentType {
			return true
		}
		if typ != protowire.BytesType {
			return false
		}
		switch num {
		case unknownTypeMeta:
			return readTypeMeta(v, &apiVersion, &kind)
		case unknownRaw:
			raw = v
		}
		return true
	})
	return apiVersion, kind, raw, ok
}

// protobufFormat is the watchFormat of Kubernetes' protobuf encoding, for a
// watch of T: length-delimited metav1.WatchEvent messages. An object of T's
// kind, in an envelope read as the serializer reads it, is decoded by T's
// generated Unmarshal; everything else by client-go's decoders.
type protobufFormat[T Object] struct {
	apiVersion, kind string
	newItem          func() T
}

// read reads a length-delimited event as client-go's framer and stream
// decoder read it: io.EOF when the body ends before its header,
// io.ErrUnexpectedEOF inside it, streaming.ErrObjectTooLarge once
// maxWatchFrame bytes of a longer event arrived. take reserves the event's
// bytes of the read-ahead budget before they are read.
func (p protobufFormat[T]) read(br *bufio.Reader, a *arena, take func(int) bool) (frame, error) {
	var header [4]byte
	if _, err := io.ReadFull(br, header[:]); err != nil {
		return frame{}, err
	}
	n := binary.BigEndian.Uint32(header[:])
	if n > maxWatchFrame {
		if _, err := br.Discard(maxWatchFrame); err != nil {
			return frame{}, unexpectedEOF(err)
		}
		return frame{}, streaming.ErrObjectTooLarge
	}
	if !take(int(n)) {
		return frame{}, errStopped
	}
	b, err := a.next(br, int(n))
	if err != nil {
		return frame{size: int(n)}, err
	}
	return frame{b: b, size: int(n)}, nil
}

func (p protobufFormat[T]) event(f frame) (string, []byte, bool) {
	return parseWatchEvent(f.b)
}

// object decodes an object of T's kind; ok is false for any other.
func (p protobufFormat[T]) object(raw []byte) (runtime.Object, error, bool) {
	apiVersion, kind, msg, ok := splitEnvelope(raw)
	if !ok || apiVersion != p.apiVersion || kind != p.kind {
		return nil, nil, false
	}
	obj := p.newItem()
	if err := any(obj).(protobufUnmarshaler).Unmarshal(msg); err != nil {
		return nil, err, true
	}
	return obj, nil, true
}

// pbStream reads protobuf fields off a body, counting the bytes read.
type pbStream struct {
	r *bufio.Reader
	n int64
	// end, when not negative, is the offset of the end of the message
	// being read: reading past it fails with errPastEnd.
	end int64
}

var (
	// errMalformed is the error of a message that is not valid protobuf
	// (the body may go on after it).
	errMalformed = errors.New("proto: malformed message")
	// errPastEnd is the error of a field that runs past the end of its
	// message.
	errPastEnd = fmt.Errorf("%w: a field runs past the end of its message", errMalformed)
)

// room returns how many of n bytes may be read before end.
func (s *pbStream) room(n int) int {
	if s.end >= 0 && s.n+int64(n) > s.end {
		return int(max(0, s.end-s.n))
	}
	return n
}

func (s *pbStream) ReadByte() (byte, error) {
	if s.room(1) == 0 {
		return 0, errPastEnd
	}
	b, err := s.r.ReadByte()
	if err == nil {
		s.n++
	}
	return b, err
}

func (s *pbStream) Read(p []byte) (int, error) {
	if len(p) > 0 && s.room(len(p)) == 0 {
		return 0, errPastEnd
	}
	n, err := s.r.Read(p[:s.room(len(p))])
	s.n += int64(n)
	return n, err
}

func (s *pbStream) Discard(n int) (int, error) {
	k := s.room(n)
	k, err := s.r.Discard(k)
	s.n += int64(k)
	if err == nil && k < n {
		err = errPastEnd
	}
	return k, err
}

// discard skips the next n bytes.
func (s *pbStream) discard(n int) error {
	_, err := s.Discard(n)
	return unexpectedEOF(err)
}

// varint reads a varint as the generated code reads one: at most ten
// bytes, the bits past 64 dropped.
func (s *pbStream) varint() (uint64, error) {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		b, err := s.ReadByte()
		if err != nil {
			return 0, err
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("%w: integer overflow", errMalformed)
}

// tag reads a field's tag. io.EOF means the body ended before it.
func (s *pbStream) tag() (protowire.Number, protowire.Type, error) {
	start := s.n
	v, err := s.varint()
	if err != nil {
		if err == io.EOF && s.n == start {
			return 0, 0, io.EOF
		}
		return 0, 0, unexpectedEOF(err)
	}
	// As the generated code reads tags: the number is an int32.
	num := int32(v >> 3)
	if num <= 0 {
		return 0, 0, fmt.Errorf("%w: illegal tag %d", errMalformed, num)
	}
	return protowire.Number(num), protowire.Type(v & 7), nil
}

// length reads a length-delimited field's length; when end is not
// negative, the field must end by then.
func (s *pbStream) length(end int64) (int, error) {
	v, err := s.varint()
	if err != nil {
		return 0, unexpectedEOF(err)
	}
	if v > uint64(1<<31-1) || (end >= 0 && s.n+int64(v) > end) {
		return 0, fmt.Errorf("%w: invalid field length", errMalformed)
	}
	return int(v), nil
}

// skip skips the value of a field of wire type typ that must end by end
// (when not negative), as the generated code's skipGenerated skips fields it
// does not know: a group's inner fields by their wire types alone.
func (s *pbStream) skip(typ protowire.Type, end int64) error {
	for depth := 0; ; {
		var n int
		switch typ {
		case protowire.StartGroupType:
			depth++
		case protowire.EndGroupType:
			if depth == 0 {
				return fmt.Errorf("%w: unexpected end of group", errMalformed)
			}
			depth--
		case protowire.VarintType:
			if _, err := s.varint(); err != nil {
				return unexpectedEOF(err)
			}
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
			return fmt.Errorf("%w: illegal wireType %d", errMalformed, typ)
		}
		if end >= 0 && s.n+int64(n) > end {
			return errPastEnd
		}
		if err := s.discard(n); err != nil {
			return err
		}
		if depth == 0 {
			return nil
		}
		wire, err := s.varint() // the next tag inside the group
		if err != nil {
			return unexpectedEOF(err)
		}
		typ = protowire.Type(wire & 7)
	}
}

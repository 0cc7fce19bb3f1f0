package cache

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	goruntime "runtime"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
)

// Field numbers of metav1.WatchEvent and runtime.RawExtension.
const (
	watchEventType   = 1
	watchEventObject = 2
	rawExtensionRaw  = 1
)

// maxWatchFrame is the largest event client-go's watch decoder reads
// (streaming.NewDecoder's limit); a larger one ends the watch with
// streaming.ErrObjectTooLarge, as there.
const maxWatchFrame = 16 * 1024 * 1024

// maxWatchDecoders bounds the goroutines that decode one watch's events: a
// watch lives as long as its informer, most of the time idle, and one reader
// feeds them.
const maxWatchDecoders = 4

// watchArena is the size of the buffers a watch's events are read into (a
// larger event gets a buffer of its own). The last one stays referenced
// while the watch is open, so it is smaller than a list's.
const watchArena = 64 << 10

// watchToken is the size of what protobufWatch hands client-go's watch
// decoder in place of an event: the event's sequence number.
const watchToken = 8

// protobufWatch is a runtime.ClientNegotiator for a REST client whose
// watches of T are decoded on several goroutines, in order.
//
// client-go's Request.Watch reads a watch response through the stream
// decoder its client's negotiator gives: a framer, a serializer of the
// frames into metav1.WatchEvent values and a decoder of their objects, used
// one after the other on one goroutine (watch.StreamWatcher). The framer
// protobufWatch gives reads the length-delimited protobuf events off the body
// itself, on a goroutine of its own, and has each event's object decoded by
// one of up to maxWatchDecoders goroutines as soon as it is read; it hands the
// StreamWatcher a token per event instead of the event, in order, and its
// serializer and object decoder give back the event's type and decoded
// object for the token. Everything else about the watch (the request, its
// retries, errors, Stop, the events of decode errors) is client-go's.
//
// Objects of T's kind are decoded by T's generated Unmarshal, a Status (the
// object of an ERROR event) by metav1.Status's, as the protobuf serializer
// would; an object of any other kind is an error of its event. A stream in
// another content type is an error (errNotProtobuf): the client asks for
// protobuf only. The encoders and decoders of everything else (the error
// answers of the watch request) are those of a codec factory of metav1's
// types, which decodes a Status.
type protobufWatch[T Object] struct {
	apiVersion, kind string
	newItem          func() T
	base             runtime.ClientNegotiator
}

func newProtobufWatch[T Object](gv schema.GroupVersion, kind string, newItem func() T) *protobufWatch[T] {
	return &protobufWatch[T]{
		apiVersion: gv.String(),
		kind:       kind,
		newItem:    newItem,
		base:       runtime.NewClientNegotiator(serializer.NewCodecFactory(parameterScheme).WithoutConversion(), gv),
	}
}

func (p *protobufWatch[T]) Encoder(contentType string, params map[string]string) (runtime.Encoder, error) {
	return p.base.Encoder(contentType, params)
}

func (p *protobufWatch[T]) Decoder(contentType string, params map[string]string) (runtime.Decoder, error) {
	return p.base.Decoder(contentType, params)
}

// StreamDecoder returns, for a protobuf watch stream, the three parts of a
// new decoding of one watch response.
func (p *protobufWatch[T]) StreamDecoder(contentType string, params map[string]string) (runtime.Decoder, runtime.Serializer, runtime.Framer, error) {
	if contentType != runtime.ContentTypeProtobuf {
		return nil, nil, nil, fmt.Errorf("%w: content type %q", errNotProtobuf, contentType)
	}
	s := &watchStream[T]{watch: p}
	return tokenObjects[T]{s}, tokenEvents[T]{s}, s, nil
}

// watchStream decodes one watch response.
type watchStream[T Object] struct {
	watch *protobufWatch[T]
	// pending holds the events in the order they were read, each decoded
	// or being decoded; the reader closes it when the body ends.
	pending chan *watchEvent
	body    io.ReadCloser
	stop    chan struct{}
	stopped sync.Once
	// current is the event whose token Read handed out last; the
	// serializer and the object decoder, called after it on the same
	// goroutine, read it.
	current *watchEvent
}

// watchEvent is one event of a watch stream.
type watchEvent struct {
	seq  uint64
	typ  string
	obj  runtime.Object
	err  error         // of the event (its object does not decode), or of the body (its end)
	done chan struct{} // closed once obj or err is set
}

// NewFrameReader starts reading body. It is called once per response, after
// StreamDecoder.
func (s *watchStream[T]) NewFrameReader(body io.ReadCloser) io.ReadCloser {
	workers := min(goruntime.GOMAXPROCS(0), maxWatchDecoders)
	s.body, s.stop = body, make(chan struct{})
	s.pending = make(chan *watchEvent, 64*workers)
	jobs := make(chan decodeJob, 64*workers)
	for range workers {
		go func() {
			for j := range jobs {
				j.ev.obj, j.ev.err = recovered(func() (runtime.Object, error) { return s.decodeObject(j.raw) })
				close(j.ev.done)
			}
		}()
	}
	go s.read(jobs)
	return s
}

// decodeJob is an event's object to decode.
type decodeJob struct {
	ev  *watchEvent
	raw []byte
}

// NewFrameWriter is not used: the REST client writes no watch events.
func (s *watchStream[T]) NewFrameWriter(w io.Writer) io.Writer { return w }

// read reads the events off the body until it ends, an event cannot be
// read, or the watch stops. The last event of pending then carries the
// error, as client-go's framer and serializer would return it: io.EOF at the
// body's end, or what failed.
func (s *watchStream[T]) read(jobs chan<- decodeJob) {
	defer close(s.pending)
	defer close(jobs)
	br := bufio.NewReaderSize(s.body, 64<<10)
	var arena []byte
	var header [4]byte
	for seq := uint64(1); ; seq++ {
		ev := &watchEvent{seq: seq, done: make(chan struct{})}
		var raw []byte
		if _, err := io.ReadFull(br, header[:]); err != nil {
			ev.err = err
		} else if n := int(binary.BigEndian.Uint32(header[:])); n > maxWatchFrame {
			ev.err = streaming.ErrObjectTooLarge
		} else {
			frame := carve(&arena, n, watchArena)
			if _, err := io.ReadFull(br, frame); err != nil {
				ev.err = unexpectedEOF(err)
			} else {
				ev.typ, raw, ev.err = parseWatchEvent(frame)
			}
		}
		if ev.err != nil {
			ev.typ = ""
			close(ev.done)
		}
		select {
		case s.pending <- ev:
		case <-s.stop:
			return
		}
		if ev.err != nil {
			return
		}
		select {
		case jobs <- decodeJob{ev, raw}:
		case <-s.stop:
			ev.err = errors.New("watch stopped")
			close(ev.done)
			return
		}
	}
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
func (s *watchStream[T]) decodeObject(data []byte) (runtime.Object, error) {
	l, err := splitEnvelope(data)
	if err != nil {
		return nil, err
	}
	var obj runtime.Object
	switch {
	case l.apiVersion == s.watch.apiVersion && l.kind == s.watch.kind:
		obj = s.watch.newItem()
	case l.kind == "Status" && (l.apiVersion == "v1" || l.apiVersion == "meta.k8s.io/v1"):
		obj = &metav1.Status{}
	default:
		return nil, fmt.Errorf("no kind %q is registered for version %q in the watch of %s", l.kind, l.apiVersion, s.watch.kind)
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

// Read hands out the next event's token, and the body's error after the
// last event.
func (s *watchStream[T]) Read(p []byte) (int, error) {
	ev, ok := <-s.pending
	if !ok {
		return 0, io.EOF
	}
	if ev.typ == "" && ev.err != nil {
		return 0, ev.err // the body ended: io.EOF, or how it failed
	}
	if len(p) < watchToken {
		return 0, io.ErrShortBuffer
	}
	s.current = ev
	binary.BigEndian.PutUint64(p, ev.seq)
	return watchToken, nil
}

// Close stops the reading and closes the body. Events being decoded are
// finished by the decoding goroutines, which then end.
func (s *watchStream[T]) Close() error {
	var err error
	s.stopped.Do(func() {
		close(s.stop)
		err = s.body.Close()
	})
	return err
}

// event returns the event of a token Read handed out.
func (s *watchStream[T]) event(token []byte) (*watchEvent, error) {
	if len(token) != watchToken || s.current == nil || binary.BigEndian.Uint64(token) != s.current.seq {
		return nil, errors.New("watch event token out of order")
	}
	return s.current, nil
}

// tokenEvents is the serializer of tokens into metav1.WatchEvent values:
// the event's type, and the token as its object.
type tokenEvents[T Object] struct{ s *watchStream[T] }

func (t tokenEvents[T]) Decode(data []byte, _ *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	ev, err := t.s.event(data)
	if err != nil {
		return nil, nil, err
	}
	if ev.typ == "" && ev.err != nil {
		return nil, nil, ev.err
	}
	out, ok := into.(*metav1.WatchEvent)
	if !ok {
		return nil, nil, fmt.Errorf("watch events decode into *metav1.WatchEvent, not %T", into)
	}
	// The object decoder reads the token before the next frame is read
	// into data: it need not be copied.
	*out = metav1.WatchEvent{Type: ev.typ, Object: runtime.RawExtension{Raw: data}}
	return out, nil, nil
}

func (tokenEvents[T]) Encode(runtime.Object, io.Writer) error {
	return errors.New("watch event tokens are not encoded")
}

func (tokenEvents[T]) Identifier() runtime.Identifier { return "informer-gen-plus-watch-token" }

// tokenObjects is the decoder of tokens into their events' objects.
type tokenObjects[T Object] struct{ s *watchStream[T] }

func (t tokenObjects[T]) Decode(data []byte, _ *schema.GroupVersionKind, _ runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	ev, err := t.s.event(data)
	if err != nil {
		return nil, nil, err
	}
	<-ev.done
	if ev.err != nil {
		return nil, nil, ev.err
	}
	return ev.obj, nil, nil
}

package cache

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	goruntime "runtime"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
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

// watchToken is the size of what a watch stream hands client-go's watch
// decoder in place of an event: the event's sequence number.
const watchToken = 8

// errNotDecoded is the error of a list or watch response in an encoding the
// runtime does not decode.
var errNotDecoded = errors.New("not in an encoding the runtime decodes")

// watchFormat reads the watch events of one encoding.
type watchFormat interface {
	// read reads the next event off br into a buffer carved from arena
	// (carve), on the stream's reading goroutine. It returns io.EOF when
	// the body ends between events, io.ErrUnexpectedEOF when it ends
	// inside one, and streaming.ErrObjectTooLarge for an event larger than
	// maxWatchFrame.
	read(br *bufio.Reader, arena *[]byte) ([]byte, error)
	// decode decodes an event that read returned into its type and object,
	// as client-go's watch decoder does, on one of the stream's decoding
	// goroutines, concurrently with other calls. An error with an empty
	// type is an error of the event itself, one with a type an error of
	// its object.
	decode(frame []byte) (typ string, obj runtime.Object, err error)
}

// watchNegotiator is a runtime.ClientNegotiator for a REST client whose
// watch responses are decoded on several goroutines, in order.
//
// client-go's Request.Watch reads a watch response through the stream
// decoder its client's negotiator gives for the response's content type: a
// framer, a serializer of the frames into metav1.WatchEvent values and a
// decoder of their objects, used one after the other on one goroutine
// (watch.StreamWatcher). The framer watchNegotiator gives reads the events
// off the body itself, on a goroutine of its own, in the encoding of the
// response (its watchFormat), and has each event decoded by one of up to
// maxWatchDecoders goroutines as soon as it is read; it hands the
// StreamWatcher a token per event instead of the event, in order, and its
// serializer and object decoder give back the event's type and decoded object
// for the token. Everything else about the watch (the request, its retries,
// errors, Stop, the events of decode errors) is client-go's.
//
// A response in a content type without a format is an error
// (errNotDecoded): the client asks for those content types only. The
// encoders and decoders of everything else (the error answers of the watch
// request) are those of a codec factory of metav1's types, which decodes a
// Status.
type watchNegotiator struct {
	formats map[string]watchFormat // by media type
	base    runtime.ClientNegotiator
}

func newWatchNegotiator(gv schema.GroupVersion, formats map[string]watchFormat) *watchNegotiator {
	return &watchNegotiator{
		formats: formats,
		base:    runtime.NewClientNegotiator(serializer.NewCodecFactory(parameterScheme).WithoutConversion(), gv),
	}
}

func (n *watchNegotiator) Encoder(contentType string, params map[string]string) (runtime.Encoder, error) {
	return n.base.Encoder(contentType, params)
}

func (n *watchNegotiator) Decoder(contentType string, params map[string]string) (runtime.Decoder, error) {
	return n.base.Decoder(contentType, params)
}

// StreamDecoder returns the three parts of a new decoding of one watch
// response in contentType.
func (n *watchNegotiator) StreamDecoder(contentType string, params map[string]string) (runtime.Decoder, runtime.Serializer, runtime.Framer, error) {
	format, ok := n.formats[contentType]
	if !ok {
		return nil, nil, nil, fmt.Errorf("%w: content type %q", errNotDecoded, contentType)
	}
	s := &watchStream{format: format}
	return tokenObjects{s}, tokenEvents{s}, s, nil
}

// watchStream decodes one watch response.
type watchStream struct {
	format watchFormat
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
	seq uint64
	// end is set, instead of the rest, on the last event: how the body
	// ended (io.EOF) or could not be read further.
	end  error
	typ  string
	obj  runtime.Object
	err  error         // of the event or its object, which do not decode
	done chan struct{} // closed once typ, obj and err are set
}

// NewFrameReader starts reading body. It is called once per response, after
// StreamDecoder.
func (s *watchStream) NewFrameReader(body io.ReadCloser) io.ReadCloser {
	workers := min(goruntime.GOMAXPROCS(0), maxWatchDecoders)
	s.body, s.stop = body, make(chan struct{})
	s.pending = make(chan *watchEvent, 64*workers)
	jobs := make(chan decodeJob, 64*workers)
	for range workers {
		go func() {
			for j := range jobs {
				s.decode(j)
			}
		}()
	}
	go s.read(jobs)
	return s
}

// decodeJob is an event to decode.
type decodeJob struct {
	ev    *watchEvent
	frame []byte
}

// decode decodes j's event. A panic of the decoding is an error of the
// event (the formats make one of the object's decoding an error of the
// object).
func (s *watchStream) decode(j decodeJob) {
	defer close(j.ev.done)
	defer func() {
		if r := recover(); r != nil {
			j.ev.typ, j.ev.obj, j.ev.err = "", nil, fmt.Errorf("decoding panicked: %v", r)
		}
	}()
	j.ev.typ, j.ev.obj, j.ev.err = s.format.decode(j.frame)
}

// NewFrameWriter is not used: the REST client writes no watch events.
func (s *watchStream) NewFrameWriter(w io.Writer) io.Writer { return w }

// read reads the events off the body until it ends, an event cannot be
// read, or the watch stops. The last event of pending then carries the
// error, as client-go's framer would return it: io.EOF at the body's end,
// or what failed.
func (s *watchStream) read(jobs chan<- decodeJob) {
	defer close(s.pending)
	defer close(jobs)
	br := bufio.NewReaderSize(s.body, 64<<10)
	var arena []byte
	for seq := uint64(1); ; seq++ {
		ev := &watchEvent{seq: seq, done: make(chan struct{})}
		frame, err := s.format.read(br, &arena)
		if err != nil {
			ev.end = err
			close(ev.done)
		}
		select {
		case s.pending <- ev:
		case <-s.stop:
			return
		}
		if err != nil {
			return
		}
		select {
		case jobs <- decodeJob{ev, frame}:
		case <-s.stop:
			ev.err = errors.New("watch stopped")
			close(ev.done)
			return
		}
	}
}

// Read hands out the next event's token, and the body's error after the
// last event.
func (s *watchStream) Read(p []byte) (int, error) {
	ev, ok := <-s.pending
	if !ok {
		return 0, io.EOF
	}
	if ev.end != nil {
		return 0, ev.end // the body ended: io.EOF, or how it failed
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
func (s *watchStream) Close() error {
	var err error
	s.stopped.Do(func() {
		close(s.stop)
		err = s.body.Close()
	})
	return err
}

// event returns the decoded event of a token Read handed out, once it is
// decoded.
func (s *watchStream) event(token []byte) (*watchEvent, error) {
	if len(token) != watchToken || s.current == nil || binary.BigEndian.Uint64(token) != s.current.seq {
		return nil, errors.New("watch event token out of order")
	}
	<-s.current.done
	return s.current, nil
}

// tokenEvents is the serializer of tokens into metav1.WatchEvent values:
// the event's type, and the token as its object.
type tokenEvents struct{ s *watchStream }

func (t tokenEvents) Decode(data []byte, _ *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
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

func (tokenEvents) Encode(runtime.Object, io.Writer) error {
	return errors.New("watch event tokens are not encoded")
}

func (tokenEvents) Identifier() runtime.Identifier { return "informer-gen-plus-watch-token" }

// tokenObjects is the decoder of tokens into their events' objects.
type tokenObjects struct{ s *watchStream }

func (t tokenObjects) Decode(data []byte, _ *schema.GroupVersionKind, _ runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	ev, err := t.s.event(data)
	if err != nil {
		return nil, nil, err
	}
	if ev.err != nil {
		return nil, nil, ev.err
	}
	return ev.obj, nil, nil
}

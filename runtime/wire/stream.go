package wire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	goruntime "runtime"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ReadAheadBytes is how many bytes of events a watch decodes ahead of its
// consumer, at most: the events read and decoded, but not yet taken from
// the watch's result channel, plus the one being read (up to client-go's
// 16 MiB). An informer's memory for events not yet in its store is this
// for the watch, plus its queue (MaxQueueSize objects, where set).
const ReadAheadBytes = 8 << 20

// maxWatchDecoders bounds the goroutines that decode one watch's events: a
// watch lives as long as its informer, most of the time idle, and one reader
// feeds them.
const maxWatchDecoders = 4

// watchToken is the size of what a watch stream hands client-go's watch
// decoder in place of an event: the event's sequence number.
const watchToken = 8

// errStopped ends the reading of a watch that was stopped.
var errStopped = errors.New("watch stopped")

// frame is an event as read off the body.
type frame struct {
	b    []byte
	size int  // bytes of the read-ahead budget it holds
	deep bool // nested deeper than encoding/json reads
}

// watchFormat reads and decodes the watch events of one encoding. Where
// event or object report false, client-go's decoders decode the event or
// the object from the same bytes.
type watchFormat interface {
	// read reads the next event off br, on the stream's reading
	// goroutine, into a buffer of a, reserving its bytes with take (false:
	// the watch stopped). It ends the stream as client-go's framer and
	// stream decoder end it, with their errors: io.EOF when the body ends
	// between events, io.ErrUnexpectedEOF inside one,
	// streaming.ErrObjectTooLarge past maxWatchFrame bytes.
	read(br *bufio.Reader, a *arena, take func(int) bool) (frame, error)
	// event cuts an event into its type and its object's bytes, as the
	// serializer would decode it into a metav1.WatchEvent.
	event(f frame) (typ string, raw []byte, ok bool)
	// object decodes an event's object of T's kind, as client-go's object
	// decoder would, with its error.
	object(raw []byte) (obj runtime.Object, err error, ok bool)
}

// watchStream decodes one watch response: the framer, serializer and object
// decoder client-go's Request.Watch reads a watch response through.
//
// client-go reads the response through a framer, a serializer of the frames
// into metav1.WatchEvent values and a decoder of their objects, one after the
// other on one goroutine (watch.StreamWatcher). A watchStream reads the
// events off the body itself, on a goroutine of its own, and has each event
// decoded by one of up to maxWatchDecoders goroutines as soon as it is read;
// it hands the StreamWatcher a token per event instead of the event, in
// order, and its serializer and object decoder (tokenEvents, tokenObjects)
// give back the event's type and decoded object, or the error client-go's
// would give, for the token. Everything else about the watch (the request,
// its retries, errors, Stop, the ERROR events of decode errors) is
// client-go's.
type watchStream struct {
	format  watchFormat
	events  runtime.Decoder // client-go's serializer of events
	objects runtime.Decoder // and decoder of their objects
	// pending holds the events in the order they were read, each decoded
	// or being decoded; the reader closes it when the body ends.
	pending chan *watchEvent
	body    io.ReadCloser
	budget  *budget
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
	end      error
	size     int // of the read-ahead budget
	typ      string
	obj      runtime.Object
	eventErr error         // of the event, which does not decode
	objErr   error         // of its object
	done     chan struct{} // closed once the rest is set
}

// NewFrameReader starts reading body. It is called once per response, after
// StreamDecoder.
func (s *watchStream) NewFrameReader(body io.ReadCloser) io.ReadCloser {
	workers := min(goruntime.GOMAXPROCS(0), maxWatchDecoders)
	s.body, s.stop = body, make(chan struct{})
	s.budget = newBudget(ReadAheadBytes)
	s.pending = make(chan *watchEvent, 64*workers)
	jobs := make(chan decodeJob, 64*workers)
	for range workers {
		go func() {
			for j := range jobs {
				s.decode(j.ev, j.frame)
			}
		}()
	}
	go s.read(jobs)
	return s
}

// decodeJob is an event to decode.
type decodeJob struct {
	ev    *watchEvent
	frame frame
}

// decode decodes an event as client-go's watch decoder does
// (restclientwatch.Decoder, which then checks the event's type): the
// event's own decoding where the format reads it, client-go's serializer
// and object decoder otherwise. A panic of the decoding is an error of the
// event.
func (s *watchStream) decode(ev *watchEvent, f frame) {
	defer close(ev.done)
	defer func() {
		if r := recover(); r != nil {
			ev.typ, ev.obj, ev.eventErr = "", nil, fmt.Errorf("decoding panicked: %v", r)
		}
	}()
	if typ, raw, ok := s.format.event(f); ok {
		if obj, err, ok := s.format.object(raw); ok {
			ev.typ, ev.obj, ev.objErr = typ, obj, err
			return
		}
		// An object the format does not decode: client-go's serializer
		// decodes the event too, for its errors (a JSON event whose object
		// is not valid JSON is an error of the event).
	}
	var got metav1.WatchEvent
	res, _, err := s.events.Decode(f.b, nil, &got)
	if err != nil {
		ev.eventErr = err // as it is: client-go compares some by identity
		return
	}
	if res != &got {
		ev.eventErr = errors.New("unable to decode to metav1.Event")
		return
	}
	ev.typ = got.Type
	ev.obj, ev.objErr = runtime.Decode(s.objects, got.Object.Raw)
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
	br := bufio.NewReaderSize(s.body, decodeChunk)
	a := &arena{max: decodeChunk, read: func() int64 { return math.MaxInt64 }}
	for seq := uint64(1); ; seq++ {
		f, err := s.format.read(br, a, s.budget.take)
		if err == errStopped {
			return
		}
		ev := &watchEvent{seq: seq, size: f.size, done: make(chan struct{})}
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
		case jobs <- decodeJob{ev, f}:
		case <-s.stop:
			ev.eventErr = errStopped
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
	s.budget.give(ev.size)
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
		s.budget.stop()
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
	if ev.eventErr != nil {
		return nil, nil, ev.eventErr
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
	if ev.objErr != nil {
		return nil, nil, ev.objErr
	}
	return ev.obj, nil, nil
}

// budget bounds the bytes of events a watch holds ahead of its consumer.
type budget struct {
	mu      sync.Mutex
	cond    sync.Cond
	free    int
	size    int
	stopped bool
}

func newBudget(size int) *budget {
	b := &budget{free: size, size: size}
	b.cond.L = &b.mu
	return b
}

// take waits until n bytes (at most the whole budget) are free and takes
// them; false once the watch stopped.
func (b *budget) take(n int) bool {
	n = min(n, b.size)
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.free < n && !b.stopped {
		b.cond.Wait()
	}
	if b.stopped {
		return false
	}
	b.free -= n
	return true
}

// give returns n bytes that take took.
func (b *budget) give(n int) {
	if n <= 0 {
		return
	}
	n = min(n, b.size)
	b.mu.Lock()
	b.free += n
	b.mu.Unlock()
	b.cond.Broadcast()
}

func (b *budget) stop() {
	b.mu.Lock()
	b.stopped = true
	b.mu.Unlock()
	b.cond.Broadcast()
}

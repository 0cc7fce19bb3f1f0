package cache

import (
	"bufio"
	"fmt"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
)

// jsonWatch is the watchFormat of JSON: one JSON object per
// metav1.WatchEvent, one after the other (the API server ends each with a
// newline).
//
// Events and their objects are decoded by apimachinery's JSON serializer,
// as client-go's typed clients decode them: non-strict, and the object's
// group, version and kind then cleared, as runtime.WithoutVersionDecoder
// clears them. Its scheme knows T's kind and metav1's types (Status, the
// object of an ERROR event): an object of any other kind is an error of its
// event.
type jsonWatch struct {
	events  runtime.Decoder
	objects runtime.Decoder
}

// newJSONWatch returns the JSON format of a watch of the objects newItem
// makes, of kind in gv. newItem must make pointers to structs.
func newJSONWatch[T Object](gv schema.GroupVersion, kind string, newItem func() T) jsonWatch {
	scheme := runtime.NewScheme()
	scheme.AddKnownTypeWithName(gv.WithKind(kind), newItem())
	metav1.AddToGroupVersion(scheme, gv)
	s := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme, json.SerializerOptions{})
	return jsonWatch{events: s, objects: runtime.WithoutVersionDecoder{Decoder: s}}
}

func (j jsonWatch) read(br *bufio.Reader, arena *[]byte) ([]byte, error) {
	return readJSONValue(br, arena, watchArena, maxWatchFrame)
}

// decode decodes the event, then its object, as client-go's watch decoder
// does (which then checks the event's type).
func (j jsonWatch) decode(frame []byte) (string, runtime.Object, error) {
	var ev metav1.WatchEvent
	if _, _, err := j.events.Decode(frame, nil, &ev); err != nil {
		return "", nil, err
	}
	obj, err := recovered(func() (runtime.Object, error) { return runtime.Decode(j.objects, ev.Object.Raw) })
	return ev.Type, obj, err
}

// readJSONValue reads the next JSON object or array off br, after any
// whitespace, into a buffer carved from arena (carve, with buffers of
// arenaSize bytes). It finds the value's end by counting brackets outside
// strings, without checking the rest of its syntax: decoding the value
// does. It returns io.EOF when br ends before the value starts,
// io.ErrUnexpectedEOF when it ends inside it, streaming.ErrObjectTooLarge
// for a value longer than limit bytes, and an error for a value that is
// neither an object nor an array (which no event is).
func readJSONValue(br *bufio.Reader, arena *[]byte, arenaSize, limit int) ([]byte, error) {
	var (
		sc      jsonScan
		partial []byte // the value's bytes read so far, when it spans reads
	)
	for {
		if _, err := br.Peek(1); err != nil {
			if err == io.EOF && (sc.started || len(partial) > 0) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		chunk, _ := br.Peek(br.Buffered())
		start, end, err := sc.scan(chunk)
		if err != nil {
			return nil, err
		}
		if start < 0 { // whitespace only
			_, _ = br.Discard(len(chunk))
			continue
		}
		if end < 0 {
			if len(partial)+len(chunk)-start > limit {
				return nil, streaming.ErrObjectTooLarge
			}
			partial = append(partial, chunk[start:]...)
			_, _ = br.Discard(len(chunk))
			continue
		}
		n := len(partial) + end - start
		if n > limit {
			return nil, streaming.ErrObjectTooLarge
		}
		value := carve(arena, n, arenaSize)
		copy(value[copy(value, partial):], chunk[start:end])
		_, _ = br.Discard(end)
		return value, nil
	}
}

// jsonScan follows the structure of one JSON value through the chunks of
// bytes it is read in.
type jsonScan struct {
	started  bool // the value's first byte was seen
	depth    int  // of brackets
	inString bool
	escaped  bool // the previous byte in a string was a backslash
}

// scan scans the next chunk of the value: start is where the value starts in
// chunk (0 once it started in an earlier one; -1 if chunk is whitespace
// before it) and end where it ends, just past its closing bracket (-1 if it
// goes on past chunk).
func (s *jsonScan) scan(chunk []byte) (start, end int, err error) {
	i := 0
	if !s.started {
		for i < len(chunk) && isJSONSpace(chunk[i]) {
			i++
		}
		if i == len(chunk) {
			return -1, -1, nil
		}
		if c := chunk[i]; c != '{' && c != '[' {
			return 0, 0, fmt.Errorf("invalid character %q looking for the beginning of a watch event", c)
		}
		s.started = true
	}
	start = i
	for ; i < len(chunk); i++ {
		c := chunk[i]
		if s.inString {
			switch {
			case s.escaped:
				s.escaped = false
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inString = false
			}
			continue
		}
		switch c {
		case '"':
			s.inString = true
		case '{', '[':
			s.depth++
		case '}', ']':
			if s.depth--; s.depth == 0 {
				return start, i + 1, nil
			}
		}
	}
	return start, -1, nil
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

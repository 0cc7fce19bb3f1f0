package cache

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	kjson "sigs.k8s.io/json"
)

// jsonWatch is the watchFormat of JSON: one JSON object per
// metav1.WatchEvent, one after the other (the API server ends each with a
// newline).
//
// Events and their objects decode as apimachinery's JSON serializer decodes
// them for client-go's typed clients: non-strict, and the object's group,
// version and kind then cleared, as runtime.WithoutVersionDecoder clears
// them. An event as the API server writes it, {"type":"...","object":{...}},
// whose object is of T's kind, is cut into its type and its object, and the
// object is decoded straight into a new T, by the serializer's own
// unmarshalling function; every other event, and every event whose object
// does not decode so, goes through the serializer, over a scheme that knows
// T's kind and metav1's types (Status, the object of an ERROR event): an
// object of any other kind is an error of its event.
type jsonWatch[T Object] struct {
	gvk     schema.GroupVersionKind
	newItem func() T
	events  runtime.Decoder
	objects runtime.Decoder
}

// newJSONWatch returns the JSON format of a watch of the objects newItem
// makes, of kind in gv. newItem must make pointers to structs.
func newJSONWatch[T Object](gv schema.GroupVersion, kind string, newItem func() T) jsonWatch[T] {
	scheme := runtime.NewScheme()
	scheme.AddKnownTypeWithName(gv.WithKind(kind), newItem())
	metav1.AddToGroupVersion(scheme, gv)
	s := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme, json.SerializerOptions{})
	return jsonWatch[T]{gvk: gv.WithKind(kind), newItem: newItem, events: s, objects: runtime.WithoutVersionDecoder{Decoder: s}}
}

func (j jsonWatch[T]) read(br *bufio.Reader, arena *[]byte) ([]byte, error) {
	return readJSONValue(br, arena, watchArena, maxWatchFrame)
}

// decode decodes the event, then its object, as client-go's watch decoder
// does (which then checks the event's type).
func (j jsonWatch[T]) decode(frame []byte) (string, runtime.Object, error) {
	if typ, raw, ok := cutJSONWatchEvent(frame); ok && typ != string(watch.Error) {
		if obj, ok := j.decodeItem(raw); ok {
			return typ, obj, nil
		}
	}
	return j.decodeBySerializer(frame)
}

// decodeBySerializer decodes the event, then its object, with the
// serializer.
func (j jsonWatch[T]) decodeBySerializer(frame []byte) (string, runtime.Object, error) {
	var ev metav1.WatchEvent
	if _, _, err := j.events.Decode(frame, nil, &ev); err != nil {
		return "", nil, err
	}
	obj, err := recovered(func() (runtime.Object, error) { return runtime.Decode(j.objects, ev.Object.Raw) })
	return ev.Type, obj, err
}

// decodeItem decodes raw into a new T when it is an object of T's kind
// that the serializer would decode into the same T: its top-level keys
// name its kind and version as "kind" and "apiVersion" and no other way
// (the serializer finds them by keys in any case), and it decodes without
// error. ok is false otherwise, for the serializer to decode raw.
func (j jsonWatch[T]) decodeItem(raw []byte) (obj T, ok bool) {
	plain := jsonMembers(raw, func(key, _ []byte) bool {
		k := string(key)
		return k == "kind" || k == "apiVersion" || !strings.EqualFold(k, "kind") && !strings.EqualFold(k, "apiVersion")
	})
	if !plain {
		return obj, false
	}
	obj, err := recovered(func() (T, error) {
		obj := j.newItem()
		return obj, kjson.UnmarshalCaseSensitivePreserveInts(raw, obj)
	})
	if err != nil {
		return obj, false
	}
	kind := obj.GetObjectKind()
	if kind.GroupVersionKind() != j.gvk {
		return obj, false
	}
	kind.SetGroupVersionKind(schema.GroupVersionKind{})
	return obj, true
}

// cutJSONWatchEvent cuts an event written as the API server writes them, an
// object of two members, "type" with a string of capital letters and "object"
// with an object, into the type and the object's bytes. ok is false for any
// other event, which the serializer then decodes.
func cutJSONWatchEvent(frame []byte) (typ string, raw []byte, ok bool) {
	var gotType, gotObject bool
	ok = jsonMembers(frame, func(key, value []byte) bool {
		switch string(key) {
		case "type":
			if gotType || len(value) < 2 || value[0] != '"' || !isUpperLetters(value[1:len(value)-1]) {
				return false
			}
			typ, gotType = string(value[1:len(value)-1]), true
		case "object":
			if gotObject || value[0] != '{' {
				return false
			}
			raw, gotObject = value, true
		default:
			return false
		}
		return true
	})
	return typ, raw, ok && gotType && gotObject
}

// jsonMembers calls keep with the key and the value of every member of the
// JSON object data, in order, while it returns true, and reports whether
// data is an object whose every member keep kept. Keys must be plain ASCII
// without escapes. Values are cut by their quotes and brackets, without
// checking their syntax: decoding them does.
func jsonMembers(data []byte, keep func(key, value []byte) bool) bool {
	i := skipJSONSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return false
	}
	i = skipJSONSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return skipJSONSpace(data, i+1) == len(data)
	}
	for i < len(data) {
		if data[i] != '"' {
			return false
		}
		end := bytes.IndexByte(data[i+1:], '"') + i + 1
		if end == i || !isPlainJSONKey(data[i+1:end]) {
			return false
		}
		key := data[i+1 : end]
		i = skipJSONSpace(data, end+1)
		if i == len(data) || data[i] != ':' {
			return false
		}
		i = skipJSONSpace(data, i+1)
		n := jsonValueLen(data[i:])
		if n <= 0 || !keep(key, data[i:i+n]) {
			return false
		}
		i = skipJSONSpace(data, i+n)
		if i == len(data) {
			return false
		}
		switch data[i] {
		case '}':
			return skipJSONSpace(data, i+1) == len(data)
		case ',':
			i = skipJSONSpace(data, i+1)
		default:
			return false
		}
	}
	return false
}

// jsonValueLen returns the length of the JSON value data starts with: a
// string up to its closing quote, an object or an array up to its closing
// bracket, anything else up to the next delimiter; 0 if data ends inside
// it.
func jsonValueLen(data []byte) int {
	if len(data) == 0 {
		return 0
	}
	switch data[0] {
	case '"':
		for i := 1; i < len(data); i++ {
			switch data[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return 0
	case '{', '[':
		var sc jsonScan
		if _, end, err := sc.scan(data); err == nil && end > 0 {
			return end
		}
		return 0
	}
	for i, c := range data {
		if isJSONDelimiter(c) {
			return i
		}
	}
	return len(data)
}

// isPlainJSONKey reports whether the bytes of a key between its quotes are
// ASCII without escapes or control characters: the key is what they say,
// and no other key folds to it.
func isPlainJSONKey(key []byte) bool {
	for _, c := range key {
		if c == '\\' || c >= 0x80 || c < 0x20 {
			return false
		}
	}
	return true
}

// isJSONDelimiter reports whether c ends a number or a literal.
func isJSONDelimiter(c byte) bool { return c == ',' || c == '}' || c == ']' || isJSONSpace(c) }

func isUpperLetters(b []byte) bool {
	for _, c := range b {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

func skipJSONSpace(data []byte, i int) int {
	for i < len(data) && isJSONSpace(data[i]) {
		i++
	}
	return i
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
			if s.escaped {
				s.escaped = false
				continue
			}
			// Skip to the string's closing quote, or its next escape, or
			// the end of chunk, without looking at each byte.
			q := bytes.IndexByte(chunk[i:], '"')
			if q < 0 {
				q = len(chunk) - i
			}
			if b := bytes.IndexByte(chunk[i:i+q], '\\'); b >= 0 {
				i += b
				s.escaped = true
			} else if i += q; i < len(chunk) {
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

package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	kjson "sigs.k8s.io/json"
)

// maxNestingDepth is encoding/json's (and sigs.k8s.io/json's) limit on the
// nesting of arrays and objects in one document.
const maxNestingDepth = 10000

// jsonScan follows the structure of one JSON value, of any type, through
// the chunks of bytes it is read in: the runtime's one JSON scanner. It
// finds a value's end by its brackets and quotes, without checking the rest
// of its syntax: decoding the value does.
type jsonScan struct {
	started  bool // the value's first byte was seen
	scalar   bool // the value is a number or a literal, which ends at a delimiter
	depth    int  // of brackets
	maxDepth int
	inString bool
	escaped  bool // the previous byte in a string was a backslash
}

// scan scans the next chunk of the value: start is where the value starts in
// chunk (0 once it started in an earlier one; -1 if chunk is whitespace
// before it) and end where it ends, just past its last byte (-1 if it may go
// on past chunk: a scalar ends at the end of the body too).
func (s *jsonScan) scan(chunk []byte) (start, end int) {
	i := 0
	if !s.started {
		i = skipJSONSpace(chunk, 0)
		if i == len(chunk) {
			return -1, -1
		}
		s.started = true
		start = i
		switch chunk[i] {
		case '{', '[':
		case '"':
			s.inString = true
			i++
		default:
			s.scalar = true
		}
	}
	if s.scalar {
		for ; i < len(chunk); i++ {
			if isJSONDelimiter(chunk[i]) {
				return start, i
			}
		}
		return start, -1
	}
	for ; i < len(chunk); i++ {
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
				if s.depth == 0 {
					return start, i + 1 // a string value
				}
			}
			continue
		}
		switch chunk[i] {
		case '"':
			s.inString = true
		case '{', '[':
			if s.depth++; s.depth > s.maxDepth {
				s.maxDepth = s.depth
			}
		case '}', ']':
			if s.depth--; s.depth <= 0 {
				return start, i + 1
			}
		}
	}
	return start, -1
}

// readJSONValue reads the next JSON value off br, after any whitespace,
// into a buffer carved from a (or a new one, when a is nil), and returns it
// with its nesting depth. It returns io.EOF when br ends before the value
// starts; io.ErrUnexpectedEOF and the bytes read when it ends inside it;
// and, for a value longer than limit bytes, streaming.ErrObjectTooLarge
// once the value ended (io.ErrUnexpectedEOF if the body ends first; its
// bytes past limit are read but not kept).
func readJSONValue(br *bufio.Reader, a *arena, limit int) ([]byte, int, error) {
	var (
		sc      jsonScan
		partial []byte // the value's bytes read so far, when it spans reads
		n       int    // the value's length so far
	)
	for {
		if _, err := br.Peek(1); err != nil {
			switch {
			case err == io.EOF && sc.scalar && n <= limit:
				return append([]byte(nil), partial...), 0, nil // a scalar ends with the body
			case err == io.EOF && sc.started:
				if n > limit {
					partial = nil
				}
				return partial, sc.maxDepth, io.ErrUnexpectedEOF
			}
			return nil, 0, err
		}
		chunk, _ := br.Peek(br.Buffered())
		start, end := sc.scan(chunk)
		if start < 0 { // whitespace only
			_, _ = br.Discard(len(chunk))
			continue
		}
		if end < 0 {
			if n += len(chunk) - start; n <= limit {
				partial = append(partial, chunk[start:]...)
			} else {
				partial = nil
			}
			_, _ = br.Discard(len(chunk))
			continue
		}
		if n += end - start; n > limit {
			_, _ = br.Discard(end)
			return nil, 0, streaming.ErrObjectTooLarge
		}
		var value []byte
		if a != nil {
			value = a.carve(n)
		} else {
			value = make([]byte, n)
		}
		copy(value[copy(value, partial):], chunk[start:end])
		_, _ = br.Discard(end)
		return value, sc.maxDepth, nil
	}
}

// jsonValueLen returns the length of the JSON value data starts with, and
// its nesting depth; 0 if data ends inside it.
func jsonValueLen(data []byte) (int, int) {
	var sc jsonScan
	start, end := sc.scan(data)
	switch {
	case start < 0:
		return 0, 0
	case end < 0 && sc.scalar:
		return len(data), 0
	case end < 0:
		return 0, 0
	}
	return end, sc.maxDepth
}

// jsonMembers calls keep with the key and the value of every member of the
// JSON object data, in order, while it returns true, and reports whether
// data is an object whose every member keep kept. Keys must be plain (see
// isPlainJSONKey). Values are cut by their quotes and brackets, without
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
		n, _ := jsonValueLen(data[i:])
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

// foldsToTypeMeta reports whether encoding/json, which matches keys in any
// case, could take key for "kind" or "apiVersion" though it is neither.
func foldsToTypeMeta(key string) bool {
	return key != "kind" && key != "apiVersion" && (strings.EqualFold(key, "kind") || strings.EqualFold(key, "apiVersion"))
}

// isJSONDelimiter reports whether c ends a number or a literal.
func isJSONDelimiter(c byte) bool { return c == ',' || c == '}' || c == ']' || isJSONSpace(c) }

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipJSONSpace(data []byte, i int) int {
	for i < len(data) && isJSONSpace(data[i]) {
		i++
	}
	return i
}

func isUpperLetters(b []byte) bool {
	for _, c := range b {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// peekJSON returns the next byte of br that is not whitespace, without
// reading it.
func peekJSON(br *bufio.Reader) (byte, error) {
	for {
		b, err := br.Peek(1)
		if err != nil {
			return 0, err
		}
		if !isJSONSpace(b[0]) {
			return b[0], nil
		}
		_, _ = br.Discard(1)
	}
}

// jsonList decodes JSON LIST responses of one list kind as they arrive.
type jsonList[T Object] struct {
	apiVersion string // the list's apiVersion, when it has one
	listKind   string // and its kind
	newItem    func() T
}

// decode reads a LIST response body in JSON off br and decodes it into an
// ItemList[T], as apimachinery's JSON serializer decodes it into the list
// type: "metadata" and every item by the serializer's own unmarshalling
// function (sigs.k8s.io/json.UnmarshalCaseSensitivePreserveInts), the items
// into new objects, on up to GOMAXPROCS goroutines while the body is still
// being read; other members are checked and skipped. rec records the body
// until the items start after a "kind" and an "apiVersion" of the list's
// (as the API server writes lists); anything the serializer may decode
// otherwise (another kind, a key it matches in another case, a repeated
// member) hands the body over until then.
func (d *jsonList[T]) decode(br *bufio.Reader, rec *recorder) (*ItemList[T], outcome, error) {
	if c, err := peekJSON(br); err != nil || c != '{' {
		return nil, handOver, nil
	}
	_, _ = br.Discard(1)
	var (
		out                          = &ItemList[T]{}
		committed                    bool  // rec stopped: the list's kind is known
		failure                      error // client-go's decoding fails too, unless the kind changes
		items                        *itemPipeline[T]
		kind, apiVersion, meta, list bool // seen
	)
	defer func() {
		if items != nil {
			_, _ = items.finish() // the goroutines end
		}
	}()
	// bad ends the decoding on a body that is not valid JSON or could not
	// be read: client-go's decoder fails on it too.
	bad := func(err error) (*ItemList[T], outcome, error) {
		if !committed {
			return nil, handOver, nil
		}
		return nil, failed, err
	}
	// other ends it on a member the serializer may read otherwise.
	other := func() (*ItemList[T], outcome, error) {
		if committed {
			return nil, relist, nil
		}
		return nil, handOver, nil
	}
	fail := func(err error) {
		if failure == nil {
			failure = err
		}
	}
	for first := true; ; first = false {
		more, err := nextJSONMember(br, '}', first)
		if err != nil {
			return bad(err)
		}
		if !more {
			break
		}
		key, plain, err := readJSONKey(br)
		if err != nil {
			return bad(err)
		}
		switch {
		case !plain || foldsToTypeMeta(key):
			return other()
		case key == "kind" || key == "apiVersion":
			seen, want := &kind, d.listKind
			if key == "apiVersion" {
				seen, want = &apiVersion, d.apiVersion
			}
			if *seen || committed {
				return other()
			}
			v, _, err := readJSONValue(br, nil, math.MaxInt)
			if err != nil {
				return bad(unexpectedEOF(err))
			}
			var str string
			if json.Unmarshal(v, &str) != nil || str != want {
				return other()
			}
			*seen = true
		case key == "metadata":
			if meta {
				return other()
			}
			meta = true
			v, depth, err := readJSONValue(br, nil, math.MaxInt)
			if err != nil {
				return bad(unexpectedEOF(err))
			}
			if depth+1 > maxNestingDepth {
				fail(errors.New("json: exceeded max depth"))
			} else if err := kjson.UnmarshalCaseSensitivePreserveInts(v, &out.ListMeta); err != nil {
				fail(err)
			}
		case key == "items":
			if list {
				return other()
			}
			list = true
			if kind && apiVersion && !committed {
				committed = true
				rec.stop()
			}
			var itemErr error
			items, itemErr, err = d.readItems(br, rec)
			if err != nil {
				return bad(err)
			}
			if itemErr != nil {
				fail(itemErr)
			}
		default:
			// Another member, such as "Items": the serializer's unmarshalling
			// function, which matches keys in their case, skips it.
			v, depth, err := readJSONValue(br, nil, math.MaxInt)
			if err != nil {
				return bad(unexpectedEOF(err))
			}
			if depth+1 > maxNestingDepth || !json.Valid(v) {
				fail(fmt.Errorf("json: invalid value of member %q", key))
			}
		}
		if failure != nil && !committed {
			return nil, handOver, nil
		}
	}
	if c, err := peekJSON(br); err != io.EOF {
		if err == nil {
			err = fmt.Errorf("invalid character %q after the list", c)
		}
		return bad(err)
	}
	if items != nil {
		decodedItems, err := items.finish()
		items = nil
		if err != nil {
			fail(err)
		}
		out.Items = decodedItems
	}
	switch {
	case failure != nil && !committed:
		return nil, handOver, nil
	case failure != nil:
		return nil, failed, failure
	}
	return out, decoded, nil
}

// readItems reads the value of "items", null or an array, and starts
// decoding its items; the pipeline is nil for null. itemErr is the error of
// a value that is neither, or of an item nested too deep; err one of reading
// the body or of its syntax.
func (d *jsonList[T]) readItems(br *bufio.Reader, rec *recorder) (items *itemPipeline[T], itemErr, err error) {
	c, err := peekJSON(br)
	if err != nil {
		return nil, nil, unexpectedEOF(err)
	}
	if c != '[' {
		v, _, err := readJSONValue(br, nil, math.MaxInt)
		if err != nil {
			return nil, nil, unexpectedEOF(err)
		}
		if string(v) != "null" {
			return nil, fmt.Errorf("json: cannot unmarshal %.20q into the list's items", v), nil
		}
		return nil, nil, nil
	}
	_, _ = br.Discard(1)
	items = newItemPipeline(func(item []byte) (T, error) {
		obj := d.newItem()
		return obj, kjson.UnmarshalCaseSensitivePreserveInts(item, obj)
	})
	items.arena = arena{max: itemArena, read: func() int64 { return rec.n }}
	adding := true
	for first := true; ; first = false {
		more, err := nextJSONMember(br, ']', first)
		if err != nil {
			return items, nil, err
		}
		if !more {
			return items, itemErr, nil
		}
		item, depth, err := readJSONValue(br, &items.arena, math.MaxInt)
		if err != nil {
			return items, nil, unexpectedEOF(err)
		}
		if depth+2 > maxNestingDepth && itemErr == nil {
			itemErr = errors.New("json: exceeded max depth")
		}
		if adding && itemErr == nil {
			adding = items.add(item) // false once an item failed to decode
		}
	}
}

// nextJSONMember reads what stands before the next member of an object or
// element of an array: nothing before the first, a comma before any other.
// At the end, it reads the closing bracket close and reports false.
func nextJSONMember(br *bufio.Reader, close byte, first bool) (bool, error) {
	c, err := peekJSON(br)
	if err != nil {
		return false, unexpectedEOF(err)
	}
	if c == close {
		_, _ = br.Discard(1)
		return false, nil
	}
	if !first {
		if c != ',' {
			return false, fmt.Errorf("invalid character %q after a value", c)
		}
		_, _ = br.Discard(1)
	}
	return true, nil
}

// readJSONKey reads an object's key and its colon; plain reports whether
// the key is plain (isPlainJSONKey), and so is what it says.
func readJSONKey(br *bufio.Reader) (key string, plain bool, err error) {
	if c, err := peekJSON(br); err != nil || c != '"' {
		if err == nil {
			err = fmt.Errorf("invalid character %q looking for a key", c)
		}
		return "", false, unexpectedEOF(err)
	}
	v, _, err := readJSONValue(br, nil, math.MaxInt)
	if err != nil {
		return "", false, unexpectedEOF(err)
	}
	if c, err := peekJSON(br); err != nil || c != ':' {
		if err == nil {
			err = fmt.Errorf("invalid character %q after a key", c)
		}
		return "", false, unexpectedEOF(err)
	}
	_, _ = br.Discard(1)
	inner := v[1 : len(v)-1]
	return string(inner), isPlainJSONKey(inner), nil
}

// jsonFormat is the watchFormat of JSON: one JSON value per
// metav1.WatchEvent, one after the other (the API server ends each with a
// newline), framed as client-go's encoding/json decoder frames them.
//
// An event as the API server writes it, {"type":"...","object":{...}},
// whose object is of T's kind with plain keys, is cut into its type and its
// object, and the object decoded straight into a new T by the serializer's
// own unmarshalling function; every other event and object is decoded by
// client-go's decoders.
type jsonFormat[T Object] struct {
	gvk     schema.GroupVersionKind
	newItem func() T
}

// read reads the next event: io.EOF when the body ends between events;
// io.ErrUnexpectedEOF when it ends inside one whose bytes so far are valid
// JSON, and encoding/json's syntax error otherwise; a value that is not an
// object or an array (no event) as encoding/json reads it.
func (j jsonFormat[T]) read(br *bufio.Reader, a *arena, take func(int) bool) (frame, error) {
	c, err := peekJSON(br)
	if err != nil {
		return frame{}, err
	}
	if c != '{' && c != '[' {
		return readOtherJSON(br)
	}
	v, depth, err := readJSONValue(br, a, maxWatchFrame)
	if err == io.ErrUnexpectedEOF && v != nil {
		return frame{}, truncatedJSON(v)
	}
	if err != nil {
		return frame{}, err
	}
	if !take(len(v)) {
		return frame{}, errStopped
	}
	return frame{b: v, size: len(v), deep: depth > maxNestingDepth}, nil
}

// readOtherJSON reads a value that is not an object or an array with
// encoding/json's decoder, as client-go's framer does. No such value is an
// event; its frame decodes to an error.
func readOtherJSON(br *bufio.Reader) (frame, error) {
	dec := json.NewDecoder(io.LimitReader(br, maxWatchFrame+1))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		if err == io.ErrUnexpectedEOF && dec.InputOffset() > maxWatchFrame {
			return frame{}, streaming.ErrObjectTooLarge
		}
		return frame{}, err
	}
	return frame{b: v}, nil
}

// truncatedJSON returns what encoding/json's decoder returns for the bytes
// of a value the body ended in.
func truncatedJSON(partial []byte) error {
	var v json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(partial)).Decode(&v); err != nil {
		return err
	}
	return io.ErrUnexpectedEOF
}

func (j jsonFormat[T]) event(f frame) (string, []byte, bool) {
	if f.deep {
		return "", nil, false
	}
	return cutJSONWatchEvent(f.b)
}

// object decodes raw into a new T when it is an object of T's kind that
// the serializer would decode into the same T: its top-level keys name its
// kind and version as "kind" and "apiVersion" and no other way (the
// serializer finds them by keys in any case), and it decodes without error.
// ok is false otherwise, for client-go's decoder to decode raw.
func (j jsonFormat[T]) object(raw []byte) (runtime.Object, error, bool) {
	plain := jsonMembers(raw, func(key, _ []byte) bool {
		return isPlainJSONKey(key) && !foldsToTypeMeta(string(key))
	})
	if !plain {
		return nil, nil, false
	}
	obj, err := recovered(func() (T, error) {
		obj := j.newItem()
		return obj, kjson.UnmarshalCaseSensitivePreserveInts(raw, obj)
	})
	if err != nil {
		return nil, nil, false
	}
	kind := obj.GetObjectKind()
	if kind.GroupVersionKind() != j.gvk {
		return nil, nil, false
	}
	kind.SetGroupVersionKind(schema.GroupVersionKind{})
	return obj, nil, true
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

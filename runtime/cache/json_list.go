package cache

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	kjson "sigs.k8s.io/json"
)

// errJSONOther is the error of a JSON body that the runtime does not decode
// into a list: not a list of the expected kind, or not one it decodes as the
// serializer would (a key it matches in another case, a repeated member, a
// syntax error, an item that fails to decode). Its caller lists again
// through the typed client, whose decoding gives the list or the error.
var errJSONOther = errors.New("not a JSON list the runtime decodes")

// jsonList decodes JSON LIST responses of one list kind as they arrive.
type jsonList[T Object] struct {
	apiVersion string // the list's apiVersion, when it has one
	listKind   string // and its kind
	newItem    func() T
}

// decode reads a LIST response body in JSON, an object, and decodes it into
// an ItemList[T], as apimachinery's JSON serializer decodes it into the list
// type for client-go's typed clients: the members "metadata" and "items"
// by the serializer's own unmarshalling function
// (sigs.k8s.io/json.UnmarshalCaseSensitivePreserveInts), every item into a
// new object, on up to GOMAXPROCS goroutines while the body is still being
// read; "kind" and "apiVersion", when present, must name the list's kind;
// any other member is checked to be valid JSON and skipped. The items keep
// the kind and version they were written with, as in client-go's lists. It
// returns errNotDecoded, having read at most the whitespace it starts with,
// for a body that is not a JSON object, and errJSONOther for one it does not
// decode so, having read at most all of it; any other error is an error of reading the body.
func (d *jsonList[T]) decode(br *bufio.Reader) (*ItemList[T], error) {
	s := jsonStream{br: br}
	if c, err := s.peek(); err != nil || c != '{' {
		return nil, errNotDecoded
	}
	_, _ = br.Discard(1)
	out := &ItemList[T]{}
	var items *itemPipeline[T]
	defer func() {
		if items != nil {
			_, _ = items.finish() // the goroutines end
		}
	}()
	seen := map[string]bool{}
	for first := true; ; first = false {
		more, err := s.next('}', first)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		key, err := s.key()
		if err != nil {
			return nil, err
		}
		member := listMember(key)
		if member == "" {
			if _, err := s.value(nil, 0, math.MaxInt, true); err != nil {
				return nil, err
			}
			continue
		}
		if key != member || seen[member] {
			return nil, errJSONOther // found in another case, or again
		}
		seen[member] = true
		if member == "items" {
			if items, err = d.readItems(&s); err != nil {
				return nil, err
			}
			continue
		}
		v, err := s.value(nil, 0, math.MaxInt, false)
		if err != nil {
			return nil, err
		}
		if !d.member(out, member, v) {
			return nil, errJSONOther
		}
	}
	if c, err := s.peek(); err != io.EOF {
		if err == nil {
			err = fmt.Errorf("%w: %q after the list", errJSONOther, c)
		}
		return nil, err
	}
	if items != nil {
		decoded, err := items.finish()
		items = nil
		if err != nil {
			return nil, fmt.Errorf("%w: %w", errJSONOther, err)
		}
		out.Items = decoded
	}
	return out, nil
}

// listMember returns the member of a list key names in any case, or "".
func listMember(key string) string {
	for _, m := range []string{"kind", "apiVersion", "metadata", "items"} {
		if strings.EqualFold(key, m) {
			return m
		}
	}
	return ""
}

// member decodes the value v of the list's member "kind", "apiVersion" or
// "metadata" into out; false when the serializer would decode the list
// otherwise.
func (d *jsonList[T]) member(out *ItemList[T], member string, v []byte) bool {
	if member == "metadata" {
		return kjson.UnmarshalCaseSensitivePreserveInts(v, &out.ListMeta) == nil
	}
	var str string
	if json.Unmarshal(v, &str) != nil {
		return false
	}
	if member == "kind" {
		return str == d.listKind
	}
	return str == d.apiVersion
}

// readItems reads the value of "items", null or an array, and starts
// decoding its items; it returns nil for null.
func (d *jsonList[T]) readItems(s *jsonStream) (*itemPipeline[T], error) {
	c, err := s.peek()
	if err != nil {
		return nil, unexpectedEOF(err)
	}
	if c != '[' {
		v, err := s.value(nil, 0, math.MaxInt, false)
		if err != nil {
			return nil, err
		}
		if string(v) != "null" {
			return nil, errJSONOther
		}
		return nil, nil
	}
	_, _ = s.br.Discard(1)
	items := newItemPipeline(func(item []byte) (T, error) {
		obj := d.newItem()
		return obj, kjson.UnmarshalCaseSensitivePreserveInts(item, obj)
	})
	read := false
	defer func() {
		if !read {
			_, _ = items.finish() // the goroutines end
		}
	}()
	var arena []byte
	for first := true; ; first = false {
		more, err := s.next(']', first)
		if err != nil {
			return nil, err
		}
		if !more {
			read = true
			return items, nil
		}
		item, err := s.value(&arena, itemArena, math.MaxInt, false)
		if err != nil {
			return nil, err
		}
		if !items.add(item) {
			return nil, errJSONOther // an item failed to decode
		}
	}
}

// jsonStream reads the tokens of a JSON document off a body.
type jsonStream struct {
	br *bufio.Reader
}

// peek returns the next byte that is not whitespace, without reading it.
func (s *jsonStream) peek() (byte, error) {
	for {
		b, err := s.br.Peek(1)
		if err != nil {
			return 0, err
		}
		if !isJSONSpace(b[0]) {
			return b[0], nil
		}
		_, _ = s.br.Discard(1)
	}
}

// next reads what stands before the next member of an object or element of
// an array: nothing before the first, a comma before any other. At the end,
// it reads the closing bracket close and reports false.
func (s *jsonStream) next(close byte, first bool) (bool, error) {
	c, err := s.peek()
	if err != nil {
		return false, unexpectedEOF(err)
	}
	if c == close {
		_, _ = s.br.Discard(1)
		return false, nil
	}
	if !first {
		if c != ',' {
			return false, errJSONOther
		}
		_, _ = s.br.Discard(1)
	}
	return true, nil
}

// key reads an object's key and its colon. A key with an escape or a byte
// outside ASCII is errJSONOther: the serializer may match it to a member.
func (s *jsonStream) key() (string, error) {
	if c, err := s.peek(); err != nil || c != '"' {
		return "", errOr(err)
	}
	_, _ = s.br.Discard(1)
	var raw []byte
	for {
		chunk, err := s.br.ReadSlice('"')
		raw = append(raw, chunk...)
		if err == nil {
			break
		}
		if err != bufio.ErrBufferFull {
			return "", unexpectedEOF(err)
		}
	}
	if !isPlainJSONKey(raw[:len(raw)-1]) {
		return "", errJSONOther
	}
	key := string(raw[:len(raw)-1])
	if c, err := s.peek(); err != nil || c != ':' {
		return "", errOr(err)
	}
	_, _ = s.br.Discard(1)
	return key, nil
}

// errOr returns err made unexpected (the body ended inside the list), or
// errJSONOther when the body goes on with an unexpected byte.
func errOr(err error) error {
	if err != nil {
		return unexpectedEOF(err)
	}
	return errJSONOther
}

// value reads the next value, of any type, into a buffer carved from arena
// (or a new one when arena is nil). With check, a value that is not valid
// JSON is errJSONOther; without, decoding it checks it.
func (s *jsonStream) value(arena *[]byte, arenaSize, limit int, check bool) ([]byte, error) {
	c, err := s.peek()
	if err != nil {
		return nil, unexpectedEOF(err)
	}
	if arena == nil {
		arena = new([]byte)
	}
	var v []byte
	switch c {
	case '{', '[':
		v, err = readJSONValue(s.br, arena, arenaSize, limit)
	case '"':
		v, err = s.str()
	default:
		v, err = s.scalar()
	}
	if err != nil {
		return nil, unexpectedEOF(err)
	}
	if check && !json.Valid(v) {
		return nil, errJSONOther
	}
	return v, nil
}

// str reads a string, quotes included.
func (s *jsonStream) str() ([]byte, error) {
	var out []byte
	_, _ = s.br.Discard(1)
	out = append(out, '"')
	for {
		chunk, err := s.br.ReadSlice('"')
		out = append(out, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return nil, err
		}
		// The quote ends the string unless an odd number of backslashes
		// escape it.
		n := 0
		for i := len(out) - 2; i > 0 && out[i] == '\\'; i-- {
			n++
		}
		if n%2 == 0 {
			return out, nil
		}
	}
}

// scalar reads a number or a literal: the bytes up to the next delimiter.
func (s *jsonStream) scalar() ([]byte, error) {
	var out []byte
	for {
		b, err := s.br.Peek(1)
		if err == io.EOF && len(out) > 0 {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if isJSONDelimiter(b[0]) {
			return out, nil
		}
		out = append(out, b[0])
		_, _ = s.br.Discard(1)
	}
}

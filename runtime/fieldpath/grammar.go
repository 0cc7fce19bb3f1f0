package fieldpath

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Segment is one step of a Path: the JSON field Name, and whether the field
// is a list whose every element the rest of the path applies to (Each, written
// Name[*]).
type Segment struct {
	Name string
	Each bool
}

// Path is a parsed field path such as spec.containers[*].image. Parse
// produces paths of at least one segment with valid names.
type Path []Segment

// String returns the canonical form of p: names joined by '.', each name
// with Each set followed by "[*]". For a path produced by Parse, parsing the
// result gives p again.
func (p Path) String() string {
	var b strings.Builder
	p.writeTo(&b)
	return b.String()
}

func (p Path) writeTo(b *strings.Builder) {
	for i, s := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.Name)
		if s.Each {
			b.WriteString("[*]")
		}
	}
}

// MultiValued reports whether p contains [*], that is whether it can give
// more than one value for one object.
func (p Path) MultiValued() bool {
	for _, s := range p {
		if s.Each {
			return true
		}
	}
	return false
}

// Key is a parsed index key: one path, or several for a composite key, in
// the order written. Parse produces keys of at least one path and without
// duplicate paths.
type Key []Path

// String returns the canonical form of k: the canonical paths joined by ','
// without spaces. For a key produced by Parse, parsing the result gives k
// again.
func (k Key) String() string {
	var b strings.Builder
	for i, p := range k {
		if i > 0 {
			b.WriteByte(',')
		}
		p.writeTo(&b)
	}
	return b.String()
}

// MultiValued reports whether any path of k is multi-valued.
func (k Key) MultiValued() bool {
	for _, p := range k {
		if p.MultiValued() {
			return true
		}
	}
	return false
}

// SyntaxError is the error returned by Parse. Its message has the form
//
//	fieldpath: "spec..x": empty field name at column 6
type SyntaxError struct {
	Input  string // the string given to Parse
	Column int    // 1-based byte offset of the problem in Input; len(Input)+1 is the end
	Msg    string // what is wrong, such as "empty field name"
}

// Error returns `fieldpath: "<input>": <msg> at column <column>`.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("fieldpath: %q: %s at column %d", e.Input, e.Msg, e.Column)
}

// Parse parses a key: one or more paths separated by commas (see the package
// documentation for the grammar). Spaces are allowed only after a comma. On
// failure the error is a *SyntaxError that says what is wrong and where.
func Parse(s string) (Key, error) {
	p := parser{s: s}
	var k Key
	for {
		start := p.i
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		for _, q := range k {
			if ps := path.String(); q.String() == ps {
				return nil, p.errorAt(start, fmt.Sprintf("duplicate path %q", ps))
			}
		}
		k = append(k, path)
		if p.i == len(s) {
			return k, nil
		}
		p.i++ // the ',' that ended the path
		for p.i < len(s) && s[p.i] == ' ' {
			p.i++
		}
	}
}

// MustParse is like Parse but panics if s is not a valid key. It is meant
// for keys that are constants of the program.
func MustParse(s string) Key {
	k, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return k
}

type parser struct {
	s string
	i int // offset of the next byte to read
}

func (p *parser) errorAt(i int, msg string) error {
	return &SyntaxError{Input: p.s, Column: i + 1, Msg: msg}
}

// char describes the character at offset i for an error message.
func (p *parser) char(i int) string {
	r, _ := utf8.DecodeRuneInString(p.s[i:])
	return fmt.Sprintf("%q", r)
}

// path parses one path and stops at a ',' or at the end of the input.
func (p *parser) path() (Path, error) {
	if p.i == len(p.s) || p.s[p.i] == ',' {
		return nil, p.errorAt(p.i, "empty path")
	}
	var path Path
	for {
		name, err := p.name()
		if err != nil {
			return nil, err
		}
		seg := Segment{Name: name}
		if p.i < len(p.s) && p.s[p.i] == '[' {
			if !strings.HasPrefix(p.s[p.i:], "[*]") {
				return nil, p.errorAt(p.i, `expected "[*]"`)
			}
			seg.Each = true
			p.i += len("[*]")
		}
		path = append(path, seg)
		if p.i == len(p.s) || p.s[p.i] == ',' {
			return path, nil
		}
		if p.s[p.i] != '.' {
			return nil, p.errorAt(p.i, "unexpected character "+p.char(p.i))
		}
		p.i++
	}
}

// name parses one field name.
func (p *parser) name() (string, error) {
	start := p.i
	if p.i == len(p.s) || strings.IndexByte(".,[", p.s[p.i]) >= 0 {
		return "", p.errorAt(p.i, "empty field name")
	}
	if !isNameStart(p.s[p.i]) {
		return "", p.errorAt(p.i, "invalid character "+p.char(p.i)+" at start of field name")
	}
	for p.i < len(p.s) && isNameByte(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i], nil
}

func isNameStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isNameByte(c byte) bool {
	return isNameStart(c) || '0' <= c && c <= '9' || c == '-'
}

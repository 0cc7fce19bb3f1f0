package fieldpath

import (
	"strconv"
	"strings"
)

// The encoding of composite values: values are joined by sep, and a sep or
// esc byte inside a value is preceded by esc.
const (
	sep = '\x00'
	esc = '\x01'
)

// JoinValues returns the single index value of a key of len(values) paths,
// given one value per path in the order of the key. It is what generated
// index functions, generated lookup methods and Key.Values all use, so that
// lookups find what indexing stored.
//
// For one value, JoinValues returns it unchanged: a single-path index value
// is the plain field value. For several values, each value has every NUL
// (0x00) and every 0x01 byte prefixed by 0x01, and the results are joined by
// NUL. Values without those bytes (all ordinary ones) are thus simply joined
// by NUL. For no values it returns "".
//
// The encoding is unambiguous for a given number of values. Read left to
// right, a 0x01 always escapes the byte after it: escaped bytes (NUL or 0x01)
// come from inside a value, and every unescaped NUL is a separator. So
// splitting at the unescaped NULs and dropping the escaping 0x01 bytes
// recovers the values exactly (SplitValues does this), and two different
// lists of the same length never give the same string. Lists of different
// lengths may collide (JoinValues("a\x00b") == JoinValues("a", "b")), which
// does not matter because all values of one index come from the same key.
func JoinValues(values ...string) string {
	if len(values) == 1 {
		return values[0]
	}
	var b strings.Builder
	for i, v := range values {
		if i > 0 {
			b.WriteByte(sep)
		}
		if !strings.ContainsAny(v, "\x00\x01") {
			b.WriteString(v)
			continue
		}
		for j := 0; j < len(v); j++ {
			if v[j] == sep || v[j] == esc {
				b.WriteByte(esc)
			}
			b.WriteByte(v[j])
		}
	}
	return b.String()
}

// SplitValues is the inverse of JoinValues for a key of n paths: if s is
// JoinValues(vs...) with len(vs) == n, it returns vs and true. If s cannot
// have been produced by JoinValues from n values (a 0x01 not followed by NUL
// or 0x01, or not n values), it returns nil and false. For n == 1 it returns
// s itself, for n == 0 it accepts only "".
func SplitValues(s string, n int) ([]string, bool) {
	switch {
	case n == 1:
		return []string{s}, true
	case n <= 0:
		return nil, n == 0 && s == ""
	}
	values := make([]string, 0, n)
	var b strings.Builder
	escaped := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			if c != sep && c != esc {
				return nil, false
			}
			b.WriteByte(c)
			escaped = false
		case c == esc:
			escaped = true
		case c == sep:
			values = append(values, b.String())
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	if escaped {
		return nil, false
	}
	values = append(values, b.String())
	if len(values) != n {
		return nil, false
	}
	return values, true
}

// Combine returns the index values of a key from the values of each of its
// paths (parts[i] holds the values of the key's path i, for one object): one
// JoinValues per combination of one value from each part, with the first
// part varying slowest, and with duplicates removed keeping the first
// occurrence. If a part is empty, or there are no parts, the key has no value
// and Combine returns nil. With one part, the result is that part without
// duplicates, and may share memory with it. Generated index functions call it
// so that they give the same values, in the same order, as Key.Values.
func Combine(parts ...[]string) []string {
	if len(parts) == 0 {
		return nil
	}
	if len(parts) == 1 {
		return dedupe(parts[0])
	}
	n := 1
	sets := make([][]string, len(parts))
	for i, part := range parts {
		if len(part) == 0 {
			return nil
		}
		sets[i] = dedupe(part)
		n *= len(sets[i])
	}
	// Distinct combinations give distinct values (JoinValues is injective
	// for a fixed number of values), so no further deduplication is needed.
	out := make([]string, 0, n)
	tuple := make([]string, len(sets))
	var product func(i int)
	product = func(i int) {
		if i == len(sets) {
			out = append(out, JoinValues(tuple...))
			return
		}
		for _, v := range sets[i] {
			tuple[i] = v
			product(i + 1)
		}
	}
	product(0)
	return out
}

// dedupe returns vs without duplicates, keeping first occurrences; it returns
// vs itself if it has none.
func dedupe(vs []string) []string {
	if len(vs) < 2 {
		if len(vs) == 0 {
			return nil
		}
		return vs
	}
	seen := make(map[string]struct{}, len(vs))
	for i, v := range vs {
		if _, dup := seen[v]; !dup {
			seen[v] = struct{}{}
			continue
		}
		out := append(make([]string, 0, len(vs)-1), vs[:i]...)
		for _, w := range vs[i+1:] {
			if _, dup := seen[w]; !dup {
				seen[w] = struct{}{}
				out = append(out, w)
			}
		}
		return out
	}
	return vs
}

// Integer is the set of integer types that FormatInt accepts, including
// named types such as int32-based enums.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// FormatString renders a string leaf (or a named string type) as an index
// value: the string itself. Generated code dereferences pointer leaves
// itself: a nil pointer gives no value, so no helper takes a pointer.
func FormatString[T ~string](v T) string { return string(v) }

// FormatBool renders a bool leaf (or a named bool type) as "true" or "false".
func FormatBool[T ~bool](v T) string { return strconv.FormatBool(bool(v)) }

// FormatInt renders an integer leaf of any integer type in base 10, with a
// leading '-' for negative values and no '+' or leading zeros, as
// strconv.FormatInt and strconv.FormatUint do.
func FormatInt[T Integer](v T) string {
	if v < 0 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatUint(uint64(v), 10)
}

package fieldpath

import (
	"strconv"
	"strings"
)

// AppendInt appends FormatInt(v) to dst and returns the extended buffer.
// Unlike FormatInt, which allocates the string of every value outside
// 0..99, it allocates nothing when dst has room: generated iterator lookups
// encode an integer key into a buffer on their stack with it.
func AppendInt[T Integer](dst []byte, v T) []byte {
	if v < 0 {
		return strconv.AppendInt(dst, int64(v), 10)
	}
	return strconv.AppendUint(dst, uint64(v), 10)
}

// AppendValues appends JoinValues(values...) to dst and returns the extended
// buffer. It allocates nothing when dst has room (and the caller's values
// slice stays on its stack): generated iterator lookups encode a composite
// key into a buffer on their stack with it, where JoinValues would allocate
// the key.
func AppendValues(dst []byte, values ...string) []byte {
	if len(values) == 1 {
		return append(dst, values[0]...)
	}
	for i, v := range values {
		if i > 0 {
			dst = append(dst, sep)
		}
		if !strings.ContainsAny(v, "\x00\x01") {
			dst = append(dst, v...)
			continue
		}
		for j := 0; j < len(v); j++ {
			if v[j] == sep || v[j] == esc {
				dst = append(dst, esc)
			}
			dst = append(dst, v[j])
		}
	}
	return dst
}

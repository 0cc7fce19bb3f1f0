package fieldpath

// AppendCombined is the append form of Combine, for index functions that
// append their values to a caller's slice (cache.AppendIndexFunc). The parts
// are the consecutive runs of dst[start:], split at ends: part 0 is
// dst[start:ends[0]], part i is dst[ends[i-1]:ends[i]], and the last part is
// dst[ends[len(ends)-1]:]. AppendCombined replaces them with
// Combine(parts...), the same values in the same order, and returns
// dst[:start] extended with them. With no ends, the one part is
// dst[start:], returned without duplicates.
//
// It builds every combination with JoinValues (which allocates only the
// joined strings) and otherwise allocates nothing when dst has the room for
// the values it builds beside the parts (for at most 8 parts of at most 16
// values each): so an
// index function called with a slice reused from one object to the next
// allocates only the keys themselves. ends must be nondecreasing, within
// [start, len(dst)]; AppendCombined panics otherwise, as slicing does.
func AppendCombined(dst []string, start int, ends ...int) []string {
	var boundsBuf [9]int
	bounds := append(boundsBuf[:0], start)
	bounds = append(bounds, ends...)
	bounds = append(bounds, len(dst))
	// Remove duplicates within each part in place, keeping first
	// occurrences, and close the gaps so the parts stay consecutive.
	w := start
	for i := 0; i+1 < len(bounds); i++ {
		from, to := bounds[i], bounds[i+1]
		bounds[i] = w
		var seen map[string]struct{}
		if to-from > linearDedupeMax {
			seen = make(map[string]struct{}, to-from)
		}
		for j := from; j < to; j++ {
			v := dst[j]
			if seen != nil {
				if _, dup := seen[v]; dup {
					continue
				}
				seen[v] = struct{}{}
			} else if containsString(dst[bounds[i]:w], v) {
				continue
			}
			dst[w] = v
			w++
		}
		if w == bounds[i] {
			return dst[:start]
		}
	}
	bounds[len(bounds)-1] = w
	dst = dst[:w]
	nparts := len(bounds) - 1
	if nparts == 1 {
		return dst
	}
	// Append every combination after the parts, the first part varying
	// slowest, then move them down over the parts.
	var idxBuf [8]int
	var tupleBuf [8]string
	idx, tuple := idxBuf[:0], tupleBuf[:0]
	for i := range nparts {
		idx = append(idx, bounds[i])
		tuple = append(tuple, dst[bounds[i]])
	}
	combined := len(dst)
	for {
		dst = append(dst, JoinValues(tuple...))
		i := nparts - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < bounds[i+1] {
				tuple[i] = dst[idx[i]]
				break
			}
			idx[i] = bounds[i]
			tuple[i] = dst[idx[i]]
		}
		if i < 0 {
			break
		}
	}
	n := copy(dst[start:], dst[combined:])
	clear(dst[start+n:])
	return dst[:start+n]
}

// linearDedupeMax is the longest part AppendCombined removes duplicates
// from by comparing every pair of values, which allocates nothing; a longer
// part is deduplicated with a map.
const linearDedupeMax = 16

func containsString(vs []string, v string) bool {
	for _, s := range vs {
		if s == v {
			return true
		}
	}
	return false
}

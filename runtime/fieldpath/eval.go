package fieldpath

import (
	"encoding/json"
	"math"
	"strconv"
)

// Values returns the index values of k for an object in its JSON form, as
// decoded by apimachinery's unstructured package (map[string]any, []any,
// string, bool, int64, float64, json.Number, nil): Combine applied to the
// values of each path of k. The result is nil if any path has no value. See
// the package documentation for the rules.
func (k Key) Values(obj map[string]any) []string {
	if len(k) == 1 {
		return dedupe(k[0].values(obj))
	}
	parts := make([][]string, len(k))
	for i, p := range k {
		if parts[i] = p.values(obj); len(parts[i]) == 0 {
			return nil
		}
	}
	return Combine(parts...)
}

// Values returns the values of p in obj, an object in its JSON form (see
// Key.Values), without duplicates and in the order they occur in obj. A
// missing field or null along the way gives no value; [*] applies the rest of
// the path to every element of a list (and gives no value if the field is not
// a list); a leaf gives a value as FormatScalar renders it.
func (p Path) Values(obj map[string]any) []string {
	return dedupe(p.values(obj))
}

func (p Path) values(obj map[string]any) []string {
	var out []string
	var walk func(v any, rest Path)
	walk = func(v any, rest Path) {
		if len(rest) == 0 {
			if s, ok := FormatScalar(v); ok {
				out = append(out, s)
			}
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		field := m[rest[0].Name]
		if !rest[0].Each {
			walk(field, rest[1:])
			return
		}
		list, _ := field.([]any)
		for _, elem := range list {
			walk(elem, rest[1:])
		}
	}
	if len(p) > 0 {
		walk(obj, p)
	}
	return out
}

// FormatScalar renders a leaf of an object in its JSON form the way the
// typed helpers render the corresponding Go value: a string as is (as
// FormatString), a bool as "true" or "false" (as FormatBool), and an integer
// in base 10 (as FormatInt). Numbers may be int64, float64 or json.Number, as
// JSON decoders produce them, or any other Go integer type; a float gives a
// value only if it is integral and fits in an int64 or uint64. Anything else
// (nil, a fractional number, a map, a list, other types) gives ok == false:
// no value.
func FormatScalar(v any) (s string, ok bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool:
		return FormatBool(v), true
	case int64:
		return FormatInt(v), true
	case float64:
		return formatFloat(v)
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return FormatInt(i), true
		}
		// Unsigned integers above 2^63 keep their exact digits.
		if u, err := strconv.ParseUint(string(v), 10, 64); err == nil {
			return FormatInt(u), true
		}
		f, err := v.Float64()
		if err != nil {
			return "", false
		}
		return formatFloat(f)
	case int:
		return FormatInt(v), true
	case int8:
		return FormatInt(v), true
	case int16:
		return FormatInt(v), true
	case int32:
		return FormatInt(v), true
	case uint:
		return FormatInt(v), true
	case uint8:
		return FormatInt(v), true
	case uint16:
		return FormatInt(v), true
	case uint32:
		return FormatInt(v), true
	case uint64:
		return FormatInt(v), true
	case float32:
		return formatFloat(float64(v))
	}
	return "", false
}

// formatFloat renders an integral float in the int64 or uint64 range as an
// integer, since a JSON decoder may have produced a float64 for an integer
// field.
func formatFloat(f float64) (string, bool) {
	switch {
	case f != math.Trunc(f): // fractional or NaN
		return "", false
	case f >= -(1<<63) && f < 1<<63:
		return FormatInt(int64(f)), true
	case f >= 0 && f < 1<<64:
		return FormatInt(uint64(f)), true
	}
	return "", false // out of range or ±Inf
}

package fieldpath

import (
	"math"
	"reflect"
	"testing"
)

func TestJoinSplitValues(t *testing.T) {
	tests := []struct {
		values []string
		joined string
	}{
		{nil, ""},
		{[]string{""}, ""},
		{[]string{"a"}, "a"},
		// One value is returned unchanged, whatever it contains.
		{[]string{"a\x00b\x01"}, "a\x00b\x01"},
		{[]string{"", ""}, "\x00"},
		{[]string{"Running", "node-1"}, "Running\x00node-1"},
		{[]string{"a", "b", "c"}, "a\x00b\x00c"},
		{[]string{"a\x00b", "c"}, "a\x01\x00b\x00c"},
		{[]string{"a", "\x00b\x00"}, "a\x00\x01\x00b\x01\x00"},
		{[]string{"\x01", ""}, "\x01\x01\x00"},
		{[]string{"\x01\x00", "\x00\x01"}, "\x01\x01\x01\x00\x00\x01\x00\x01\x01"},
		{[]string{"é", "日本"}, "é\x00日本"},
	}
	for _, tt := range tests {
		got := JoinValues(tt.values...)
		if got != tt.joined {
			t.Errorf("JoinValues(%q) = %q, want %q", tt.values, got, tt.joined)
		}
		back, ok := SplitValues(got, len(tt.values))
		if !ok || !equalValues(back, tt.values) {
			t.Errorf("SplitValues(%q, %d) = %q, %v; want %q", got, len(tt.values), back, ok, tt.values)
		}
	}
}

// The values that look alike after naive joining stay distinct.
func TestJoinValuesInjective(t *testing.T) {
	lists := [][]string{
		{"a\x00b", "c"}, {"a", "b\x00c"},
		{"a\x01", "b"}, {"a", "\x01b"}, {"a\x01\x00", ""}, {"a\x01", "\x00"},
		{"", "\x00"}, {"\x00", ""}, {"", ""},
	}
	seen := map[string][]string{}
	for _, l := range lists {
		j := JoinValues(l...)
		if prev, dup := seen[j]; dup {
			t.Errorf("JoinValues(%q) == JoinValues(%q) == %q", l, prev, j)
		}
		seen[j] = l
	}
}

func TestSplitValuesInvalid(t *testing.T) {
	tests := []struct {
		s string
		n int
	}{
		{"a\x00b", 3},      // too few
		{"a\x00b\x00c", 2}, // too many
		{"a", 2},
		{"", 2},
		{"a\x01", 2},       // unpaired escape at the end
		{"a\x01b\x00c", 2}, // escape of an ordinary byte
		{"a\x00b\x01", 2},
		{"a", 0},
		{"", -1},
	}
	for _, tt := range tests {
		if got, ok := SplitValues(tt.s, tt.n); ok || got != nil {
			t.Errorf("SplitValues(%q, %d) = %q, %v; want nil, false", tt.s, tt.n, got, ok)
		}
	}
	if got, ok := SplitValues("", 0); !ok || len(got) != 0 {
		t.Errorf(`SplitValues("", 0) = %q, %v; want [], true`, got, ok)
	}
}

func TestCombine(t *testing.T) {
	tests := []struct {
		name  string
		parts [][]string
		want  []string
	}{
		{"no parts", nil, nil},
		{"one empty part", [][]string{{}}, nil},
		{"one part", [][]string{{"a", "b"}}, []string{"a", "b"}},
		{"one part with duplicates", [][]string{{"b", "a", "b", "c", "a"}}, []string{"b", "a", "c"}},
		{"an empty part", [][]string{{"a"}, {}}, nil},
		{"a nil part", [][]string{nil, {"a"}}, nil},
		{"two singles", [][]string{{"Running"}, {"n1"}}, []string{"Running\x00n1"}},
		{
			"product, first part slowest",
			[][]string{{"a", "b"}, {"1", "2", "1"}},
			[]string{"a\x001", "a\x002", "b\x001", "b\x002"},
		},
		{
			"three parts",
			[][]string{{"x"}, {"a", "b"}, {"1"}},
			[]string{"x\x00a\x001", "x\x00b\x001"},
		},
		{"escaping", [][]string{{"a\x00"}, {"b"}}, []string{"a\x01\x00\x00b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before [][]string
			for _, p := range tt.parts {
				before = append(before, append([]string(nil), p...))
			}
			got := Combine(tt.parts...)
			if !equalValues(got, tt.want) {
				t.Errorf("Combine(%q) = %q, want %q", tt.parts, got, tt.want)
			}
			if len(tt.want) == 0 && got != nil {
				t.Errorf("Combine(%q) = %#v, want nil", tt.parts, got)
			}
			for i := range tt.parts {
				if !equalValues(tt.parts[i], before[i]) {
					t.Errorf("Combine modified part %d: %q, was %q", i, tt.parts[i], before[i])
				}
			}
		})
	}
}

type (
	myString string
	myBool   bool
	myInt    int32
	myUint   uint16
)

func TestFormat(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{FormatString("a b"), "a b"},
		{FormatString(myString("Running")), "Running"},
		{FormatString(""), ""},
		{FormatBool(true), "true"},
		{FormatBool(myBool(false)), "false"},
		{FormatInt(0), "0"},
		{FormatInt(-42), "-42"},
		{FormatInt(int8(-128)), "-128"},
		{FormatInt(int64(math.MinInt64)), "-9223372036854775808"},
		{FormatInt(int64(math.MaxInt64)), "9223372036854775807"},
		{FormatInt(uint64(math.MaxUint64)), "18446744073709551615"},
		{FormatInt(uint8(255)), "255"},
		{FormatInt(myInt(-7)), "-7"},
		{FormatInt(myUint(7)), "7"},
		{FormatInt(uintptr(9)), "9"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

// equalValues compares value lists, treating nil and empty alike.
func equalValues(a, b []string) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

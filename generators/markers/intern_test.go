package markers

import (
	"strings"
	"testing"
)

func TestParseIntern(t *testing.T) {
	for _, tc := range []struct {
		lines     []string
		on, found bool
		err       string
	}{
		{lines: nil},
		{lines: []string{"Serial is unique.", "+intern=false"}, found: true},
		{lines: []string{"  +intern=true  "}, on: true, found: true},
		{lines: []string{"+intern = true"}, on: true, found: true},
		{lines: []string{"+internal", "+interned=true"}},
		{lines: []string{"+intern=true", "+intern=true"}, on: true, found: true},
		{lines: []string{"+intern=maybe"}, err: "the value must be false or true"},
		{lines: []string{"+intern"}, err: "write +intern=true or +intern=false"},
		{lines: []string{"+intern=true", "+intern=false"}, err: "both +intern=true and +intern=false"},
	} {
		on, found, err := ParseIntern(tc.lines)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseIntern(%q) = %v, want an error containing %q", tc.lines, err, tc.err)
			}
		case err != nil:
			t.Errorf("ParseIntern(%q): %v", tc.lines, err)
		case on != tc.on || found != tc.found:
			t.Errorf("ParseIntern(%q) = %v, %v; want %v, %v", tc.lines, on, found, tc.on, tc.found)
		}
	}
}

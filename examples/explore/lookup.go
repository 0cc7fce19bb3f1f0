package explore

import (
	"encoding/csv"
	"errors"
	"fmt"
	"go/token"
	"io"
	"strings"
)

// Lookup is a lookup asked by a --lookup flag: an index and the values
// asked for, as written.
type Lookup struct {
	Index string
	Value string
}

// String returns the lookup in the form ParseLookup reads.
func (l Lookup) String() string { return l.Index + "=" + l.Value }

// ParseLookup reads a --lookup value, "INDEX=VALUE": INDEX names an index
// (an --index, or "namespace", the index every informer of the factory
// has), and VALUE is what to look up (see Values). Only the first "="
// separates them: the value may hold more.
func ParseLookup(s string) (Lookup, error) {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Lookup{}, fmt.Errorf("--lookup %q: want INDEX=VALUE, such as byImage=nginx:1.29 (INDEX=VALUE1,VALUE2 for a composite key)", s)
	}
	if !token.IsIdentifier(name) {
		return Lookup{}, fmt.Errorf("--lookup %q: the index name %q is not a Go identifier", s, name)
	}
	return Lookup{Index: name, Value: value}, nil
}

// Values returns the values the lookup asks for in an index whose key has
// arity paths: for one path, the value as written (commas included); for a
// composite key, one comma-separated value per path, in the key's order,
// read as a CSV record (spaces after a comma are dropped, and a value that
// holds a comma or a quote is quoted: "a,b"). Another number of values than
// arity is an error.
func (l Lookup) Values(arity int) ([]string, error) {
	if arity <= 1 {
		return []string{l.Value}, nil
	}
	r := csv.NewReader(strings.NewReader(l.Value))
	r.TrimLeadingSpace = true
	r.FieldsPerRecord = -1
	values, err := r.Read()
	if errors.Is(err, io.EOF) { // an empty value
		values, err = []string{""}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--lookup %q: the values are not a comma-separated list: %w", l, err)
	}
	if len(values) != arity {
		return nil, fmt.Errorf("--lookup %q: index %s has a composite key of %d paths: give one value per path, comma-separated, in the key's order; got %d", l, l.Index, arity, len(values))
	}
	return values, nil
}

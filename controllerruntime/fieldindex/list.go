package fieldindex

import (
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// List lists into list the objects of k's kind indexed under value by the
// index named field, through c with opts (client.InNamespace narrows it to
// one namespace). c is expected to be a manager's cached client or cache,
// where Setup registered the index; when the index is missing there (Setup
// was not called, or c reads from the API server, which knows no index),
// List returns a *MissingIndexError that names the call to make, not an
// empty list.
func (k Kind) List(ctx context.Context, c client.Reader, list client.ObjectList, field, value string, opts ...client.ListOption) error {
	opts = append(opts[:len(opts):len(opts)], client.MatchingFields{field: value})
	if err := c.List(ctx, list, opts...); err != nil {
		if missingIndex(err, field) {
			return &MissingIndexError{Kind: k.Name, Index: field, Setup: k.SetupCall, Err: err}
		}
		return fmt.Errorf("listing %s by index %q: %w", k.Name, field, err)
	}
	return nil
}

// MissingIndexError is the error of a lookup by an index the reader does not
// have.
type MissingIndexError struct {
	// Kind is the kind looked up, such as Widget.
	Kind string
	// Index is the index name, which is also its controller-runtime field name.
	Index string
	// Setup is the call that registers the kind's indexes.
	Setup string
	// Err is the reader's error.
	Err error
}

func (e *MissingIndexError) Error() string {
	return fmt.Sprintf("index %q of %s is not registered with this reader: call %s (or SetupIndexes of its package) with the manager's field indexer, mgr.GetFieldIndexer(), before the manager starts, and look up through the manager's cached client (mgr.GetClient()), not an API reader: %v",
		e.Index, e.Kind, e.Setup, e.Err)
}

func (e *MissingIndexError) Unwrap() error { return e.Err }

// IsMissingIndex reports whether err, or an error it wraps, is a
// *MissingIndexError.
func IsMissingIndex(err error) bool {
	var missing *MissingIndexError
	return errors.As(err, &missing)
}

// missingIndex reports whether err is how a controller-runtime reader says
// that it has no index field: its informer cache ("Index with name field:X
// does not exist"), its fake client ("no index with name X has been
// registered"), or the API server, for a reader that is not a cache ("field
// label not supported: X").
func missingIndex(err error, field string) bool {
	msg := strings.ToLower(err.Error())
	f := strings.ToLower(field)
	switch {
	case strings.Contains(msg, "index with name field:"+f+" does not exist"):
		return true
	case strings.Contains(msg, "no index with name "+f+" has been registered"):
		return true
	case apierrors.IsBadRequest(err) && strings.Contains(msg, "field label not supported: "+f):
		return true
	}
	return false
}

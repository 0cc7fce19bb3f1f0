package syncstate

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
)

// Synced leaves NotStarted informers out, reports the others, and joins the
// errors of those that cannot sync in the order of their text, after the
// context's cause when one is still syncing.
func TestSynced(t *testing.T) {
	errB, errA := errors.New("b: not served"), errors.New("a: not served")
	statuses := map[string]discovery.Status{
		"new":     {State: discovery.NotStarted},
		"synced":  {State: discovery.Synced},
		"removed": {State: discovery.Removed, Err: errB},
		"missing": {State: discovery.Missing, Err: errA},
	}
	synced, err := Synced(context.Background(), statuses)
	if want := map[string]bool{"synced": true, "removed": false, "missing": false}; !reflect.DeepEqual(synced, want) {
		t.Fatalf("synced = %v, want %v", synced, want)
	}
	if err == nil || err.Error() != "a: not served\nb: not served" {
		t.Fatalf("err = %q", err)
	}

	statuses["syncing"] = discovery.Status{State: discovery.Syncing}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Synced(ctx, statuses)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, errA) || err.Error() != "context canceled\na: not served\nb: not served" {
		t.Fatalf("err = %q, want the cause first", err)
	}
	_, err = Synced(context.Background(), map[string]discovery.Status{"syncing": {State: discovery.Syncing}})
	if err == nil || err.Error() != "informers have not synced" {
		t.Fatalf("err = %q with a live context", err)
	}
	if synced, err := Synced(context.Background(), map[string]discovery.Status{"synced": {State: discovery.Synced}}); err != nil || !synced["synced"] {
		t.Fatalf("all synced: %v, %v", synced, err)
	}
}

package discovery

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery/discoverytest"
)

var (
	podsGVR    = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	widgetsGVR = schema.GroupVersionResource{Group: "shop.example.dev", Version: "v1", Resource: "widgets"}
	gadgetsGVR = schema.GroupVersionResource{Group: "shop.example.dev", Version: "v1", Resource: "gadgets"}
	trucksGVR  = schema.GroupVersionResource{Group: "fleet.example.dev", Version: "v1", Resource: "trucks"}
)

// serving returns a fake server serving gvrs with list and watch.
func serving(gvrs ...schema.GroupVersionResource) *discoverytest.Server {
	s := discoverytest.NewServer()
	for _, gvr := range gvrs {
		s.Serve(gvr)
	}
	return s
}

// starts records the resources a tracker starts.
type starts struct {
	mu    sync.Mutex
	calls map[schema.GroupVersionResource]int
}

func newStarts() *starts { return &starts{calls: map[schema.GroupVersionResource]int{}} }

func (s *starts) start(gvr schema.GroupVersionResource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[gvr]++
}

func (s *starts) count(gvr schema.GroupVersionResource) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[gvr]
}

// logLines records what a logger logs.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

// context returns a context of t carrying a logger that records into l.
func (l *logLines) context(t *testing.T) context.Context {
	logger := funcr.New(func(prefix, args string) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.lines = append(l.lines, prefix+" "+args)
	}, funcr.Options{Verbosity: 2})
	return klog.NewContext(t.Context(), logr.Logger(logger))
}

func (l *logLines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// runTracker starts a tracker's Start under a context that ends, and whose
// goroutines are waited for, when the test ends.
func runTracker(t *testing.T, tracker *Tracker) (context.Context, func()) {
	ctx, cancel := context.WithCancel(t.Context())
	stop := func() {
		cancel()
		tracker.Shutdown()
	}
	t.Cleanup(stop)
	return ctx, stop
}

// eventually polls cond every millisecond until it holds or 10 s pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// errBroken is a discovery failure.
var errBroken = errors.New("connection refused")

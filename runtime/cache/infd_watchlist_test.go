package cache

// The watch-list mode of the informer differential test
// (informer_differential_test.go): the scripted server's side of watch-list
// streams, and the driver steps that sync both informers through them.

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
)

// infdEnableWatchListClient turns client-go's WatchListClient feature on for
// the test (it is on by default; this keeps the watch-list seeds streaming
// whatever the environment says). The other seeds opt out per client
// (infdNoWatchListClient).
func infdEnableWatchListClient(t *testing.T) {
	clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, true)
}

// infdWatchRequest describes a WATCH request for the request logs: "watch
// rv=X" for a plain watch, "watch-list rv=X" for a watch-list request with
// the options client-go's reflector sends (#watch-list). Other options are
// spelt out, so that such a request matches no expected one.
func infdWatchRequest(opts metav1.ListOptions) string {
	if opts.SendInitialEvents == nil || !*opts.SendInitialEvents {
		req := "watch rv=" + opts.ResourceVersion
		if opts.SendInitialEvents != nil || opts.ResourceVersionMatch != "" {
			req += fmt.Sprintf(" sendInitialEvents=false resourceVersionMatch=%q", opts.ResourceVersionMatch)
		}
		return req
	}
	req := "watch-list rv=" + opts.ResourceVersion
	if opts.ResourceVersionMatch != metav1.ResourceVersionMatchNotOlderThan || !opts.AllowWatchBookmarks {
		req += fmt.Sprintf(" resourceVersionMatch=%q allowWatchBookmarks=%t", opts.ResourceVersionMatch, opts.AllowWatchBookmarks)
	}
	return req
}

func (w *infdWorld) currentRV() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strconv.Itoa(w.rv)
}

// states summarises the world's objects by key.
func (w *infdWorld) states() map[ObjectName]string {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := make(map[ObjectName]string, len(w.objs))
	for k, p := range w.objs {
		m[k] = infdState(p)
	}
	return m
}

// infdStreamTrouble is what happens to the first watch-list request of a
// sync before a stream delivers its initial events to the end.
type infdStreamTrouble int

const (
	infdStreamOK infdStreamTrouble = iota
	// infdStreamCut: the server ends the stream before the bookmark that ends
	// its initial events (after at least one event, so that the reflector
	// does not take it for a failed watch). The reflector streams again from
	// the same resourceVersion; what the cut stream brought is forgotten.
	infdStreamCut
	// infdStreamGone: the stream carries a watch.Error with a 410 Expired
	// Status among its initial events. The reflector streams again at once
	// from "".
	infdStreamGone
	// infdWatchListGone: the watch-list request itself fails with 410
	// Expired. The reflector streams again at once from "". The caller sets
	// the failure up (infdEndpoint.failNext) before the request.
	infdWatchListGone
)

func (t infdStreamTrouble) String() string {
	return [...]string{"none", "stream cut short", "410 in the stream", "410 on the watch-list request"}[t]
}

// streamTrouble picks what goes wrong with a sync's first stream: nothing
// half of the time.
func (d *infdRun) streamTrouble() infdStreamTrouble {
	switch r := d.rng.IntN(8); {
	case r < 4:
		return infdStreamOK
	case r < 6:
		return infdStreamCut
	case r < 7:
		return infdStreamGone
	default:
		return infdWatchListGone
	}
}

// infdStream is the initial events of one watch-list stream.
type infdStream struct {
	events []watch.Event // without the bookmark that ends them
	// items are the objects the events leave, in the order of their keys'
	// first arrival (the order in which ours queues them).
	items []corev1.Pod
	desc  []string
}

// newStream generates the initial events of a watch-list stream of the
// world's objects: an ADDED for each, in a random order, with, after about
// one in four, a change that happens while the stream is sent: a MODIFIED or
// DELETED of an object already sent, the ADDED of a new object, or a
// bookmark that does not end the initial events. The world reflects every
// change.
func (d *infdRun) newStream() *infdStream {
	d.world.shuffleOrder(d.rng)
	snapshot := d.world.list()
	st := &infdStream{}
	sent := map[ObjectName]*corev1.Pod{}
	var order []ObjectName // keys in sent, in the order of first arrival
	emit := func(typ watch.EventType, p *corev1.Pod, note string) {
		st.events = append(st.events, watch.Event{Type: typ, Object: p})
		st.desc = append(st.desc, fmt.Sprintf("%s %s %s%s", typ, KeyOf(p), infdState(p), note))
	}
	arrive := func(p *corev1.Pod, note string) {
		k := KeyOf(p)
		if _, ok := sent[k]; !ok {
			order = append(order, k)
		}
		sent[k] = p
		emit(watch.Added, p, note)
	}
	for i := range snapshot.Items {
		arrive(&snapshot.Items[i], "")
		if d.rng.IntN(4) != 0 {
			continue
		}
		k := order[d.rng.IntN(len(order))]
		switch r := d.rng.IntN(8); {
		case r < 3:
			p := d.changed(sent[k])
			d.world.set(p)
			sent[k] = p
			emit(watch.Modified, p, " (during the stream)")
		case r < 6:
			p := d.changed(sent[k])
			p.Spec.NodeName = sent[k].Spec.NodeName
			d.world.remove(k)
			delete(sent, k)
			order = slices.DeleteFunc(order, func(o ObjectName) bool { return o == k })
			emit(watch.Deleted, p, " (during the stream)")
		case r < 7:
			if _, absent := d.presentAbsent(); len(absent) > 0 {
				p := d.newPod(absent[d.rng.IntN(len(absent))])
				d.world.set(p)
				arrive(p, " (created during the stream)")
			}
		default:
			rv := d.world.currentRV()
			st.events = append(st.events, wlBookmark(rv, false))
			st.desc = append(st.desc, "BOOKMARK rv="+rv)
		}
	}
	for _, k := range order {
		st.items = append(st.items, *sent[k])
	}
	return st
}

// push sends an event to both informers' current watches.
func (d *infdRun) push(ev watch.Event) {
	for _, s := range d.sides {
		s.watcher.Action(ev.Type, ev.Object.DeepCopyObject())
	}
}

// streamSync serves a watch-list sync from resourceVersion rv: both
// informers' next request must be a watch-list at rv. trouble is what goes
// wrong with the first stream (the retry then goes right). It applies the
// sync to the model (as a list of the objects the stream leaves, first of
// all if initial) and returns those objects in the order ours queues them.
// The bookmark that ends the initial events carries the world's
// resourceVersion, which becomes the last one the reflectors saw; the stream
// stays open as the informers' watch.
func (d *infdRun) streamSync(what, rv string, initial bool, trouble infdStreamTrouble) []corev1.Pod {
	d.t.Helper()
	d.wantReq = append(d.wantReq, "watch-list rv="+rv)
	if trouble == infdWatchListGone {
		d.logf("%s: the watch-list request fails with 410 Expired", what)
		d.wantReq = append(d.wantReq, "watch-list rv=")
	}
	d.awaitWatchers(what)
	if trouble == infdStreamCut || trouble == infdStreamGone {
		st := d.newStream()
		n := d.rng.IntN(len(st.events) + 1)
		if trouble == infdStreamCut && n == 0 {
			rv := d.world.currentRV()
			st.events, st.desc, n = []watch.Event{wlBookmark(rv, false)}, []string{"BOOKMARK rv=" + rv}, 1
		}
		for _, ev := range st.events[:n] {
			d.push(ev)
		}
		if trouble == infdStreamCut {
			d.logf("%s, cut short after %d of its initial events: %v", what, n, st.desc[:n])
			for _, s := range d.sides {
				s.watcher.Stop()
			}
		} else {
			d.logf("%s, 410 Expired after %d of its initial events: %v", what, n, st.desc[:n])
			status := apierrors.NewResourceExpired("scripted: watch-list resourceVersion too old").ErrStatus
			d.push(watch.Event{Type: watch.Error, Object: &status})
			rv = ""
		}
		// What the failed stream sent goes stale before the next one.
		d.logf("%s: changes before the next stream %v", what, d.changeUnseen())
		d.wantReq = append(d.wantReq, "watch-list rv="+rv)
		d.awaitWatchers(what + " (streamed again)")
	}
	st := d.newStream()
	d.lastRV = d.world.currentRV()
	st.events = append(st.events, wlBookmark(d.lastRV, true))
	st.desc = append(st.desc, "BOOKMARK rv="+d.lastRV+" (initial-events-end)")
	for _, ev := range st.events {
		d.push(ev)
	}
	d.logf("%s: %v", what, st.desc)
	if got, want := infdStoreView(st.items, func(p corev1.Pod) *corev1.Pod { return &p }), d.world.states(); !maps.Equal(got, want) {
		d.fatalf("%s leaves %v, the world holds %v (harness bug)", what, got, want)
	}
	d.model.list(st.items, initial)
	return st.items
}

// changeUnseen deletes, changes and creates objects of the world without
// telling the informers, and describes what it did.
func (d *infdRun) changeUnseen() []string {
	return d.changeBehind(infdOdds{delete: 25, recreate: 25, change: 40, create: 20})
}

// infdOdds are the percentages below which changeBehind makes each change to
// a key: an existing object is deleted below delete, re-created below
// recreate and changed below change (each from the previous threshold), and a
// missing one created below create.
type infdOdds struct{ delete, recreate, change, create int }

// changeBehind changes the world behind the informers' backs, drawing one
// number per key, and describes what it did.
func (d *infdRun) changeBehind(odds infdOdds) []string {
	var changes []string
	for _, k := range d.keys {
		old, ok := d.world.get(k)
		r := d.rng.IntN(100)
		switch {
		case ok && r < odds.delete:
			d.world.remove(k)
			changes = append(changes, "delete "+k.String())
		case ok && r < odds.recreate:
			p := d.newPod(k) // deleted and re-created
			d.world.set(p)
			changes = append(changes, "re-create "+k.String()+" "+infdState(p))
		case ok && r < odds.change:
			p := d.changed(old)
			d.world.set(p)
			changes = append(changes, "change "+k.String()+" "+infdState(p))
		case !ok && r < odds.create:
			p := d.newPod(k)
			d.world.set(p)
			changes = append(changes, "create "+k.String()+" "+infdState(p))
		}
	}
	return changes
}

// relistStream makes both reflectors relist through a watch-list stream, by
// a watch.Error 410 Expired in the watch (byError) or by closing the watch
// and failing the next WATCH with 410, and waits until the relist has been
// processed. The world has already changed behind the informers' backs
// (infdRun.relist).
func (d *infdRun) relistStream(byError bool) {
	trouble := d.streamTrouble()
	watchFails := 0
	if trouble == infdWatchListGone {
		watchFails = 1
	}
	if byError {
		d.logf("watch.Error 410 Expired; the relist streams (trouble: %v)", trouble)
		for _, s := range d.sides {
			s.ep.failNext(0, watchFails)
			st := apierrors.NewResourceExpired("scripted: watch too old").ErrStatus
			s.watcher.Error(&st)
		}
	} else {
		d.logf("close the watch, the next WATCH fails with 410 Expired; the relist streams (trouble: %v)", trouble)
		d.wantReq = append(d.wantReq, "watch rv="+d.lastRV)
		for _, s := range d.sides {
			s.ep.failNext(0, 1+watchFails)
			s.watcher.Stop()
		}
	}
	d.streamSync("relist stream", d.lastRV, false, trouble)
	// Always wait: see the note on #delete-dedup at the top of
	// informer_differential_test.go.
	d.barrier("relist")
}

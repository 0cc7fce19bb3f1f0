package shard

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	clocktesting "k8s.io/utils/clock/testing"
)

const (
	testLease = 15 * time.Second
	testRenew = 3 * time.Second
)

// testRing is a ring of members on one fake clientset and one fake clock,
// stepped by the test one member at a time.
type testRing struct {
	t       *testing.T
	client  *fake.Clientset
	clock   *clocktesting.FakeClock
	members map[string]*Ring
	// failing are members whose requests fail (a partitioned replica).
	mu      sync.Mutex
	failing map[string]bool
	// released records every OnRelease call, by member.
	released map[string][][]int
}

func newTestRing(t *testing.T) *testRing {
	tr := &testRing{
		t:        t,
		client:   fake.NewClientset(),
		clock:    clocktesting.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		members:  map[string]*Ring{},
		failing:  map[string]bool{},
		released: map[string][][]int{},
	}
	tr.client.PrependReactor("*", "leases", func(action clienttesting.Action) (bool, runtime.Object, error) {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		for name, failing := range tr.failing {
			if failing && actionBy(action, name) {
				return true, nil, errors.New("partitioned")
			}
		}
		return false, nil, nil
	})
	return tr
}

// actionBy reports whether action is member's, told by the Lease it names.
// Lists name none and are not failed: a member that can read the Leases but
// not renew its own is partitioned enough.
func actionBy(action clienttesting.Action, member string) bool {
	switch a := action.(type) {
	case clienttesting.GetAction:
		return a.GetName() == "ring-"+member
	case clienttesting.UpdateAction:
		return a.GetObject().(metav1.Object).GetName() == "ring-"+member
	case clienttesting.CreateAction:
		return a.GetObject().(metav1.Object).GetName() == "ring-"+member
	case clienttesting.PatchAction:
		return a.GetName() == "ring-"+member
	}
	return false
}

func (tr *testRing) add(name string) *Ring {
	r, err := NewRing(RingOptions{
		Client: tr.client.CoordinationV1(), Namespace: "ops", Name: "ring", Identity: name,
		LeaseDuration: testLease, RenewPeriod: testRenew, Clock: tr.clock,
	})
	if err != nil {
		tr.t.Fatal(err)
	}
	r.OnRelease(func(_ context.Context, lost []int) {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		tr.released[name] = append(tr.released[name], lost)
	})
	tr.members[name] = r
	return r
}

// step steps every member once, in name order, checking after each step
// that no slot is active on two members.
func (tr *testRing) step() {
	tr.t.Helper()
	for _, name := range tr.names() {
		tr.members[name].step(tr.t.Context())
		tr.checkDisjoint()
	}
}

func (tr *testRing) names() []string {
	var out []string
	for name := range tr.members {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func (tr *testRing) checkDisjoint() {
	tr.t.Helper()
	owner := map[int]string{}
	for _, name := range tr.names() {
		for _, s := range tr.members[name].State().Active {
			if other, ok := owner[s]; ok {
				tr.t.Fatalf("slot %d is active on %s and %s at once", s, other, name)
			}
			owner[s] = name
		}
	}
}

// settled reports whether every member works on exactly its assigned slots
// and the members' slots cover the ring.
func (tr *testRing) settled() bool {
	covered := 0
	for _, r := range tr.members {
		st := r.State()
		if !slices.Equal(st.Active, st.Assigned) {
			return false
		}
		covered += len(st.Active)
	}
	return covered == DefaultSlots
}

// stepUntilSettled steps the ring, advancing the clock by a renew period
// per round, until it settles; it returns the rounds taken.
func (tr *testRing) stepUntilSettled(most int) int {
	tr.t.Helper()
	for round := 1; round <= most; round++ {
		tr.step()
		if tr.settled() {
			return round
		}
		tr.clock.Step(testRenew)
	}
	tr.t.Fatalf("the ring did not settle in %d rounds", most)
	return 0
}

// The members of a ring split the slots as Assign does, each working on its
// own share, and agree on who the members are.
func TestRingSplitsTheSlots(t *testing.T) {
	tr := newTestRing(t)
	for _, name := range []string{"a", "b", "c"} {
		tr.add(name)
	}
	rounds := tr.stepUntilSettled(5)
	want := mustAssign(t, []string{"a", "b", "c"}, DefaultSlots)
	for name, r := range tr.members {
		st := r.State()
		if !slices.Equal(st.Members, []string{"a", "b", "c"}) {
			t.Errorf("%s sees members %v", name, st.Members)
		}
		if !slices.Equal(st.Active, want.SlotsOf(name)) {
			t.Errorf("%s works on %s, its share is %s", name, formatSlots(st.Active), formatSlots(want.SlotsOf(name)))
		}
	}
	t.Logf("settled in %d rounds", rounds)
}

// A member that joins takes its share only as the others release it: no
// slot is ever active on two members (checked after every member's step),
// every slot a member loses is released before it is claimed elsewhere, and
// about a quarter of the slots move.
func TestRingHandsOverOnJoinWithoutOverlap(t *testing.T) {
	tr := newTestRing(t)
	for _, name := range []string{"a", "b", "c"} {
		tr.add(name)
	}
	tr.stepUntilSettled(5)
	before := map[string][]int{}
	for name, r := range tr.members {
		before[name] = r.State().Active
		if got := tr.released[name]; len(got) != 0 {
			t.Errorf("%s released %v while the ring formed", name, got)
		}
	}
	tr.add("d")
	tr.stepUntilSettled(10)
	moved := len(tr.members["d"].State().Active)
	for _, name := range []string{"a", "b", "c"} {
		lost := difference(before[name], tr.members[name].State().Active)
		var released []int
		for _, l := range tr.released[name] {
			released = append(released, l...)
		}
		slices.Sort(released)
		if !slices.Equal(released, lost) {
			t.Errorf("%s lost %s but released %s", name, formatSlots(lost), formatSlots(released))
		}
		moved += len(difference(tr.members[name].State().Active, before[name]))
	}
	if moved > DefaultSlots*35/100 {
		t.Errorf("a fourth member moved %d of %d slots", moved, DefaultSlots)
	}
	t.Logf("a fourth member moved %d of %d slots", moved, DefaultSlots)
}

// A member that stops renewing (a partitioned replica) stops working on
// every slot before the others see its Lease expire, and the others then
// take its slots.
func TestRingPartitionedMemberStopsBeforeOthersTakeOver(t *testing.T) {
	tr := newTestRing(t)
	for _, name := range []string{"a", "b", "c"} {
		tr.add(name)
	}
	tr.stepUntilSettled(5)
	c := tr.members["c"]
	tr.mu.Lock()
	tr.failing["c"] = true
	tr.mu.Unlock()
	var cStopped, othersTook time.Duration
	start := tr.clock.Now()
	for range 20 {
		tr.clock.Step(testRenew)
		tr.step()
		elapsed := tr.clock.Now().Sub(start)
		if cStopped == 0 && len(c.State().Active) == 0 {
			cStopped = elapsed
		}
		a, b := tr.members["a"].State(), tr.members["b"].State()
		if othersTook == 0 && len(a.Active)+len(b.Active) == DefaultSlots {
			othersTook = elapsed
		}
	}
	if cStopped == 0 || othersTook == 0 {
		t.Fatalf("c stopped after %v, a and b took every slot after %v", cStopped, othersTook)
	}
	if cStopped >= othersTook {
		t.Errorf("c stopped after %v, but a and b took its slots after %v", cStopped, othersTook)
	}
	if othersTook > testLease+2*testRenew {
		t.Errorf("a and b took c's slots only after %v; its Lease lasts %v", othersTook, testLease)
	}
}

// The Lease of a member that crashed and never came back is deleted once it
// has gone unrenewed for staleAfter lease durations, and not before.
func TestRingForgetsTheLeaseOfAMemberGoneForLong(t *testing.T) {
	tr := newTestRing(t)
	for _, name := range []string{"a", "b", "c"} {
		tr.add(name)
	}
	tr.stepUntilSettled(5)
	delete(tr.members, "c") // crashed: it neither renews nor deletes its Lease
	crashed := tr.clock.Now()
	leaseOfC := func() bool {
		_, err := tr.client.CoordinationV1().Leases("ops").Get(t.Context(), "ring-c", metav1.GetOptions{})
		return err == nil
	}
	var gone time.Duration
	for range 80 {
		tr.clock.Step(testRenew)
		tr.step()
		if !leaseOfC() {
			gone = tr.clock.Now().Sub(crashed)
			break
		}
	}
	if gone == 0 {
		t.Fatalf("c's Lease is still there %v after it crashed", tr.clock.Now().Sub(crashed))
	}
	if gone < staleAfter*testLease || gone > staleAfter*testLease+2*testRenew {
		t.Errorf("c's Lease was deleted %v after it crashed, want about %v", gone, staleAfter*testLease)
	}
	if !tr.settled() || len(tr.members["a"].State().Members) != 2 {
		t.Errorf("a and b do not hold the ring alone: %v", tr.members["a"].State().Members)
	}
}

// A member whose Run ends releases its slots and deletes its Lease: the
// others take its share at their next step.
func TestRingMemberThatLeavesHandsOverAtOnce(t *testing.T) {
	tr := newTestRing(t)
	for _, name := range []string{"a", "b", "c"} {
		tr.add(name)
	}
	tr.stepUntilSettled(5)
	c := tr.members["c"]
	had := c.State().Active
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := c.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run of a cancelled member: %v", err)
	}
	if len(c.State().Active) != 0 {
		t.Error("a member that left still works on slots")
	}
	if got := tr.released["c"]; len(got) == 0 || !slices.Equal(got[len(got)-1], had) {
		t.Errorf("c released %v, had %s", got, formatSlots(had))
	}
	if _, err := tr.client.CoordinationV1().Leases("ops").Get(t.Context(), "ring-c", metav1.GetOptions{}); err == nil {
		t.Error("c's Lease is still there")
	}
	delete(tr.members, "c")
	if rounds := tr.stepUntilSettled(3); rounds > 2 {
		t.Errorf("a and b took c's slots after %d rounds", rounds)
	}
}

// A member's metrics follow its state: members, assigned and active slots,
// and the slots handed over each way.
func TestRingMetrics(t *testing.T) {
	tr := newTestRing(t)
	for _, name := range []string{"a", "b"} {
		tr.add(name)
	}
	reg := prometheus.NewRegistry()
	c, err := NewRing(RingOptions{
		Client: tr.client.CoordinationV1(), Namespace: "ops", Name: "ring", Identity: "c",
		LeaseDuration: testLease, RenewPeriod: testRenew, Clock: tr.clock, Registerer: reg,
	})
	if err != nil {
		t.Fatal(err)
	}
	tr.members["c"] = c
	tr.stepUntilSettled(5)
	st := c.State()
	for name, want := range map[string]float64{
		"shard_members":        3,
		"shard_slots_assigned": float64(len(st.Assigned)),
		"shard_slots_active":   float64(len(st.Active)),
	} {
		if got := gaugeValue(t, reg, name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if got := testutil.CollectAndCount(reg, "shard_handovers_total"); got != 2 {
		t.Errorf("shard_handovers_total has %d series, want gained and lost", got)
	}
	problems, err := testutil.GatherAndLint(reg)
	if err != nil || len(problems) > 0 {
		t.Errorf("metric lint: %v %v", problems, err)
	}
}

// gaugeValue returns the value of the one series of a gauge family of reg.
func gaugeValue(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name && len(f.GetMetric()) == 1 {
			return f.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no single series of %s", name)
	return 0
}

func TestSlotsFormatRoundTrip(t *testing.T) {
	for _, slots := range [][]int{nil, {0}, {0, 1, 2, 3}, {1, 3, 5}, {0, 1, 5, 6, 7, 63}} {
		s := formatSlots(slots)
		if got := parseSlots(s); !slices.Equal(got, slots) {
			t.Errorf("parseSlots(%q) = %v, want %v", s, got, slots)
		}
	}
	if got := parseSlots("x,3-1,2,7-8,-1"); !slices.Equal(got, []int{2, 7, 8}) {
		t.Errorf("parseSlots of a damaged value = %v", got)
	}
}

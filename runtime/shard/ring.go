package shard

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

const (
	// RingLabel names the ring a member's Lease belongs to; its value is
	// RingOptions.Name.
	RingLabel = "shard.informer-gen-plus.dev/ring"
	// ClaimsAnnotation lists, on a member's Lease, the slots the member
	// works on (its active slots), as comma-separated slots and ranges of
	// slots ("0-3,7"); "" for none. A member starts working on a slot only
	// once no other live member's Lease claims it.
	ClaimsAnnotation = "shard.informer-gen-plus.dev/claims"
	// SlotsAnnotation records, on a member's Lease, the number of slots of
	// the ring; members of one ring must agree on it.
	SlotsAnnotation = "shard.informer-gen-plus.dev/slots"
)

// RingOptions configure a Ring. Client, Namespace, Name and Identity are
// required; the rest have defaults.
type RingOptions struct {
	// Client reaches the Leases (kubernetes.Interface's CoordinationV1()).
	Client coordinationv1client.LeasesGetter
	// Namespace is the namespace of the ring's Leases.
	Namespace string
	// Name names the ring: every member's Lease carries it in RingLabel, and
	// is called Name-Identity.
	Name string
	// Identity is this member's name in the ring, unique among its members
	// (a pod name, or a host name with a random suffix); Name-Identity must
	// be a DNS subdomain, as it names the member's Lease.
	Identity string
	// Slots is the number of slots the hash space is cut into (a power of
	// two); zero means DefaultSlots. Every member of a ring must use the
	// same number.
	Slots int
	// LeaseDuration is how long a member stays in the ring after its last
	// renewal seen by the others; zero means 15 seconds.
	LeaseDuration time.Duration
	// RenewPeriod is how often the member renews its Lease and reads the
	// others'; zero means LeaseDuration/5.
	RenewPeriod time.Duration
	// Clock is the ring's clock; nil means the real clock.
	Clock clock.WithTicker
	// Registerer, when set, receives the member's metrics, labelled with
	// the ring's name: shard_members, shard_slots_assigned and
	// shard_slots_active (gauges), and shard_handovers_total{direction}
	// (slots gained and lost).
	Registerer prometheus.Registerer
}

// State is what a member of a ring knows at one moment.
type State struct {
	// Members are the live members, sorted, this one included while it
	// holds its Lease.
	Members []string
	// Assigned are the slots the assignment of Members gives this member.
	Assigned []int
	// Active are the slots this member works on: the assigned slots that no
	// other live member claims any more. Consumers must work only on these.
	Active []int
	// Slots is the number of slots of the ring.
	Slots int
	// Generation counts the changes of Active, from 1 for the first.
	Generation int64
}

// Owns reports whether slot is one of s.Active.
func (s State) Owns(slot int) bool {
	_, found := slices.BinarySearch(s.Active, slot)
	return found
}

// Ring is one member of a ring of replicas that share the slots of the hash
// space through Leases (coordination.k8s.io/v1), as leader election shares
// one Lease. Run holds the member's Lease and, every RenewPeriod, reads the
// ring's Leases, computes the assignment of the live members (Assign) and
// updates State.
//
// Hand-over is fenced through the Leases: a member works on a slot (Active)
// only once no other live member claims it in its Lease; a member that loses
// a slot stops working on it first (every function given to OnRelease
// returns), then removes its claim; a member whose Lease goes unrenewed for
// LeaseDuration stops working on every slot at once. So two members never
// work on a slot at the same time, provided each stops when told and clocks
// run at the same rate; a member that leaves hands its slots over when its
// Lease expires, or at once when Run returns (it deletes its Lease).
type Ring struct {
	opts  RingOptions
	clock clock.WithTicker
	lease string // this member's Lease name

	mu        sync.Mutex
	state     State
	changed   chan struct{} // closed and replaced when state changes
	releasers []func(ctx context.Context, lost []int)

	// observed remembers, per other Lease, its last renewal and when this
	// member saw it change: a member is live until LeaseDuration after that
	// local time, as leader election judges a Lease by when it observed its
	// record, never by the holder's clock.
	observed map[string]observation
	metrics  ringMetrics
	// renewed is when this member last renewed its own Lease, joined when
	// it first did.
	renewed, joined time.Time
	claims          []int // the slots its Lease claims
}

type observation struct {
	renewTime string
	seen      time.Time
}

// NewRing returns a member of the ring opts describes. Nothing runs until
// Run.
func NewRing(opts RingOptions) (*Ring, error) {
	switch {
	case opts.Client == nil:
		return nil, errors.New("shard: ring needs a Leases client")
	case opts.Namespace == "" || opts.Name == "" || opts.Identity == "":
		return nil, errors.New("shard: ring needs a namespace, a name and an identity")
	}
	if errs := validation.IsDNS1123Subdomain(opts.Name + "-" + opts.Identity); len(errs) > 0 {
		return nil, fmt.Errorf("shard: the member's Lease would be called %q: %s", opts.Name+"-"+opts.Identity, strings.Join(errs, "; "))
	}
	if opts.Slots == 0 {
		opts.Slots = DefaultSlots
	}
	if err := checkSlots(opts.Slots); err != nil {
		return nil, err
	}
	if opts.LeaseDuration == 0 {
		opts.LeaseDuration = 15 * time.Second
	}
	if opts.RenewPeriod == 0 {
		opts.RenewPeriod = opts.LeaseDuration / 5
	}
	if opts.RenewPeriod <= 0 || opts.RenewPeriod >= opts.LeaseDuration {
		return nil, fmt.Errorf("shard: renew period %v must be positive and shorter than the lease duration %v", opts.RenewPeriod, opts.LeaseDuration)
	}
	clk := opts.Clock
	if clk == nil {
		clk = clock.RealClock{}
	}
	metrics, err := newRingMetrics(opts.Registerer, opts.Name)
	if err != nil {
		return nil, fmt.Errorf("shard: registering the ring's metrics: %w", err)
	}
	return &Ring{
		opts:     opts,
		clock:    clk,
		lease:    opts.Name + "-" + opts.Identity,
		state:    State{Slots: opts.Slots},
		changed:  make(chan struct{}),
		observed: map[string]observation{},
		metrics:  metrics,
	}, nil
}

// Identity returns this member's name in the ring.
func (r *Ring) Identity() string { return r.opts.Identity }

// State returns what the member knows now. The slices are the member's own:
// callers must not modify them.
func (r *Ring) State() State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state
}

// Changed returns a channel that is closed at the next change of State.
func (r *Ring) Changed() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.changed
}

// OnRelease registers fn, which the member calls with the slots it is about
// to stop claiming, after they have left Active and before other members may
// take them: fn must return once no work on those slots is in flight (a
// controller waits for its reconciles of keys in them). It may be called at
// any time; fn takes part in the releases that follow.
func (r *Ring) OnRelease(fn func(ctx context.Context, lost []int)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.releasers = append(r.releasers, fn)
}

// Run holds the member's Lease until ctx ends, then deletes it (so that the
// others take its slots at once) and returns ctx's error. A failure to read
// or write the Leases is logged and retried at the next period; it never
// ends Run.
func (r *Ring) Run(ctx context.Context) error {
	logger := klog.FromContext(ctx).WithValues("ring", r.opts.Name, "member", r.opts.Identity)
	ctx = klog.NewContext(ctx, logger)
	ticker := r.clock.NewTicker(r.opts.RenewPeriod)
	defer ticker.Stop()
	for {
		r.step(ctx)
		select {
		case <-ctx.Done():
			r.leave(logger)
			return ctx.Err()
		case <-ticker.C():
		}
	}
}

// step renews the Lease, reads the ring and moves Active toward Assigned.
func (r *Ring) step(ctx context.Context) {
	logger := klog.FromContext(ctx)
	now := r.clock.Now()
	if err := r.renew(ctx, now); err != nil {
		logger.Error(err, "Renewing the ring Lease")
	}
	leases, err := r.opts.Client.Leases(r.opts.Namespace).List(ctx, metav1.ListOptions{
		LabelSelector: labels.SelectorFromSet(labels.Set{RingLabel: r.opts.Name}).String(),
	})
	if err != nil {
		logger.Error(err, "Reading the ring's Leases")
		r.expireIfStale(ctx, now)
		return
	}
	members, claimed, stale := r.readRing(leases.Items, now)
	r.forget(ctx, stale)
	if !r.holdsLease(now) {
		r.setActive(ctx, members, nil, nil)
		return
	}
	members = append(members, r.opts.Identity)
	slices.Sort(members)
	members = slices.Compact(members)
	assignment, err := Assign(members, r.opts.Slots)
	if err != nil {
		logger.Error(err, "Assigning the ring's slots")
		return
	}
	assigned := assignment.SlotsOf(r.opts.Identity)
	var active []int
	// A member that has just joined waits one period before it works on any
	// slot, so that it sees the members that started with it instead of
	// taking every slot for a moment.
	if now.Sub(r.joined) >= r.opts.RenewPeriod {
		for _, s := range assigned {
			if !claimed[s] {
				active = append(active, s)
			}
		}
	}
	r.setActive(ctx, members, assigned, active)
	// Claim what is active; a claim is dropped only after release.
	r.mu.Lock()
	want := slices.Clone(r.state.Active)
	r.mu.Unlock()
	if !slices.Equal(want, r.claims) {
		if err := r.writeClaims(ctx, want); err != nil {
			logger.Error(err, "Updating the ring Lease's claims")
		}
	}
}

// readRing returns the other live members, the slots they claim, and the
// Leases this member has seen unrenewed for staleAfter lease durations.
func (r *Ring) readRing(leases []coordinationv1.Lease, now time.Time) ([]string, map[int]bool, []coordinationv1.Lease) {
	var members []string
	var stale []coordinationv1.Lease
	claimed := map[int]bool{}
	seen := map[string]bool{}
	for i := range leases {
		l := &leases[i]
		if l.Name == r.lease || l.Spec.HolderIdentity == nil || *l.Spec.HolderIdentity == "" {
			continue
		}
		seen[l.Name] = true
		renew := ""
		if l.Spec.RenewTime != nil {
			renew = l.Spec.RenewTime.String()
		}
		o, ok := r.observed[l.Name]
		if !ok || o.renewTime != renew {
			o = observation{renewTime: renew, seen: now}
			r.observed[l.Name] = o
		}
		duration := r.opts.LeaseDuration
		if l.Spec.LeaseDurationSeconds != nil {
			duration = time.Duration(*l.Spec.LeaseDurationSeconds) * time.Second
		}
		if now.Sub(o.seen) >= duration {
			// Expired: neither a member nor a claimant.
			if now.Sub(o.seen) >= staleAfter*duration {
				stale = append(stale, *l)
			}
			continue
		}
		members = append(members, *l.Spec.HolderIdentity)
		for _, s := range parseSlots(l.Annotations[ClaimsAnnotation]) {
			claimed[s] = true
		}
	}
	for name := range maps.Keys(r.observed) {
		if !seen[name] {
			delete(r.observed, name)
		}
	}
	return members, claimed, stale
}

// staleAfter is how many lease durations a Lease must have gone unrenewed,
// as this member saw it, before the member deletes it: the Lease of a
// member that crashed and never came back, which would otherwise stay, and
// count as live for its first lease duration in every member that joins.
const staleAfter = 10

// forget deletes the stale Leases, each only if it has not changed since it
// was read (a member that comes back renews it first).
func (r *Ring) forget(ctx context.Context, stale []coordinationv1.Lease) {
	for i := range stale {
		l := &stale[i]
		err := r.opts.Client.Leases(r.opts.Namespace).Delete(ctx, l.Name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: &l.UID, ResourceVersion: &l.ResourceVersion},
		})
		switch {
		case err == nil:
			klog.FromContext(ctx).Info("Deleted the Lease of a member gone for long", "lease", l.Name)
			delete(r.observed, l.Name)
		case !apierrors.IsNotFound(err) && !apierrors.IsConflict(err):
			klog.FromContext(ctx).Error(err, "Deleting the Lease of a member gone for long", "lease", l.Name)
		}
	}
}

// holdsLease reports whether the member renewed its Lease recently enough
// to keep working until the next step: less than LeaseDuration minus one
// RenewPeriod ago. The others judge it expired LeaseDuration after they
// saw that renewal, which is never earlier, so by then it has stopped.
func (r *Ring) holdsLease(now time.Time) bool {
	return !r.renewed.IsZero() && now.Sub(r.renewed) < r.opts.LeaseDuration-r.opts.RenewPeriod
}

// expireIfStale stops all work when the Lease has not been renewed for
// LeaseDuration.
func (r *Ring) expireIfStale(ctx context.Context, now time.Time) {
	if !r.holdsLease(now) {
		r.mu.Lock()
		members := r.state.Members
		r.mu.Unlock()
		r.setActive(ctx, members, nil, nil)
	}
}

// setActive records a new state. Slots that leave Active are released
// (OnRelease) before their claims are dropped.
func (r *Ring) setActive(ctx context.Context, members []string, assigned, active []int) {
	r.mu.Lock()
	old := r.state
	lost := difference(old.Active, active)
	if slices.Equal(old.Members, members) && slices.Equal(old.Assigned, assigned) && slices.Equal(old.Active, active) {
		r.mu.Unlock()
		return
	}
	r.state = State{Members: members, Assigned: assigned, Active: active, Slots: r.opts.Slots, Generation: old.Generation}
	if !slices.Equal(old.Active, active) {
		r.state.Generation++
	}
	close(r.changed)
	r.changed = make(chan struct{})
	releasers := slices.Clone(r.releasers)
	r.mu.Unlock()
	r.metrics.observe(members, assigned, active, lost, difference(active, old.Active))
	if len(lost) > 0 {
		klog.FromContext(ctx).Info("Releasing slots", "slots", formatSlots(lost), "active", formatSlots(active))
		for _, fn := range releasers {
			fn(ctx, lost)
		}
	}
}

// renew creates or renews the member's Lease.
func (r *Ring) renew(ctx context.Context, now time.Time) error {
	leases := r.opts.Client.Leases(r.opts.Namespace)
	l, err := leases.Get(ctx, r.lease, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		l = r.newLease(now)
		if _, err := leases.Create(ctx, l, metav1.CreateOptions{}); err != nil {
			return err
		}
		r.renewed, r.claims = now, nil
		if r.joined.IsZero() {
			r.joined = now
		}
		return nil
	case err != nil:
		return err
	}
	seconds := int32(r.opts.LeaseDuration / time.Second)
	l.Spec.HolderIdentity = &r.opts.Identity
	l.Spec.LeaseDurationSeconds = &seconds
	l.Spec.RenewTime = &metav1.MicroTime{Time: now}
	if l.Annotations == nil {
		l.Annotations = map[string]string{}
	}
	l.Annotations[SlotsAnnotation] = strconv.Itoa(r.opts.Slots)
	if _, err := leases.Update(ctx, l, metav1.UpdateOptions{}); err != nil {
		return err
	}
	r.renewed, r.claims = now, parseSlots(l.Annotations[ClaimsAnnotation])
	if r.joined.IsZero() {
		r.joined = now
	}
	return nil
}

func (r *Ring) newLease(now time.Time) *coordinationv1.Lease {
	seconds := int32(r.opts.LeaseDuration / time.Second)
	return &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{
			Name:        r.lease,
			Namespace:   r.opts.Namespace,
			Labels:      map[string]string{RingLabel: r.opts.Name},
			Annotations: map[string]string{SlotsAnnotation: strconv.Itoa(r.opts.Slots), ClaimsAnnotation: ""},
		},
		Spec: coordinationv1.LeaseSpec{
			HolderIdentity:       &r.opts.Identity,
			LeaseDurationSeconds: &seconds,
			AcquireTime:          &metav1.MicroTime{Time: now},
			RenewTime:            &metav1.MicroTime{Time: now},
		},
	}
}

// writeClaims records the slots the member works on in its Lease.
func (r *Ring) writeClaims(ctx context.Context, claims []int) error {
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, ClaimsAnnotation, formatSlots(claims))
	if _, err := r.opts.Client.Leases(r.opts.Namespace).Patch(ctx, r.lease, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		return err
	}
	r.claims = claims
	return nil
}

// leave stops all work and deletes the member's Lease.
func (r *Ring) leave(logger klog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), r.opts.RenewPeriod)
	defer cancel()
	ctx = klog.NewContext(ctx, logger)
	r.mu.Lock()
	members := r.state.Members
	r.mu.Unlock()
	r.setActive(ctx, members, nil, nil)
	err := r.opts.Client.Leases(r.opts.Namespace).Delete(ctx, r.lease, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		logger.Error(err, "Deleting the ring Lease; the others take its slots when it expires")
	}
}

// difference returns the elements of a (sorted) that are not in b (sorted).
func difference(a, b []int) []int {
	var out []int
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	return out
}

// formatSlots writes sorted slots as "0-3,7".
func formatSlots(slots []int) string {
	var b strings.Builder
	for i := 0; i < len(slots); {
		j := i
		for j+1 < len(slots) && slots[j+1] == slots[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(slots[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(slots[j]))
		}
		i = j + 1
	}
	return b.String()
}

// parseSlots reads what formatSlots writes; what it cannot read it skips.
func parseSlots(s string) []int {
	var out []int
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			continue
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > MaxSlots {
				continue
			}
		}
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

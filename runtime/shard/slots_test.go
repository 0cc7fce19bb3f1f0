package shard

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/features"
	serversharding "k8s.io/apiserver/pkg/sharding"
	"k8s.io/apiserver/pkg/storage"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
)

// members returns n member names, different for every seed.
func members(rng *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("replica-%08x", rng.Uint32())
	}
	return out
}

func mustAssign(t *testing.T, ms []string, slots int) Assignment {
	t.Helper()
	a, err := Assign(ms, slots)
	if err != nil {
		t.Fatalf("Assign(%d members, %d slots): %v", len(ms), slots, err)
	}
	return a
}

// Every slot has an owner among the members, every member owns
// slots/len(members) slots or one more, and the order members are given in
// changes nothing.
func TestAssignIsBalancedAndDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, slots := range []int{1, 2, 64, 256} {
		for n := 1; n <= min(slots, 40); n++ {
			ms := members(rng, n)
			a := mustAssign(t, ms, slots)
			count := map[string]int{}
			for s, m := range a.Owners {
				if !slices.Contains(ms, m) {
					t.Fatalf("%d slots, %d members: slot %d owned by %q", slots, n, s, m)
				}
				count[m]++
			}
			for _, m := range ms {
				if c := count[m]; c != slots/n && c != slots/n+1 {
					t.Errorf("%d slots, %d members: %s owns %d slots", slots, n, m, c)
				}
				if got := a.SlotsOf(m); len(got) != count[m] {
					t.Errorf("SlotsOf(%s) = %d slots, owns %d", m, len(got), count[m])
				}
			}
			shuffled := slices.Clone(ms)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			if b := mustAssign(t, shuffled, slots); a.Moved(b) != 0 {
				t.Errorf("%d slots, %d members: the members' order moved %d slots", slots, n, a.Moved(b))
			}
		}
	}
}

// A member joining or leaving moves about 1/N of the slots: on average
// within 8 points of the share that has to move, and never more than 17
// points beyond it, over 300 memberships of every size from 1 to 12.
func TestAssignMovesAboutOneNth(t *testing.T) {
	const slots, runs = DefaultSlots, 300
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 12; n++ {
		var joinSum, leaveSum, joinWorst, leaveWorst float64
		for range runs {
			ms := members(rng, n+1)
			before := mustAssign(t, ms[:n], slots)
			after := mustAssign(t, ms, slots)
			join := float64(before.Moved(after)) / slots
			joinSum += join
			joinWorst = max(joinWorst, join)
			// Leave: the last member of n+1 goes.
			leave := float64(after.Moved(before)) / slots
			leaveSum += leave
			leaveWorst = max(leaveWorst, leave)
			// The joining member's slots are all new to it; no slot moves
			// to a member that was there before unless another lost it.
			for s, m := range after.Owners {
				if m == ms[n] && before.Owners[s] == ms[n] {
					t.Fatal("a new member owned a slot before it joined")
				}
			}
		}
		joinShare := 1 / float64(n+1)
		joinMean, leaveMean := joinSum/runs, leaveSum/runs
		t.Logf("%2d → %2d members: moved %.3f on average (worst %.3f), share %.3f", n, n+1, joinMean, joinWorst, joinShare)
		if joinMean > joinShare+0.08 || joinWorst > joinShare+0.17 {
			t.Errorf("%d → %d members moves %.3f of the slots on average, %.3f at worst; its share is %.3f", n, n+1, joinMean, joinWorst, joinShare)
		}
		if leaveMean > joinShare+0.08 || leaveWorst > joinShare+0.17 {
			t.Errorf("%d → %d members moves %.3f of the slots on average, %.3f at worst; its share is %.3f", n+1, n, leaveMean, leaveWorst, joinShare)
		}
	}
}

func TestAssignRefusesBadInput(t *testing.T) {
	for name, tc := range map[string]struct {
		members []string
		slots   int
	}{
		"no member":          {nil, 64},
		"an empty name":      {[]string{"a", ""}, 64},
		"a name twice":       {[]string{"a", "b", "a"}, 64},
		"no slot":            {[]string{"a"}, 0},
		"not a power of two": {[]string{"a"}, 48},
		"too many slots":     {[]string{"a"}, 2 * MaxSlots},
	} {
		if _, err := Assign(tc.members, tc.slots); err == nil {
			t.Errorf("Assign with %s succeeded", name)
		}
	}
}

// The selector of a set of slots is what the server's own parser reads
// (k8s.io/apiserver/pkg/sharding), range for range, and the server's
// selection predicate (with ShardedListAndWatch on) keeps exactly the
// objects whose slot (SlotOf of Hash of the key's value) is in the set.
func TestSelectorAgreesWithTheServer(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.ShardedListAndWatch, true)
	rng := rand.New(rand.NewPCG(5, 6))
	objects := make([]*corev1.Pod, 1000)
	for i := range objects {
		objects[i] = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Namespace: fmt.Sprintf("ns-%d", rng.IntN(50)),
			Name:      fmt.Sprint("p", i),
			UID:       types.UID(fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", rng.Uint32(), rng.Uint32()&0xffff, rng.Uint32()&0xffff, rng.Uint32()&0xffff, rng.Uint64()&0xffffffffffff)),
		}}
	}
	for run := range 60 {
		slots := []int{1, 2, 4, 64, 256, MaxSlots}[run%6]
		key := []Key{ByUID, ByNamespace}[run%2]
		var owned []int
		for s := range slots {
			if rng.IntN(3) == 0 {
				owned = append(owned, s)
			}
		}
		if run%10 == 0 {
			owned = nil
			for s := range slots {
				owned = append(owned, s)
			}
		}
		sel, err := Selector(key, owned, slots)
		if len(owned) == 0 {
			if err != ErrNoSlots {
				t.Errorf("Selector of no slot: %v, %v; want ErrNoSlots", sel, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(owned) == slots {
			if !sel.Empty() || sel.String() != "" {
				t.Errorf("the selector of every slot is %q, want Everything", sel.String())
			}
			continue
		}
		parsed, err := serversharding.Parse(sel.String())
		if err != nil {
			t.Fatalf("the server refuses %q: %v", sel.String(), err)
		}
		if got, want := parsed.Requirements(), sel.Requirements(); !slices.Equal(got, want) {
			t.Fatalf("the server reads %q as %v, want %v", sel.String(), got, want)
		}
		pred := storage.SelectionPredicate{Label: labels.Everything(), Field: fields.Everything(), ShardSelector: parsed}
		for _, obj := range objects {
			value, err := ValueOf(obj, key)
			if err != nil {
				t.Fatal(err)
			}
			ours := slices.Contains(owned, SlotOf(Hash(value), slots))
			server, err := pred.Matches(obj)
			if err != nil {
				t.Fatal(err)
			}
			if ours != server {
				t.Fatalf("%d slots on %s, %q: %s is ours: %t, the server's: %t", slots, key, sel.String(), obj.Name, ours, server)
			}
			if mine, err := sel.Matches(obj); err != nil || mine != ours {
				t.Fatalf("Selector.Matches(%s) = %t, %v; its slot is ours: %t", obj.Name, mine, err, ours)
			}
		}
	}
}

// The ranges of a set of slots merge adjacent slots and cover exactly them.
func TestRanges(t *testing.T) {
	for _, tc := range []struct {
		owned []int
		slots int
		want  []Range
	}{
		{[]int{0}, 1, []Range{{EndOfSpace: true}}},
		{[]int{0, 1, 2, 3}, 4, []Range{{EndOfSpace: true}}},
		{[]int{1}, 4, []Range{{Start: 1 << 62, End: 2 << 62}}},
		{[]int{3, 0, 1}, 4, []Range{{Start: 0, End: 2 << 62}, {Start: 3 << 62, EndOfSpace: true}}},
		{[]int{2, 2, 3}, 4, []Range{{Start: 2 << 62, EndOfSpace: true}}},
		{nil, 4, nil},
	} {
		if got := Ranges(tc.owned, tc.slots); !slices.Equal(got, tc.want) {
			t.Errorf("Ranges(%v, %d) = %+v, want %+v", tc.owned, tc.slots, got, tc.want)
		}
	}
}

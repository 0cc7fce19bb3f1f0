package shard

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/promreg"
)

// ringMetrics are a ring member's metrics; without a registerer they are
// kept but not exported.
type ringMetrics struct {
	members, assigned, active prometheus.Gauge
	gained, lost              prometheus.Counter
}

func newRingMetrics(reg prometheus.Registerer, ring string) (ringMetrics, error) {
	gauge := func(name, help string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: "shard", Name: name, Help: help}, []string{"ring"})
	}
	members := gauge("members", "Live members of the ring, as this member sees them.")
	assigned := gauge("slots_assigned", "Slots the assignment of the live members gives this member.")
	active := gauge("slots_active", "Slots this member works on (assigned, and claimed by no other live member).")
	handovers := prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: "shard", Name: "handovers_total",
		Help: "Slots this member started (direction gained) or stopped (direction lost) working on.",
	}, []string{"ring", "direction"})
	if reg != nil {
		var err error
		for _, vec := range []**prometheus.GaugeVec{&members, &assigned, &active} {
			if *vec, err = promreg.RegisterOrReuse(reg, *vec); err != nil {
				return ringMetrics{}, err
			}
		}
		if handovers, err = promreg.RegisterOrReuse(reg, handovers); err != nil {
			return ringMetrics{}, err
		}
	}
	return ringMetrics{
		members:  members.WithLabelValues(ring),
		assigned: assigned.WithLabelValues(ring),
		active:   active.WithLabelValues(ring),
		gained:   handovers.WithLabelValues(ring, "gained"),
		lost:     handovers.WithLabelValues(ring, "lost"),
	}, nil
}

// observe records a new state: its members, assigned and active slots, and
// the slots lost and gained since the last.
func (m ringMetrics) observe(members []string, assigned, active, lost, gained []int) {
	m.members.Set(float64(len(members)))
	m.assigned.Set(float64(len(assigned)))
	m.active.Set(float64(len(active)))
	m.lost.Add(float64(len(lost)))
	m.gained.Add(float64(len(gained)))
}

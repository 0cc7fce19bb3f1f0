package cache

import (
	"time"

	"k8s.io/client-go/tools/cache"
)

// queueMetrics reports an informer's queue through client-go's informer
// metrics provider; the zero value reports nothing.
type queueMetrics struct {
	queued  cache.GaugeMetric
	latency cache.HistogramMetric
}

func newQueueMetrics(id cache.InformerNameAndResource, provider cache.InformerMetricsProvider) queueMetrics {
	if provider == nil || !id.Reserved() {
		return queueMetrics{}
	}
	return queueMetrics{
		queued:  provider.NewQueuedItemMetric(id),
		latency: provider.NewProcessingLatencyMetric(id),
	}
}

func (m queueMetrics) enabled() bool { return m.queued != nil }

// observe records the queue length after a pop and how long the pop took to
// process.
func (m queueMetrics) observe(queued int, took time.Duration) {
	m.queued.Set(float64(queued))
	m.latency.Observe(took.Seconds())
}

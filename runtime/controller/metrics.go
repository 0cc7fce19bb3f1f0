package controller

import (
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/util/workqueue"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/promreg"
)

// The results a reconcile is counted under in controller_reconcile_total.
const (
	resultSuccess      = "success"
	resultError        = "error"
	resultRequeueAfter = "requeue_after"
)

// metrics are the Prometheus metrics of one controller. The collectors are
// shared by every controller registered on one registry and told apart by
// the "controller" label (the workqueue's by "name", as client-go's are).
type metrics struct {
	// succeeded, failed and requeued are controller_reconcile_total's
	// series for the results success, error and requeue_after.
	succeeded, failed, requeued prometheus.Counter

	errors   prometheus.Counter
	panics   prometheus.Counter
	dropped  prometheus.Counter
	skipped  prometheus.Counter
	duration prometheus.Observer
}

// collectors are the metric families of every controller on a registry.
type collectors struct {
	total, errors, panics, dropped, skipped *prometheus.CounterVec
	duration                                *prometheus.HistogramVec
}

func newCollectors() collectors {
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "controller", Name: name, Help: help}, labels)
	}
	return collectors{
		total:   counter("reconcile_total", "Reconciles by controller and result (success, error, requeue_after).", "controller", "result"),
		errors:  counter("reconcile_errors_total", "Reconciles that returned an error or panicked.", "controller"),
		panics:  counter("reconcile_panics_total", "Reconciles that panicked.", "controller"),
		dropped: counter("reconcile_dropped_total", "Keys dropped after failing more than the controller's maximum number of retries.", "controller"),
		skipped: counter("shard_skipped_total", "Keys let go without a reconcile because they are outside this replica's share (Options.Shard).", "controller"),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "controller",
			Name:      "reconcile_duration_seconds",
			Help:      "Time a reconcile took.",
			Buckets:   prometheus.ExponentialBuckets(0.001, 2, 16),
		}, []string{"controller"}),
	}
}

// newMetrics returns the metrics of controller name, registered on reg and,
// with them, the workqueue metrics provider for its queue. A nil reg gives
// metrics that are kept but not exported, and no queue metrics.
func newMetrics(reg prometheus.Registerer, name string) (*metrics, workqueue.MetricsProvider, error) {
	c := newCollectors()
	var provider workqueue.MetricsProvider
	if reg != nil {
		var err error
		if c, err = c.register(reg); err != nil {
			return nil, nil, err
		}
		if provider, err = newQueueMetricsProvider(reg); err != nil {
			return nil, nil, err
		}
	}
	return &metrics{
		succeeded: c.total.WithLabelValues(name, resultSuccess),
		failed:    c.total.WithLabelValues(name, resultError),
		requeued:  c.total.WithLabelValues(name, resultRequeueAfter),
		errors:    c.errors.WithLabelValues(name),
		panics:    c.panics.WithLabelValues(name),
		dropped:   c.dropped.WithLabelValues(name),
		skipped:   c.skipped.WithLabelValues(name),
		duration:  c.duration.WithLabelValues(name),
	}, provider, nil
}

// register registers the collectors on reg, reusing those that another
// controller registered there before.
func (c collectors) register(reg prometheus.Registerer) (collectors, error) {
	var err error
	for _, vec := range []**prometheus.CounterVec{&c.total, &c.errors, &c.panics, &c.dropped, &c.skipped} {
		if *vec, err = promreg.RegisterOrReuse(reg, *vec); err != nil {
			return c, err
		}
	}
	c.duration, err = promreg.RegisterOrReuse(reg, c.duration)
	return c, err
}

// queueMetricsProvider is a workqueue.MetricsProvider over collectors
// registered on one registry, with the metric names client-go's component-base
// and controller-runtime use (workqueue_depth{name}, ...).
type queueMetricsProvider struct {
	depth, unfinished, longest *prometheus.GaugeVec
	adds, retries              *prometheus.CounterVec
	latency, workDuration      *prometheus.HistogramVec
}

func newQueueMetricsProvider(reg prometheus.Registerer) (*queueMetricsProvider, error) {
	gauge := func(name, help string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: "workqueue", Name: name, Help: help}, []string{"name"})
	}
	counter := func(name, help string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Subsystem: "workqueue", Name: name, Help: help}, []string{"name"})
	}
	histogram := func(name, help string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Subsystem: "workqueue", Name: name, Help: help,
			Buckets: prometheus.ExponentialBuckets(10e-9, 10, 12),
		}, []string{"name"})
	}
	p := &queueMetricsProvider{
		depth:        gauge("depth", "Current depth of the workqueue."),
		unfinished:   gauge("unfinished_work_seconds", "Seconds of work in progress not yet observed by work_duration."),
		longest:      gauge("longest_running_processor_seconds", "Seconds the longest running processor of the workqueue has been running."),
		adds:         counter("adds_total", "Adds handled by the workqueue."),
		retries:      counter("retries_total", "Retries handled by the workqueue."),
		latency:      histogram("queue_duration_seconds", "Seconds an item stays in the workqueue before being requested."),
		workDuration: histogram("work_duration_seconds", "Seconds processing an item from the workqueue takes."),
	}
	var err error
	for _, vec := range []**prometheus.GaugeVec{&p.depth, &p.unfinished, &p.longest} {
		if *vec, err = promreg.RegisterOrReuse(reg, *vec); err != nil {
			return nil, err
		}
	}
	for _, vec := range []**prometheus.CounterVec{&p.adds, &p.retries} {
		if *vec, err = promreg.RegisterOrReuse(reg, *vec); err != nil {
			return nil, err
		}
	}
	for _, vec := range []**prometheus.HistogramVec{&p.latency, &p.workDuration} {
		if *vec, err = promreg.RegisterOrReuse(reg, *vec); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// NewDepthMetric implements workqueue.MetricsProvider.
func (p *queueMetricsProvider) NewDepthMetric(name string) workqueue.GaugeMetric {
	return p.depth.WithLabelValues(name)
}

// NewAddsMetric implements workqueue.MetricsProvider.
func (p *queueMetricsProvider) NewAddsMetric(name string) workqueue.CounterMetric {
	return p.adds.WithLabelValues(name)
}

// NewLatencyMetric implements workqueue.MetricsProvider.
func (p *queueMetricsProvider) NewLatencyMetric(name string) workqueue.HistogramMetric {
	return p.latency.WithLabelValues(name)
}

// NewWorkDurationMetric implements workqueue.MetricsProvider.
func (p *queueMetricsProvider) NewWorkDurationMetric(name string) workqueue.HistogramMetric {
	return p.workDuration.WithLabelValues(name)
}

// NewUnfinishedWorkSecondsMetric implements workqueue.MetricsProvider.
func (p *queueMetricsProvider) NewUnfinishedWorkSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return p.unfinished.WithLabelValues(name)
}

// NewLongestRunningProcessorSecondsMetric implements workqueue.MetricsProvider.
func (p *queueMetricsProvider) NewLongestRunningProcessorSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return p.longest.WithLabelValues(name)
}

// NewRetriesMetric implements workqueue.MetricsProvider.
func (p *queueMetricsProvider) NewRetriesMetric(name string) workqueue.CounterMetric {
	return p.retries.WithLabelValues(name)
}

//go:build unix

package scalebench

import (
	"runtime"
	"runtime/metrics"
	"syscall"
	"time"
)

// sample is what a timed section is measured by besides wall time: the
// runtime's allocation counters and the CPU time of the process (every
// goroutine: the test server's, the client's, the informer's and the
// runtime's).
type sample struct {
	mem    runtime.MemStats
	cpu    time.Duration
	sys    time.Duration // the part of cpu spent in the kernel
	faults int64         // minor page faults
	gc     time.Duration // the runtime's estimate of the CPU time spent on collection
}

// gcCPU are the runtime metrics of the CPU time the collector has used:
// mark assists, dedicated mark workers and pauses. The idle mark workers,
// which run only on otherwise idle processors, are left out.
var gcCPU = []string{
	"/cpu/classes/gc/mark/assist:cpu-seconds",
	"/cpu/classes/gc/mark/dedicated:cpu-seconds",
	"/cpu/classes/gc/pause:cpu-seconds",
}

func (s *sample) read() error {
	runtime.ReadMemStats(&s.mem)
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	s.sys = time.Duration(ru.Stime.Nano())
	s.faults = int64(ru.Minflt)
	m := make([]metrics.Sample, len(gcCPU))
	for i, name := range gcCPU {
		m[i].Name = name
	}
	metrics.Read(m)
	var gc float64
	for _, v := range m {
		if v.Value.Kind() == metrics.KindFloat64 {
			gc += v.Value.Float64()
		}
	}
	s.gc = time.Duration(gc * float64(time.Second))
	return nil
}

// totals sums the differences of samples over a benchmark's timed sections,
// and the heap kept after each of them.
type totals struct {
	mallocs, bytes, gcs uint64
	cpu, sys, gc        time.Duration
	faults              int64
	heap                int64
}

func (t *totals) add(before, after *sample) {
	t.mallocs += after.mem.Mallocs - before.mem.Mallocs
	t.bytes += after.mem.TotalAlloc - before.mem.TotalAlloc
	t.gcs += uint64(after.mem.NumGC - before.mem.NumGC)
	t.cpu += after.cpu - before.cpu
	t.sys += after.sys - before.sys
	t.gc += after.gc - before.gc
	t.faults += after.faults - before.faults
}

// addHeap adds the growth of the live heap since before (read after a full
// collection): it collects, then reads HeapAlloc.
func (t *totals) addHeap(before *sample) {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	t.heap += int64(m.HeapAlloc) - int64(before.mem.HeapAlloc)
}

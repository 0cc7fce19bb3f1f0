// Package procstat reads what a benchmark's timed section is measured by
// besides wall time: the Go runtime's allocation and collection counters and
// the process's CPU time, page faults and collector CPU time.
package procstat

import (
	"runtime"
	"runtime/metrics"
	"syscall"
	"testing"
	"time"
)

// Sample is one reading: the runtime's allocation counters and the CPU time
// of the whole process (every goroutine, the runtime's included).
type Sample struct {
	Mem    runtime.MemStats
	CPU    time.Duration
	Sys    time.Duration // the part of CPU spent in the kernel
	Faults int64         // minor page faults
	GC     time.Duration // the runtime's estimate of the CPU time spent on collection
}

// gcCPU are the runtime metrics of the CPU time the collector has used:
// mark assists, dedicated mark workers and pauses. The idle mark workers,
// which run only on otherwise idle processors, are left out.
var gcCPU = []string{
	"/cpu/classes/gc/mark/assist:cpu-seconds",
	"/cpu/classes/gc/mark/dedicated:cpu-seconds",
	"/cpu/classes/gc/pause:cpu-seconds",
}

// CPU returns the CPU time (user and kernel) the process has used so far,
// every goroutine's and the runtime's.
func CPU() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}

// Read takes the reading.
func (s *Sample) Read() error {
	runtime.ReadMemStats(&s.Mem)
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	s.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	s.Sys = time.Duration(ru.Stime.Nano())
	s.Faults = int64(ru.Minflt)
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
	s.GC = time.Duration(gc * float64(time.Second))
	return nil
}

// MustRead takes the reading, or fails the benchmark or test tb.
func (s *Sample) MustRead(tb testing.TB) {
	tb.Helper()
	if err := s.Read(); err != nil {
		tb.Fatal(err)
	}
}

// Totals sums the differences of samples over a benchmark's timed sections
// (allocations, bytes allocated, collections, CPU, kernel and collector
// time, page faults), and the heap kept after each of them.
type Totals struct {
	Mallocs, Bytes, GCs uint64
	CPU, Sys, GC        time.Duration
	Faults              int64
	Heap                int64
}

// Add adds the differences between two readings.
func (t *Totals) Add(before, after *Sample) {
	t.Mallocs += after.Mem.Mallocs - before.Mem.Mallocs
	t.Bytes += after.Mem.TotalAlloc - before.Mem.TotalAlloc
	t.GCs += uint64(after.Mem.NumGC - before.Mem.NumGC)
	t.CPU += after.CPU - before.CPU
	t.Sys += after.Sys - before.Sys
	t.GC += after.GC - before.GC
	t.Faults += after.Faults - before.Faults
}

// AddHeap adds the growth of the live heap since before (read after a full
// collection): it collects, then reads HeapAlloc.
func (t *Totals) AddHeap(before *Sample) {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	t.Heap += int64(m.HeapAlloc) - int64(before.Mem.HeapAlloc)
}

// LiveHeap returns the bytes of live heap objects (HeapAlloc) after a full
// collection: runtime.GC twice, the second freeing what the first moved to
// sync.Pools' victim caches.
func LiveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

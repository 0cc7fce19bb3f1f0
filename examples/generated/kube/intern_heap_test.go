package kube_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"

	corev1listers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache"
)

// heapPods is the number of cached pods TestInternedPodHeap measures: 50
// namespaces of 1,000 testpods pods on 500 nodes.
var heapPods = testpods.Config{Namespaces: 50, PodsPerNamespace: 1000, Nodes: 500}

// heapVariantEnv names, in a child process of TestInternedPodHeap, the
// variant the child measures; heapDataEnv names the file of encoded pods.
const (
	heapVariantEnv = "KUBE_INTERN_HEAP_VARIANT"
	heapDataEnv    = "KUBE_INTERN_HEAP_DATA"
)

// heapVariant is one way TestInternedPodHeap keeps the pods.
type heapVariant struct {
	name string
	// dropMF runs cache.DropManagedFields on every decoded pod; intern
	// runs the generated InternPod on it (after DropManagedFields).
	dropMF, intern bool
	// update replaces every pod, after the first fill, by a fresh copy
	// decoded and transformed again, with a collection every 5,000 pods,
	// as watch updates would over time.
	update bool
}

var heapVariants = []heapVariant{
	{"decoded", false, false, false},
	{"decoded+InternPod", false, true, false},
	{"DropManagedFields", true, false, false},
	{"DropManagedFields+InternPod", true, true, false},
	{"decoded+InternPod, updated", false, true, true},
}

// heapFigure is the line a child process logs its figures on.
const heapFigure = "heapB/pod %f offheapB/pod %f"

// TestInternedPodHeap measures the heap each cached pod takes: 50,000 pods,
// each decoded from its own protobuf encoding and kept, as is or through the
// generated InternPod, with or without cache.DropManagedFields before. The
// last variant then replaces every pod by a new copy, collecting garbage as
// it goes, to show that canonical values stay canonical across collections
// and that the pools do not grow with updates. Each variant runs in a
// process of its own, so that no variant finds the pools of another already
// grown; the pods are encoded once, into a file the processes read. Figures:
// (HeapAlloc after - HeapAlloc before) / pods, each read after two
// collections, and the growth of MemStats.OtherSys, where the runtime keeps
// the records of weak pointers. Only a loose bound is asserted: the
// transform must save.
func TestInternedPodHeap(t *testing.T) {
	if name := os.Getenv(heapVariantEnv); name != "" {
		measureHeapVariant(t, name, os.Getenv(heapDataEnv))
		return
	}
	if testing.Short() || raceEnabled {
		t.Skip("measures the heap of 50,000 pods: not in -short or -race runs")
	}
	dataFile := filepath.Join(t.TempDir(), "pods.pb")
	if err := testpods.WriteEncoded(dataFile, encodedPods(t, heapPods)); err != nil {
		t.Fatal(err)
	}
	heap := map[string]float64{}
	// The variants run side by side, as many at once as there are
	// processors: each measures the heap of its own process.
	outs := make([][]byte, len(heapVariants))
	errs := make([]error, len(heapVariants))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, v := range heapVariants {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			cmd := exec.Command(os.Args[0], "-test.run=^TestInternedPodHeap$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), heapVariantEnv+"="+v.name, heapDataEnv+"="+dataFile)
			outs[i], errs[i] = cmd.CombinedOutput()
		})
	}
	wg.Wait()
	for i, v := range heapVariants {
		out := outs[i]
		if errs[i] != nil {
			t.Fatalf("variant %s: %v\n%s", v.name, errs[i], out)
		}
		perPod, offHeap, found := 0.0, 0.0, false
		for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
			_, figure, ok := strings.Cut(sc.Text(), ": heapB/pod ")
			if ok {
				_, err := fmt.Sscanf("heapB/pod "+figure, heapFigure, &perPod, &offHeap)
				found = err == nil
			}
		}
		if !found {
			t.Fatalf("variant %s printed no figure:\n%s", v.name, out)
		}
		heap[v.name] = perPod
		t.Logf("%-28s %8.0f heap B/pod (runtime metadata outside the heap: %+.0f B/pod)", v.name, perPod, offHeap)
	}
	for _, pair := range [][2]string{
		{"decoded", "decoded+InternPod"},
		{"DropManagedFields", "DropManagedFields+InternPod"},
		{"decoded", "decoded+InternPod, updated"},
	} {
		plain, shared := heap[pair[0]], heap[pair[1]]
		t.Logf("%s / %s = %.2f", pair[1], pair[0], shared/plain)
		if shared >= plain {
			t.Errorf("%s keeps %.0f B/pod, no less than %s (%.0f)", pair[1], shared, pair[0], plain)
		}
	}
}

// measureHeapVariant is the child process of TestInternedPodHeap.
func measureHeapVariant(t *testing.T, name, dataFile string) {
	var v heapVariant
	for _, hv := range heapVariants {
		if hv.name == name {
			v = hv
		}
	}
	if v.name == "" {
		t.Fatalf("unknown variant %q", name)
	}
	data, err := testpods.ReadEncoded(dataFile)
	if err != nil {
		t.Fatal(err)
	}
	s := protobuf(t)
	pods := make([]*corev1.Pod, len(data))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	fill := func(collectEvery int) {
		for i, d := range data {
			p := decodePod(t, s, d)
			if v.dropMF {
				if p, err = cache.DropManagedFields(p); err != nil {
					t.Fatal(err)
				}
			}
			if v.intern {
				corev1listers.InternPod(p)
			}
			pods[i] = p
			if collectEvery > 0 && i%collectEvery == collectEvery-1 {
				runtime.GC()
			}
		}
	}
	fill(0)
	if v.update {
		fill(5000)
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	n := float64(len(pods))
	t.Logf(heapFigure, float64(after.HeapAlloc-before.HeapAlloc)/n, float64(after.OtherSys-before.OtherSys)/n)
	runtime.KeepAlive(pods)
	runtime.KeepAlive(data)
}

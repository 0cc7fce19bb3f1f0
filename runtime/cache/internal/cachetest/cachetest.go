// Package cachetest holds the pods, index functions and helpers (Must,
// RaceEnabled) that the tests of runtime/cache and of its store and queue
// share. It is test support: no non-test code imports it.
package cachetest

import (
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// Must returns v, panicking when err is not nil: for constructors whose
// configuration a test knows to be valid.
func Must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

// Pod returns a pod in namespace ns called name, on node, with the given
// labels (pairs of key, value) and one container per image.
func Pod(ns, name, node string, images []string, labelPairs ...string) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       corev1.PodSpec{NodeName: node},
	}
	if len(labelPairs) > 0 {
		p.Labels = map[string]string{}
		for i := 0; i+1 < len(labelPairs); i += 2 {
			p.Labels[labelPairs[i]] = labelPairs[i+1]
		}
	}
	for i, image := range images {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: fmt.Sprint("c", i), Image: image})
	}
	return p
}

// ByNode indexes a pod by its node; a pod on no node gets no value.
func ByNode(p *corev1.Pod) []string {
	if p.Spec.NodeName == "" {
		return nil
	}
	return []string{p.Spec.NodeName}
}

// ByImage indexes a pod by its containers' images.
func ByImage(p *corev1.Pod) []string {
	var out []string
	for _, c := range p.Spec.Containers {
		out = append(out, c.Image)
	}
	return out
}

// LabelIndexFunc indexes a pod by the value of its label key, as a store's
// label index does.
func LabelIndexFunc(key string) func(*corev1.Pod) []string {
	return func(p *corev1.Pod) []string {
		if v, ok := p.Labels[key]; ok {
			return []string{v}
		}
		return nil
	}
}

// Untyped is fn as a client-go index function.
func Untyped(fn func(*corev1.Pod) []string) cache.IndexFunc {
	return func(obj any) ([]string, error) { return fn(obj.(*corev1.Pod)), nil }
}

// Names returns the sorted "namespace/name" keys of pods.
func Names(pods []*corev1.Pod) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		out[i] = cache.ObjectName{Namespace: p.Namespace, Name: p.Name}.String()
	}
	slices.Sort(out)
	return out
}

// AnyNames returns the sorted "namespace/name" keys of the pods of a
// client-go List; an object of another type shows as its type.
func AnyNames(objs []any) []string {
	out := make([]string, len(objs))
	for i, obj := range objs {
		if p, ok := obj.(*corev1.Pod); ok && p != nil {
			out[i] = cache.ObjectName{Namespace: p.Namespace, Name: p.Name}.String()
		} else {
			out[i] = fmt.Sprintf("<%T>", obj)
		}
	}
	slices.Sort(out)
	return out
}

// NamespaceIndexer is what MustByIndex reads: a typed store.
type NamespaceIndexer interface {
	ByIndexInNamespace(indexName, namespace, value string) ([]*corev1.Pod, error)
}

// MustByIndex returns the sorted keys of the pods of namespace ns under value
// in index, failing the test on an error.
func MustByIndex(t *testing.T, s NamespaceIndexer, index, ns, value string) []string {
	t.Helper()
	got, err := s.ByIndexInNamespace(index, ns, value)
	if err != nil {
		t.Fatalf("ByIndexInNamespace(%q, %q, %q): %v", index, ns, value, err)
	}
	return Names(got)
}

// SkipUnderRace skips t when the race detector is on. It is for tests that
// drive a queue or a store from one goroutine through so many operations
// that the race detector, which can find nothing there, would make them most
// of their package's time. make test runs every package whose tests call it
// without the race detector as well (the Makefile's NORACE_PKGS), so such a
// test still runs once.
func SkipUnderRace(t testing.TB) {
	t.Helper()
	if RaceEnabled {
		t.Skip("a single-goroutine stress test: make test runs it without the race detector")
	}
}

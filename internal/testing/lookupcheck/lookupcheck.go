// Package lookupcheck holds the generated index lookups of the example
// types, each paired with the filter over a LIST that it must agree with, so
// that tests against fake clientsets and against a real API server check the
// same lookups the same way.
package lookupcheck

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	corelisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/listers/core/v1"
	shoplisters "github.com/informer-gen-plus/informer-gen-plus/examples/generated/listers/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/indexcheck"
)

// Lookup is one index lookup on a lister L of T, and the predicate that
// selects, from a LIST of every T, the objects it must return.
type Lookup[T metav1.Object, L any] struct {
	Name   string
	Lookup func(lister L) ([]T, error)
	Match  func(obj T) bool
}

// Disagreements runs every lookup against lister and compares its answer
// with the objects of list that it matches. It returns "" when they all
// agree, and otherwise what each that disagrees returned and should have.
func Disagreements[T metav1.Object, L any](lister L, lookups []Lookup[T, L], list []T) string {
	var problems []string
	for _, l := range lookups {
		got, err := l.Lookup(lister)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", l.Name, err))
			continue
		}
		var want []T
		for _, obj := range list {
			if l.Match(obj) {
				want = append(want, obj)
			}
		}
		if g, w := indexcheck.Keys(got), indexcheck.Keys(want); !slices.Equal(g, w) {
			problems = append(problems, fmt.Sprintf("%s = %v, LIST says %v", l.Name, g, w))
		}
	}
	return strings.Join(problems, "; ")
}

// Pointers returns pointers to the items of a LIST.
func Pointers[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

// Widgets are lookups of the Widget lister: across namespaces, and in
// namespace.
func Widgets(namespace string) []Lookup[*shopv1.Widget, shoplisters.WidgetLister] {
	type lookup = Lookup[*shopv1.Widget, shoplisters.WidgetLister]
	return []lookup{
		{"ByColor(red)", func(l shoplisters.WidgetLister) ([]*shopv1.Widget, error) { return l.ByColor("red") },
			func(w *shopv1.Widget) bool { return w.Spec.Color == "red" }},
		{namespace + ": ByColor(red)", func(l shoplisters.WidgetLister) ([]*shopv1.Widget, error) { return l.Widgets(namespace).ByColor("red") },
			func(w *shopv1.Widget) bool { return w.Namespace == namespace && w.Spec.Color == "red" }},
		{"ByTeam(t-blue)", func(l shoplisters.WidgetLister) ([]*shopv1.Widget, error) { return l.ByTeam("t-blue") },
			func(w *shopv1.Widget) bool { return w.Labels["team"] == "t-blue" }},
		{"ByImage(nginx)", func(l shoplisters.WidgetLister) ([]*shopv1.Widget, error) { return l.ByImage("nginx") },
			func(w *shopv1.Widget) bool {
				return slices.ContainsFunc(w.Spec.Containers, func(c shopv1.WidgetContainer) bool { return c.Image == "nginx" })
			}},
		{"ByPhaseColor(Ready, red)", func(l shoplisters.WidgetLister) ([]*shopv1.Widget, error) { return l.ByPhaseColor("Ready", "red") },
			func(w *shopv1.Widget) bool { return w.Status.Phase == "Ready" && w.Spec.Color == "red" }},
		{"BySize(3)", func(l shoplisters.WidgetLister) ([]*shopv1.Widget, error) { return l.BySize(3) },
			func(w *shopv1.Widget) bool { return w.Spec.Size == 3 }},
		{"ByNickname(nick)", func(l shoplisters.WidgetLister) ([]*shopv1.Widget, error) { return l.ByNickname("nick") },
			func(w *shopv1.Widget) bool { return w.Spec.Nickname != nil && *w.Spec.Nickname == "nick" }},
		{"ByZone(z1)", func(l shoplisters.WidgetLister) ([]*shopv1.Widget, error) { return l.ByZone("z1") },
			func(w *shopv1.Widget) bool {
				return w.Spec.Placement != nil && (w.Spec.Placement.Zone == "z1" || slices.Contains(w.Spec.Placement.AlternateZones, "z1"))
			}},
		{"ByShop(s1)", func(l shoplisters.WidgetLister) ([]*shopv1.Widget, error) { return l.ByShop("s1") },
			func(w *shopv1.Widget) bool {
				ref := metav1.GetControllerOf(w)
				return ref != nil && ref.Kind == "Shop" && strings.HasPrefix(ref.APIVersion, shopv1.GroupName+"/") && ref.Name == "s1"
			}},
		{"ByConfigRef(settings)", func(l shoplisters.WidgetLister) ([]*shopv1.Widget, error) { return l.ByConfigRef("settings") },
			func(w *shopv1.Widget) bool { return w.Spec.ConfigRef == "settings" }},
	}
}

// Pods are lookups of the Pod lister, through the indexes that
// examples/apis/kubeindexes declares: on nodes n1 and n2, across namespaces
// and in namespace.
func Pods(namespace string) []Lookup[*corev1.Pod, corelisters.PodLister] {
	type lookup = Lookup[*corev1.Pod, corelisters.PodLister]
	var lookups []lookup
	for _, node := range []string{"n1", "n2"} {
		lookups = append(lookups,
			lookup{"ByNode(" + node + ")", func(l corelisters.PodLister) ([]*corev1.Pod, error) { return l.ByNode(node) },
				func(p *corev1.Pod) bool { return p.Spec.NodeName == node }},
			lookup{namespace + ": ByPhaseNode(Running, " + node + ")",
				func(l corelisters.PodLister) ([]*corev1.Pod, error) {
					return l.Pods(namespace).ByPhaseNode("Running", node)
				},
				func(p *corev1.Pod) bool {
					return p.Namespace == namespace && p.Status.Phase == corev1.PodRunning && p.Spec.NodeName == node
				}},
		)
	}
	return append(lookups, lookup{"ByReplicaSet(rs1)", func(l corelisters.PodLister) ([]*corev1.Pod, error) { return l.ByReplicaSet("rs1") },
		func(p *corev1.Pod) bool {
			ref := metav1.GetControllerOf(p)
			return ref != nil && ref.Kind == "ReplicaSet" && strings.HasPrefix(ref.APIVersion, "apps/") && ref.Name == "rs1"
		}})
}

package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	toolscache "k8s.io/client-go/tools/cache"

	kubeinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/discovery"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/informers"
)

// probeCRDsGVR is the resource of CustomResourceDefinitions.
var probeCRDsGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// discoveryProbeType is the key of a factory's informer of custom objects.
var discoveryProbeType = reflect.TypeFor[*unstructured.Unstructured]()

// probeCRD is a CustomResourceDefinition a discovery test installs, deletes
// and installs again: a namespaced kind in a group of its own (random per
// run), so that no other test depends on it. Created through the dynamic
// client, which needs no apiextensions clientset.
type probeCRD struct {
	gvr  schema.GroupVersionResource
	kind string
	dyn  dynamic.Interface
}

// newProbeCRD returns the CRD of plural (not installed), and deletes it when
// the test ends.
func newProbeCRD(t *testing.T, c clients, plural, kind string) probeCRD {
	t.Helper()
	p := probeCRD{
		gvr:  schema.GroupVersionResource{Group: fmt.Sprintf("p%08x.discovery.e2e.example.dev", rand.Uint32()), Version: "v1", Resource: plural},
		kind: kind,
		dyn:  dynamic.NewForConfigOrDie(c.config),
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := p.dyn.Resource(probeCRDsGVR).Delete(ctx, p.name(), metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("deleting CRD %s: %v", p.name(), err)
		}
	})
	return p
}

// name is the CRD's name.
func (p probeCRD) name() string { return p.gvr.Resource + "." + p.gvr.Group }

// install creates the CRD, without waiting for the server to serve it.
func (p probeCRD) install(t *testing.T) {
	t.Helper()
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": p.name()},
		"spec": map[string]any{
			"group": p.gvr.Group,
			"scope": "Namespaced",
			"names": map[string]any{"plural": p.gvr.Resource, "kind": p.kind, "listKind": p.kind + "List"},
			"versions": []any{map[string]any{
				"name": p.gvr.Version, "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object", "x-kubernetes-preserve-unknown-fields": true,
				}},
			}},
		},
	}}
	if _, err := p.dyn.Resource(probeCRDsGVR).Create(t.Context(), crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating CRD %s: %v", p.name(), err)
	}
}

// delete deletes the CRD and waits until it is gone (its objects first).
func (p probeCRD) delete(t *testing.T) {
	t.Helper()
	if err := p.dyn.Resource(probeCRDsGVR).Delete(t.Context(), p.name(), metav1.DeleteOptions{}); err != nil {
		t.Fatalf("deleting CRD %s: %v", p.name(), err)
	}
	eventually(t, "CRD "+p.name()+" gone", func() string {
		_, err := p.dyn.Resource(probeCRDsGVR).Get(t.Context(), p.name(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return ""
		}
		return fmt.Sprintf("still there (%v)", err)
	})
}

// create creates an object of the CRD in ns, retrying while the server does
// not serve the resource yet (a CRD just installed).
func (p probeCRD) create(t *testing.T, ns, name string) {
	t.Helper()
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": p.gvr.GroupVersion().String(),
		"kind":       p.kind,
		"metadata":   map[string]any{"name": name, "namespace": ns},
		"spec":       map[string]any{"size": int64(1)},
	}}
	eventually(t, "creating "+name, func() string {
		_, err := p.dyn.Resource(p.gvr).Namespace(ns).Create(t.Context(), obj, metav1.CreateOptions{})
		if err != nil {
			return err.Error()
		}
		return ""
	})
}

// probeListCounter counts the requests to one collection: every request, and the
// full lists among them (a LIST, or a watch that streams the initial state).
type probeListCounter struct {
	path            string
	requests, lists atomic.Int64
	next            http.RoundTripper
}

// RoundTrip counts req when it is for the collection, then sends it.
func (c *probeListCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet && req.URL.Path == c.path {
		c.requests.Add(1)
		q := req.URL.Query()
		if q.Get("watch") != "true" || q.Get("sendInitialEvents") == "true" {
			c.lists.Add(1)
		}
	}
	return c.next.RoundTrip(req)
}

// countedInformer registers in factory an informer of p's objects in ns,
// built by the runtime's NewInformer over a dynamic client whose requests to
// the collection are counted.
func (p probeCRD) countedInformer(t *testing.T, c clients, factory kubeinformers.SharedInformerFactory, ns string) (toolscache.SharedIndexInformer, *probeListCounter) {
	t.Helper()
	counter := &probeListCounter{path: fmt.Sprintf("/apis/%s/%s/namespaces/%s/%s", p.gvr.Group, p.gvr.Version, ns, p.gvr.Resource)}
	config := *c.config
	config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		counter.next = rt
		return counter
	})
	dyn := dynamic.NewForConfigOrDie(&config)
	inf := factory.InformerFor(&unstructured.Unstructured{}, func(_ kubernetes.Interface, resync time.Duration) toolscache.SharedIndexInformer {
		objects := dyn.Resource(p.gvr).Namespace(ns)
		return informers.NewInformer[*unstructured.Unstructured](objects.List, objects.Watch, dyn, p.gvr, informers.InformerOptions{ResyncPeriod: resync})
	})
	return inf, counter
}

// probeStatus returns the state of factory's informer of custom objects.
func probeStatus(t *testing.T, factory kubeinformers.SharedInformerFactory) discovery.Status {
	t.Helper()
	return factory.SyncStatus()[discoveryProbeType]
}

// probeNames returns the names in an informer's cache, sorted.
func probeNames(inf toolscache.SharedIndexInformer) []string {
	var names []string
	for _, obj := range inf.GetStore().List() {
		names = append(names, obj.(*unstructured.Unstructured).GetName())
	}
	slices.Sort(names)
	return names
}

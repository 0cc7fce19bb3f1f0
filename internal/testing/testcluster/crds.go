package testcluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

// crdGVR is the resource of CustomResourceDefinitions.
var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// fieldManager is the field manager of what this package applies.
const fieldManager = "testcluster"

// crdWaitTimeout bounds the wait of InstallCRDs when ctx has no deadline.
const crdWaitTimeout = time.Minute

// kubeClients are the clients the package itself uses, made once per
// cluster.
type kubeClients struct {
	dynamic   dynamic.Interface
	discovery discovery.DiscoveryInterface
	core      kubernetes.Interface
}

// clients returns the cluster's kubeClients.
func (c *Cluster) clients() (*kubeClients, error) {
	c.kubeOnce.Do(func() {
		cfg := c.Config()
		if c.kube.dynamic, c.kubeErr = dynamic.NewForConfig(cfg); c.kubeErr != nil {
			return
		}
		if c.kube.discovery, c.kubeErr = discovery.NewDiscoveryClientForConfig(cfg); c.kubeErr != nil {
			return
		}
		c.kube.core, c.kubeErr = kubernetes.NewForConfig(cfg)
	})
	if c.kubeErr != nil {
		return nil, fmt.Errorf("testcluster: %w", c.kubeErr)
	}
	return &c.kube, nil
}

// InstallCRDs applies (server-side apply, forcing conflicts) every
// CustomResourceDefinition in the .yaml, .yml and .json files of dir (not
// its subdirectories; a file may hold several documents), then waits until
// each is Established and every served version of its resource is listed
// by discovery, so that clients of the new resources work as soon as it
// returns. The wait is bounded by ctx, or by one minute when ctx has no
// deadline. A file with anything but CustomResourceDefinitions, or a dir
// without any, is an error.
func (c *Cluster) InstallCRDs(ctx context.Context, dir string) error {
	crds, err := readCRDs(dir)
	if err != nil {
		return fmt.Errorf("testcluster: InstallCRDs: %w", err)
	}
	kc, err := c.clients()
	if err != nil {
		return err
	}
	for _, crd := range crds {
		_, err := kc.dynamic.Resource(crdGVR).Apply(ctx, crd.GetName(), crd,
			metav1.ApplyOptions{FieldManager: fieldManager, Force: true})
		if err != nil {
			return fmt.Errorf("testcluster: InstallCRDs: applying %s: %w", crd.GetName(), err)
		}
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, crdWaitTimeout)
		defer cancel()
	}
	for _, crd := range crds {
		if err := waitCRDServed(ctx, kc, crd.GetName()); err != nil {
			return fmt.Errorf("testcluster: InstallCRDs: %w", err)
		}
	}
	return nil
}

// waitCRDServed waits until the CRD name is Established and discovery lists
// its resource in each of its served versions.
func waitCRDServed(ctx context.Context, kc *kubeClients, name string) error {
	var last error
	err := wait.PollUntilContextCancel(ctx, 50*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		last = crdServed(ctx, kc, name)
		return last == nil, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for CRD %s to be served: %w (last check: %v)", name, err, last)
	}
	return nil
}

// crdServed checks once what waitCRDServed waits for.
func crdServed(ctx context.Context, kc *kubeClients, name string) error {
	crd, err := kc.dynamic.Resource(crdGVR).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	conditions, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	established := false
	for _, cond := range conditions {
		m, _ := cond.(map[string]any)
		if m["type"] == "Established" && m["status"] == "True" {
			established = true
		}
	}
	if !established {
		return errors.New("not Established")
	}
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "plural")
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	for _, v := range versions {
		m, _ := v.(map[string]any)
		version, _ := m["name"].(string)
		if served, _ := m["served"].(bool); !served {
			continue
		}
		gv := schema.GroupVersion{Group: group, Version: version}.String()
		list, err := kc.discovery.ServerResourcesForGroupVersion(gv)
		if err != nil {
			return fmt.Errorf("discovery of %s: %w", gv, err)
		}
		if !slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool { return r.Name == plural }) {
			return fmt.Errorf("discovery of %s does not list %s yet", gv, plural)
		}
	}
	return nil
}

// readCRDs decodes the CustomResourceDefinitions in the YAML and JSON files
// of dir, in file name order.
func readCRDs(dir string) ([]*unstructured.Unstructured, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var crds []*unstructured.Unstructured
	for _, e := range entries {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".yaml", ".yml", ".json":
		default:
			continue
		}
		if e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		fileCRDs, err := readCRDFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		crds = append(crds, fileCRDs...)
	}
	if len(crds) == 0 {
		return nil, fmt.Errorf("no CustomResourceDefinition in %s", dir)
	}
	return crds, nil
}

// readCRDFile decodes the documents of one file, each of which must be an
// apiextensions.k8s.io/v1 CustomResourceDefinition.
func readCRDFile(path string) ([]*unstructured.Unstructured, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	var crds []*unstructured.Unstructured
	for {
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			if errors.Is(err, io.EOF) {
				return crds, nil
			}
			return nil, err
		}
		if len(obj) == 0 { // an empty document, as after a leading ---
			continue
		}
		u := &unstructured.Unstructured{Object: obj}
		if gvk := u.GroupVersionKind(); gvk != crdGVR.GroupVersion().WithKind("CustomResourceDefinition") {
			return nil, fmt.Errorf("%s %q is not an apiextensions.k8s.io/v1 CustomResourceDefinition", gvk, u.GetName())
		}
		if u.GetName() == "" {
			return nil, errors.New("a CustomResourceDefinition without a name")
		}
		// Status is the server's; applying it would be an error.
		delete(u.Object, "status")
		crds = append(crds, u)
	}
}

// ignoreNotFound returns nil for a NotFound error and err otherwise.
func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

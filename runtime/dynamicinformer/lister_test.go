package dynamicinformer_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic/dynamiclister"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/dynamicinformer"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory/gvrtest"
)

// The typed lister answers as client-go's dynamiclister does, over the
// informer's typed store and over a client-go indexer alike, and the
// generic lister is client-go's shim over it.
func TestListerAnswersAsClientGos(t *testing.T) {
	client, _ := newClient()
	r := dynamicinformer.NewDynamicSharedInformerFactory(client, 0).Resource(deploymentsGVR)
	object := func(namespace, name, app string) *unstructured.Unstructured {
		if app == "" {
			return deployment(namespace, name, nil)
		}
		return deployment(namespace, name, withLabels(map[string]any{"app": app}))
	}
	gvrtest.CheckListers(t, r, object, dynamicinformer.NewLister, dynamiclister.New)
}

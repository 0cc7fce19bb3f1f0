package metadatainformer_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/metadata/metadatalister"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory/gvrtest"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/metadatainformer"
)

// The typed lister answers as client-go's metadatalister does, over the
// informer's typed store and over a client-go indexer alike, and the
// generic lister is client-go's shim over it.
func TestListerAnswersAsClientGos(t *testing.T) {
	client, _ := newClient()
	r := metadatainformer.NewSharedInformerFactory(client, 0).Resource(configMapsGVR)
	object := func(namespace, name, app string) *metav1.PartialObjectMetadata {
		if app == "" {
			return configMap(namespace, name, nil, nil)
		}
		return configMap(namespace, name, map[string]string{"app": app}, nil)
	}
	gvrtest.CheckListers(t, r, object, metadatainformer.NewLister, metadatalister.New)
}

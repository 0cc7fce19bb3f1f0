package dynamicinformer

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamiclister"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/internal/factory/gvrfactory"
)

// kind returns what the informers of client are built with: lists and
// watches of client's resources, index specs compiled by compile, and
// client-go's dynamic generic lister.
func kind(client dynamic.Interface) gvrfactory.Kind[*unstructured.Unstructured, dynamiclister.NamespaceLister] {
	resource := func(gvr schema.GroupVersionResource, namespace string) gvrfactory.ResourceClient[*unstructured.UnstructuredList] {
		return client.Resource(gvr).Namespace(namespace)
	}
	return gvrfactory.Kind[*unstructured.Unstructured, dynamiclister.NamespaceLister]{
		NewInformer:   gvrfactory.InformerFunc[*unstructured.Unstructured](client, resource),
		Compile:       compile,
		GenericLister: func(l Lister) clientcache.GenericLister { return dynamiclister.NewRuntimeObjectShim(l) },
	}
}

package metadatainformer_test

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata/fake"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/fakewatch"
)

var (
	configMapsGVR = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	secretsGVR    = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	podsGVR       = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
)

// newClient returns a fake metadata client holding objs, and a channel
// closed once a watch of configmaps is registered (writes made after it
// reach the watch).
func newClient(objs ...runtime.Object) (*fake.FakeMetadataClient, <-chan struct{}) {
	scheme := fake.NewTestScheme()
	if err := metav1.AddMetaToScheme(scheme); err != nil {
		panic(err)
	}
	client := fake.NewSimpleMetadataClient(scheme, objs...)
	return client, fakewatch.Started(client, "configmaps")
}

// configMap returns the metadata of a ConfigMap.
func configMap(namespace, name string, labels, annotations map[string]string, owners ...metav1.OwnerReference) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: namespace, Name: name, Labels: labels, Annotations: annotations, OwnerReferences: owners,
		},
	}
}

// secret returns the metadata of a Secret.
func secret(namespace, name string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
	}
}

func controller(apiVersion, kind, name string) metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: "u-" + "name", Controller: &yes}
}

package podexample

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
)

// protobuf returns the protobuf serializer of client-go's scheme.
func protobuf(t testing.TB) runtime.Serializer {
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		t.Fatal("no protobuf serializer in client-go's scheme")
	}
	return info.Serializer
}

// roundTrip encodes pods to protobuf and decodes each separately, so that
// every string of the result is its own allocation, as after a LIST.
func roundTrip(t testing.TB, pods []*corev1.Pod) []*corev1.Pod {
	s := protobuf(t)
	enc := scheme.Codecs.EncoderForVersion(s, corev1.SchemeGroupVersion)
	out := make([]*corev1.Pod, len(pods))
	for i, p := range pods {
		data, err := runtime.Encode(enc, p)
		if err != nil {
			t.Fatal(err)
		}
		obj, _, err := s.Decode(data, nil, &corev1.Pod{})
		if err != nil {
			t.Fatal(err)
		}
		out[i] = obj.(*corev1.Pod)
	}
	return out
}

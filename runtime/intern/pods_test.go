package intern_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testpods"
)

// protobuf returns the protobuf serializer of client-go's scheme.
func protobuf(tb testing.TB) runtime.Serializer {
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok {
		tb.Fatal("no protobuf serializer in client-go's scheme")
	}
	return info.Serializer
}

// encodedPods returns the pods of cfg, each encoded to protobuf on its own.
func encodedPods(tb testing.TB, cfg testpods.Config) [][]byte {
	enc := scheme.Codecs.EncoderForVersion(protobuf(tb), corev1.SchemeGroupVersion)
	pods := testpods.Generate(cfg)
	out := make([][]byte, len(pods))
	for i, p := range pods {
		data, err := runtime.Encode(enc, p)
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = data
	}
	return out
}

// decodePod decodes one pod: every string of the result is its own
// allocation, as after a LIST.
func decodePod(tb testing.TB, s runtime.Serializer, data []byte) *corev1.Pod {
	obj, _, err := s.Decode(data, nil, &corev1.Pod{})
	if err != nil {
		tb.Fatal(err)
	}
	return obj.(*corev1.Pod)
}

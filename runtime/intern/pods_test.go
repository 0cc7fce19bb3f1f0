package intern_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testpods"
)

// protobuf returns the protobuf serializer of client-go's scheme.
func protobuf(tb testing.TB) runtime.Serializer {
	s, err := testpods.Protobuf()
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// encodedPods returns the pods of cfg, each encoded to protobuf on its own.
func encodedPods(tb testing.TB, cfg testpods.Config) [][]byte {
	out, err := testpods.EncodeAll(testpods.Generate(cfg))
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// decodePod decodes one pod: every string of the result is its own
// allocation, as after a LIST.
func decodePod(tb testing.TB, s runtime.Serializer, data []byte) *corev1.Pod {
	p, err := testpods.Decode(s, data)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

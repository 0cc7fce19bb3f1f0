package podexample

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testpods"
)

// roundTrip encodes pods to protobuf and decodes each separately, so that
// every string of the result is its own allocation, as after a LIST.
func roundTrip(t testing.TB, pods []*corev1.Pod) []*corev1.Pod {
	out, err := testpods.RoundTrip(pods)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

package cache

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/cache/internal/cachetest"
)

// The pods and index functions the package's tests share with the store's.
var (
	pod            = cachetest.Pod
	byNode         = cachetest.ByNode
	byImage        = cachetest.ByImage
	names          = cachetest.Names
	anyNames       = cachetest.AnyNames
	mustByIndex    = cachetest.MustByIndex
	labelIndexFunc = cachetest.LabelIndexFunc
	untyped        = cachetest.Untyped
)

// fifoPod returns pod ns/name at resource version rv.
func fifoPod(name, rv string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

// fifoCtx returns a context that ends with the test or after 5 s, a
// failure guard for a queue call that waits.
func fifoCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

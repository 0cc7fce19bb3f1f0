package wire

import (
	"context"
	"testing"

	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	clientcache "k8s.io/client-go/tools/cache"
)

// TestMain fails the package's tests if any goroutine is still running once
// they are done: every watch and list ends its goroutines and closes its
// body, whichever way it ends.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// typedClient is a client-go typed client, such as
// clientset.CoreV1().Pods(namespace).
type typedClient[L runtime.Object] interface {
	List(context.Context, metav1.ListOptions) (L, error)
	Watch(context.Context, metav1.ListOptions) (watch.Interface, error)
}

// testListWatch is the runtime's LIST and WATCH of a typed client.
type testListWatch struct {
	lw *clientcache.ListWatch
}

// clientListWatch returns the LIST and WATCH cache.NewClientListWatch makes
// of api, a typed client of resource: NewList and NewWatch over its REST
// client, or api's own List and Watch where they return nil.
func clientListWatch[T Object, L runtime.Object](api typedClient[L], resource string) *testListWatch {
	lw := &clientcache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return api.List(ctx, opts)
		},
		WatchFuncWithContext: api.Watch,
	}
	rc, ok := api.(interface {
		GetClient() rest.Interface
		GetNamespace() string
	})
	if !ok {
		return &testListWatch{lw: lw}
	}
	if list := NewList[T](rc.GetClient(), rc.GetNamespace(), resource, api.List); list != nil {
		lw.ListWithContextFunc = list
	}
	if w := NewWatch[T](rc.GetClient(), rc.GetNamespace(), resource); w != nil {
		lw.WatchFuncWithContext = w
	}
	return &testListWatch{lw: lw}
}

package cache

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
)

// restWatch watches a resource through a REST client of its own, made from
// the typed client's: the same server, path and HTTP client (so the same
// transport, credentials and user agent), asking for protobuf only, with a
// negotiator whose watch streams are decoded on several goroutines
// (protobufWatch). A server that cannot answer in protobuf makes it watch
// through the typed client from then on.
type restWatch[T Object] struct {
	client    *rest.RESTClient
	namespace string
	resource  string
	typed     func(context.Context, metav1.ListOptions) (watch.Interface, error)
	// typedOnly is set once the server refused protobuf.
	typedOnly atomic.Bool
}

// newRESTWatch returns the WATCH of resource in namespace through a REST
// client made from client, with typed, the typed client's Watch, for a
// server that does not answer in protobuf; or nil when client is not a
// *rest.RESTClient or T has no generated protobuf code.
func newRESTWatch[T Object](client rest.Interface, namespace, resource string, typed func(context.Context, metav1.ListOptions) (watch.Interface, error)) func(context.Context, metav1.ListOptions) (watch.Interface, error) {
	rc, ok := client.(*rest.RESTClient)
	if !ok || rc == nil || resource == "" {
		return nil
	}
	newItem, ok := newObjectFunc[T]()
	if !ok {
		return nil
	}
	u := rc.Get().URL() // the client's base URL and versioned API path
	base := *u
	base.Path, base.RawPath, base.RawQuery = "/", "", ""
	gv := rc.APIVersion()
	own, err := rest.NewRESTClient(&base, u.Path, rest.ClientContentConfig{
		AcceptContentTypes: runtime.ContentTypeProtobuf,
		ContentType:        runtime.ContentTypeProtobuf,
		GroupVersion:       gv,
		Negotiator:         newProtobufWatch(gv, reflect.TypeFor[T]().Elem().Name(), newItem),
	}, nil, rc.Client)
	if err != nil {
		return nil
	}
	w := &restWatch[T]{client: own, namespace: namespace, resource: resource, typed: typed}
	return w.watch
}

// watch sends the request a generated typed client's Watch sends, asking
// for protobuf.
func (w *restWatch[T]) watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	if w.typedOnly.Load() {
		return w.typed(ctx, opts)
	}
	var timeout time.Duration
	if opts.TimeoutSeconds != nil {
		timeout = time.Duration(*opts.TimeoutSeconds) * time.Second
	}
	opts.Watch = true
	wi, err := w.client.Get().
		NamespaceIfScoped(w.namespace, w.namespace != "").
		Resource(w.resource).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).
		Timeout(timeout).
		Watch(ctx)
	if err != nil && (apierrors.IsNotAcceptable(err) || errors.Is(err, errNotProtobuf)) {
		w.typedOnly.Store(true)
		return w.typed(ctx, opts)
	}
	return wi, err
}

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
// transport, credentials and user agent), asking for protobuf (when T has
// generated protobuf code) or JSON, with a negotiator whose watch streams
// are decoded on several goroutines (watchNegotiator). A server that
// answers neither makes it watch through the typed client from then on.
type restWatch[T Object] struct {
	client    *rest.RESTClient
	namespace string
	resource  string
	typed     func(context.Context, metav1.ListOptions) (watch.Interface, error)
	// typedOnly is set once the server answered in another encoding.
	typedOnly atomic.Bool
}

// newRESTWatch returns the WATCH of resource in namespace through a REST
// client made from client, with typed, the typed client's Watch, for a
// server that answers in another encoding; or nil when client is not a
// *rest.RESTClient of a group version, or T is not a pointer to a named
// struct.
func newRESTWatch[T Object](client rest.Interface, namespace, resource string, typed func(context.Context, metav1.ListOptions) (watch.Interface, error)) func(context.Context, metav1.ListOptions) (watch.Interface, error) {
	rc, ok := client.(*rest.RESTClient)
	if !ok || rc == nil || resource == "" {
		return nil
	}
	newItem, hasProtobuf := newObjectFunc[T]()
	if newItem == nil {
		return nil
	}
	gv := rc.APIVersion()
	kind := reflect.TypeFor[T]().Elem().Name()
	if gv.Version == "" || kind == "" {
		return nil // no kind a scheme could know T by
	}
	formats := map[string]watchFormat{runtime.ContentTypeJSON: newJSONWatch(gv, kind, newItem)}
	contentType, accept := runtime.ContentTypeJSON, runtime.ContentTypeJSON
	if hasProtobuf {
		formats[runtime.ContentTypeProtobuf] = newProtobufWatch(gv, kind, newItem)
		contentType, accept = runtime.ContentTypeProtobuf, runtime.ContentTypeProtobuf+", "+runtime.ContentTypeJSON
	}
	u := rc.Get().URL() // the client's base URL and versioned API path
	base := *u
	base.Path, base.RawPath, base.RawQuery = "/", "", ""
	own, err := rest.NewRESTClient(&base, u.Path, rest.ClientContentConfig{
		AcceptContentTypes: accept,
		ContentType:        contentType,
		GroupVersion:       gv,
		Negotiator:         newWatchNegotiator(gv, formats),
	}, nil, rc.Client)
	if err != nil {
		return nil
	}
	w := &restWatch[T]{client: own, namespace: namespace, resource: resource, typed: typed}
	return w.watch
}

// watch sends the request a generated typed client's Watch sends, asking
// for the encodings it decodes.
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
	if err != nil && (apierrors.IsNotAcceptable(err) || errors.Is(err, errNotDecoded)) {
		w.typedOnly.Store(true)
		return w.typed(ctx, opts)
	}
	return wi, err
}

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
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// parameterCodec encodes ListOptions into a request's query, as client-go's
// dynamic and metadata clients do: the query is the same for every group
// and version.
var (
	parameterScheme = runtime.NewScheme()
	parameterCodec  = runtime.NewParameterCodec(parameterScheme)
	versionV1       = schema.GroupVersion{Version: "v1"}
)

func init() {
	metav1.AddToGroupVersion(parameterScheme, versionV1)
}

// restList lists a resource through its REST client and decodes protobuf
// responses as they arrive (protobufList), falling back to the typed
// client's List for anything else.
type restList[T Object, L runtime.Object] struct {
	client    rest.Interface
	namespace string
	resource  string
	decoder   protobufList[T]
	typed     func(context.Context, metav1.ListOptions) (L, error)
	// typedOnly is set once a response was not in protobuf: the client
	// is configured for another encoding, and every later list goes to
	// the typed client.
	typedOnly atomic.Bool
}

// newRESTList returns the LIST of resource in namespace through client,
// with typed, the typed client's List, for what it does not decode itself,
// or nil when it cannot decode: client is nil, T has no generated protobuf
// code, or L is not a pointer to a named type.
func newRESTList[T Object, L runtime.Object](client rest.Interface, namespace, resource string, typed func(context.Context, metav1.ListOptions) (L, error)) func(context.Context, metav1.ListOptions) (runtime.Object, error) {
	if client == nil || resource == "" {
		return nil
	}
	if v := reflect.ValueOf(client); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil // fake clientsets' GetClient: a nil *rest.RESTClient
	}
	newItem, ok := newObjectFunc[T]()
	if !ok {
		return nil
	}
	lt := reflect.TypeFor[L]()
	if lt.Kind() != reflect.Pointer || lt.Elem().Name() == "" {
		return nil
	}
	r := &restList[T, L]{
		client:    client,
		namespace: namespace,
		resource:  resource,
		decoder: protobufList[T]{
			apiVersion: client.APIVersion().String(),
			listKind:   lt.Elem().Name(),
			newItem:    newItem,
		},
		typed: typed,
	}
	return r.list
}

// list sends the request a generated typed client's List sends and decodes
// the response as it arrives. A response it does not decode (not protobuf,
// another kind) is listed again through the typed client, as is a request
// that failed before a response (the typed client retries those that may
// pass, as a reset connection).
func (r *restList[T, L]) list(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	if r.typedOnly.Load() {
		return r.typed(ctx, opts)
	}
	var timeout time.Duration
	if opts.TimeoutSeconds != nil {
		timeout = time.Duration(*opts.TimeoutSeconds) * time.Second
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	body, err := r.client.Get().
		UseProtobufAsDefault().
		NamespaceIfScoped(r.namespace, r.namespace != "").
		Resource(r.resource).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).
		Timeout(timeout).
		Stream(ctx)
	if err != nil {
		var status apierrors.APIStatus
		if errors.As(err, &status) {
			return nil, err // the server's answer, as the typed client returns it
		}
		return r.typed(ctx, opts)
	}
	defer body.Close()
	list, err := r.decoder.decode(body)
	switch {
	case errors.Is(err, errNotProtobuf):
		r.typedOnly.Store(true)
		return r.typed(ctx, opts)
	case errors.Is(err, errOtherBody):
		return r.typed(ctx, opts)
	case err != nil:
		return nil, err
	}
	return list, nil
}

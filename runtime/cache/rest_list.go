package cache

import (
	"bufio"
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
// and JSON responses as they arrive (protobufList, jsonList), falling back
// to the typed client's List for anything else.
type restList[T Object, L runtime.Object] struct {
	client    rest.Interface
	namespace string
	resource  string
	protobuf  *protobufList[T] // nil when T has no generated protobuf code
	json      jsonList[T]
	typed     func(context.Context, metav1.ListOptions) (L, error)
	// typedOnly is set once a response was in another encoding: the
	// client is configured for it, and every later list goes to the
	// typed client.
	typedOnly atomic.Bool
}

// newRESTList returns the LIST of resource in namespace through client,
// with typed, the typed client's List, for what it does not decode itself,
// or nil when it cannot decode: client is nil, T is not a pointer to a
// struct, or L is not a pointer to a named type.
func newRESTList[T Object, L runtime.Object](client rest.Interface, namespace, resource string, typed func(context.Context, metav1.ListOptions) (L, error)) func(context.Context, metav1.ListOptions) (runtime.Object, error) {
	if client == nil || resource == "" {
		return nil
	}
	if v := reflect.ValueOf(client); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil // fake clientsets' GetClient: a nil *rest.RESTClient
	}
	newItem, hasProtobuf := newObjectFunc[T]()
	if newItem == nil {
		return nil
	}
	lt := reflect.TypeFor[L]()
	if lt.Kind() != reflect.Pointer || lt.Elem().Name() == "" {
		return nil
	}
	apiVersion, listKind := client.APIVersion().String(), lt.Elem().Name()
	r := &restList[T, L]{
		client:    client,
		namespace: namespace,
		resource:  resource,
		json:      jsonList[T]{apiVersion: apiVersion, listKind: listKind, newItem: newItem},
		typed:     typed,
	}
	if hasProtobuf {
		r.protobuf = &protobufList[T]{apiVersion: apiVersion, listKind: listKind, newItem: newItem}
	}
	return r.list
}

// list sends the request a generated typed client's List sends and decodes
// the response as it arrives. A response it does not decode (in another
// encoding, of another kind) is listed again through the typed client, as
// is a request that failed before a response (the typed client retries
// those that may pass, as a reset connection).
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
	req := r.client.Get()
	if r.protobuf != nil {
		req = req.UseProtobufAsDefault()
	}
	body, err := req.
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
	list, err := r.decode(bufio.NewReaderSize(body, 64<<10))
	switch {
	case errors.Is(err, errNotDecoded):
		r.typedOnly.Store(true)
		return r.typed(ctx, opts)
	case errors.Is(err, errOtherBody), errors.Is(err, errJSONOther):
		return r.typed(ctx, opts)
	case err != nil:
		return nil, err
	}
	return list, nil
}

// decode decodes a body in protobuf (when T has protobuf code) or in JSON;
// a body in another encoding is errNotDecoded.
func (r *restList[T, L]) decode(br *bufio.Reader) (*ItemList[T], error) {
	if r.protobuf != nil {
		if list, err := r.protobuf.decode(br); !errors.Is(err, errNotProtobuf) {
			return list, err
		}
	}
	return r.json.decode(br)
}

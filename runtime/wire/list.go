package wire

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

// NewList returns the LIST of the resource named resource (such as "pods")
// in namespace ("" for all namespaces, or a cluster-scoped resource)
// through client, the REST client of a client-go typed client whose List is
// typed: it sends the request typed sends, through client's server, path,
// rate limiter and HTTP client, asking for protobuf when T has generated
// protobuf code (and JSON), and decodes the response while it is being
// read, its items on up to GOMAXPROCS goroutines, into an *ItemList[T]; a
// response the runtime does not decode itself is decoded by client-go's
// decoder into an L (see the package doc). A request that fails before a
// response (other than with an API error), or is answered with a success
// code client-go does not read as one, goes through typed, which retries
// it as client-go does.
//
// It returns nil when client is not a *rest.RESTClient of a group version
// (fake clientsets), or T or L is not a pointer to a named struct: the
// caller lists through the typed client then.
func NewList[T Object, L runtime.Object](client rest.Interface, namespace, resource string, typed func(context.Context, metav1.ListOptions) (L, error)) func(context.Context, metav1.ListOptions) (runtime.Object, error) {
	r := newResource[T](client, namespace, resource, reflect.TypeFor[L]())
	if r == nil {
		return nil
	}
	l := &list[T, L]{
		resource: r,
		typed:    typed,
		json:     jsonList[T]{apiVersion: r.gv.String(), listKind: reflect.TypeFor[L]().Elem().Name(), newItem: r.newItem},
	}
	if r.protobuf {
		l.protobuf = &protobufList[T]{apiVersion: r.gv.String(), listKind: l.json.listKind, newItem: r.newItem}
	}
	return l.list
}

// list is the LIST of a resource.
type list[T Object, L runtime.Object] struct {
	*resource[T]
	protobuf *protobufList[T] // nil when T has no generated protobuf code
	json     jsonList[T]
	typed    func(context.Context, metav1.ListOptions) (L, error)
}

// list sends the request a generated typed client's List sends and decodes
// the response as it arrives.
func (l *list[T, L]) list(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	var timeout time.Duration
	if opts.TimeoutSeconds != nil {
		timeout = time.Duration(*opts.TimeoutSeconds) * time.Second
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	body, err := l.client.Get().
		NamespaceIfScoped(l.namespace, l.namespace != "").
		Resource(l.name).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).
		Timeout(timeout).
		Stream(ctx)
	if err != nil {
		var status apierrors.APIStatus
		if errors.As(err, &status) {
			return nil, err // the server's answer, as the typed client returns it
		}
		return l.typed(ctx, opts)
	}
	defer body.Close()
	resp, ok := body.(*responseBody)
	if !ok || resp.status > http.StatusPartialContent {
		return l.typed(ctx, opts)
	}
	// As client-go's Request.transformResponse picks the decoder.
	contentType := resp.contentType
	if contentType == "" {
		contentType = l.contentType
	}
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	rec := &recorder{r: resp, on: true}
	br := bufio.NewReaderSize(rec, decodeChunk)
	var (
		items   *ItemList[T]
		outcome = handOver
	)
	switch {
	case mediaType == runtime.ContentTypeProtobuf && l.protobuf != nil:
		items, outcome, err = l.protobuf.decode(br, rec)
	case mediaType == runtime.ContentTypeJSON:
		items, outcome, err = l.json.decode(br, rec)
	}
	switch outcome {
	case decoded:
		return items, nil
	case failed:
		return nil, err
	case relist:
		return l.typed(ctx, opts)
	}
	// Handed over: client-go's Result.Into, on every byte of the body.
	data, err := io.ReadAll(rec.replay())
	if err != nil {
		return nil, fmt.Errorf("unexpected error when reading response body. Please retry. Original error: %w", err)
	}
	decoder, err := l.negotiator.Decoder(mediaType, params)
	if err != nil {
		return nil, fmt.Errorf("serializer for %s doesn't exist", contentType)
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("0-length response with status code: %d and content type: %s", resp.status, contentType)
	}
	into := reflect.New(reflect.TypeFor[L]().Elem()).Interface().(L)
	out, _, err := decoder.Decode(data, nil, into)
	if err != nil {
		return nil, err
	}
	if status, ok := out.(*metav1.Status); ok && any(out) != any(into) && status.Status != metav1.StatusSuccess {
		return nil, apierrors.FromObject(status)
	}
	return into, nil
}

package wire

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
)

// NewWatch returns the WATCH of the resource named resource (such as
// "pods") in namespace ("" for all namespaces, or a cluster-scoped
// resource) through client, the REST client of a client-go typed client:
// it sends the request the typed client's Watch sends, through client's
// server, path and HTTP client, asking for protobuf when T has generated
// protobuf code (and JSON), and returns client-go's stream watcher over the
// response. Only the decoding of the events is the runtime's (see the
// package doc): on up to four goroutines, in the order of the stream, at
// most ReadAheadBytes ahead of the watch's consumer.
//
// It returns nil when client is not a *rest.RESTClient of a group version
// (fake clientsets), or T is not a pointer to a named struct: the caller
// watches through the typed client then.
func NewWatch[T Object](client rest.Interface, namespace, resource string) func(context.Context, metav1.ListOptions) (watch.Interface, error) {
	r := newResource[T](client, namespace, resource, nil)
	if r == nil {
		return nil
	}
	return r.watch
}

// watch sends the request a generated typed client's Watch sends.
func (r *resource[T]) watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	var timeout time.Duration
	if opts.TimeoutSeconds != nil {
		timeout = time.Duration(*opts.TimeoutSeconds) * time.Second
	}
	opts.Watch = true
	return r.client.Get().
		NamespaceIfScoped(r.namespace, r.namespace != "").
		Resource(r.name).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).
		Timeout(timeout).
		Watch(ctx)
}

// watchNegotiator is the runtime.ClientNegotiator of a resource's REST
// client: client-go's negotiator over the typed client's codecs, whose
// stream decoder for protobuf (when T has generated protobuf code) and JSON
// is a watchStream over client-go's own serializer and object decoder for
// that content type. Every other content type is client-go's alone.
type watchNegotiator[T Object] struct {
	r *resource[T]
}

func (n *watchNegotiator[T]) Encoder(contentType string, params map[string]string) (runtime.Encoder, error) {
	return n.r.negotiator.Encoder(contentType, params)
}

func (n *watchNegotiator[T]) Decoder(contentType string, params map[string]string) (runtime.Decoder, error) {
	return n.r.negotiator.Decoder(contentType, params)
}

// StreamDecoder returns the three parts of a new decoding of one watch
// response in contentType.
func (n *watchNegotiator[T]) StreamDecoder(contentType string, params map[string]string) (runtime.Decoder, runtime.Serializer, runtime.Framer, error) {
	objects, events, framer, err := n.r.negotiator.StreamDecoder(contentType, params)
	if err != nil {
		return nil, nil, nil, err
	}
	mediaTypes := n.r.codecs.SupportedMediaTypes()
	info, ok := runtime.SerializerInfoForMediaType(mediaTypes, contentType)
	if !ok {
		info = mediaTypes[0] // as client-go reads a response without a content type
	}
	var format watchFormat
	switch {
	case info.MediaType == runtime.ContentTypeProtobuf && n.r.protobuf:
		format = protobufFormat[T]{apiVersion: n.r.gv.String(), kind: n.r.kind, newItem: n.r.newItem}
	case info.MediaType == runtime.ContentTypeJSON:
		format = jsonFormat[T]{gvk: n.r.gv.WithKind(n.r.kind), newItem: n.r.newItem}
	default:
		return objects, events, framer, nil
	}
	s := &watchStream{format: format, events: events, objects: objects}
	return tokenObjects{s}, tokenEvents{s}, s, nil
}

package wire

import (
	"io"
	"mime"
	"net/http"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
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

// resource is what NewList and NewWatch know of the resource they decode:
// a REST client of their own (newResource) and the decoder client-go's
// typed client would negotiate for each content type.
type resource[T Object] struct {
	client    *rest.RESTClient
	namespace string
	name      string
	gv        schema.GroupVersion
	kind      string
	newItem   func() T
	// protobuf is set when T has generated protobuf code: requests then
	// ask for protobuf first, as the typed clients of such types do.
	protobuf bool
	// contentType is the requests' content type: what a LIST response
	// without a Content-Type is read as.
	contentType string
	// codecs is the codec factory of the typed client (see codecsFor),
	// negotiator client-go's negotiator over it.
	codecs     runtime.NegotiatedSerializer
	negotiator runtime.ClientNegotiator
}

// newResource returns the resource name in namespace through a REST client
// of its own made from client: the same server, path, rate limiter and HTTP
// client (so the same transport, credentials and user agent), with listType
// (nil for a watch) the type of the resource's list. It returns nil when
// client is not a *rest.RESTClient of a group version, T is not a pointer to
// a named struct, or listType is not a pointer to a named struct.
func newResource[T Object](client rest.Interface, namespace, name string, listType reflect.Type) *resource[T] {
	rc, ok := client.(*rest.RESTClient)
	if !ok || rc == nil || name == "" {
		return nil // fake clientsets' GetClient: a nil *rest.RESTClient
	}
	newItem, hasProtobuf := newObjectFunc[T]()
	gv := rc.APIVersion()
	if newItem == nil || gv.Version == "" {
		return nil
	}
	var list runtime.Object
	if listType != nil {
		if listType.Kind() != reflect.Pointer || listType.Elem().Kind() != reflect.Struct || listType.Elem().Name() == "" {
			return nil
		}
		list, _ = reflect.New(listType.Elem()).Interface().(runtime.Object)
	}
	r := &resource[T]{
		namespace:   namespace,
		name:        name,
		gv:          gv,
		kind:        reflect.TypeFor[T]().Elem().Name(),
		newItem:     newItem,
		protobuf:    hasProtobuf,
		contentType: runtime.ContentTypeJSON,
	}
	r.codecs = codecsFor(gv, r.kind, newItem(), list).WithoutConversion()
	r.negotiator = runtime.NewClientNegotiator(r.codecs, gv)
	accept := runtime.ContentTypeJSON
	if hasProtobuf {
		r.contentType = runtime.ContentTypeProtobuf
		accept = runtime.ContentTypeProtobuf + "," + runtime.ContentTypeJSON
	}
	u := rc.Get().URL() // the client's base URL and versioned API path
	base := *u
	base.Path, base.RawPath, base.RawQuery = "/", "", ""
	httpClient := http.DefaultClient
	if rc.Client != nil {
		httpClient = rc.Client
	}
	transport := httpClient.Transport
	if transport == nil {
		transport = http.DefaultTransport
	}
	own := *httpClient
	own.Transport = &responseTransport{base: transport, streams: r.streams}
	r.client, _ = rest.NewRESTClient(&base, u.Path, rest.ClientContentConfig{
		AcceptContentTypes: accept,
		ContentType:        r.contentType,
		GroupVersion:       gv,
		Negotiator:         &watchNegotiator[T]{r: r},
	}, rc.GetRateLimiter(), &own)
	if r.client == nil {
		return nil
	}
	return r
}

// codecsFor returns the codecs client-go's typed client of item's type
// decodes with: those of client-go's scheme (k8s.io/client-go/kubernetes/scheme)
// when it registers item (and list, when not nil) under gv and their kinds,
// as the clientset of the built-in types does; otherwise those of a scheme
// of item, list and metav1's types (Status, WatchEvent), as a client-gen
// clientset of a custom resource knows them, but for the other kinds of
// its group.
func codecsFor(gv schema.GroupVersion, kind string, item, list runtime.Object) serializer.CodecFactory {
	registered := func(obj runtime.Object, kind string) bool {
		got, err := clientgoscheme.Scheme.New(gv.WithKind(kind))
		return err == nil && reflect.TypeOf(got) == reflect.TypeOf(obj)
	}
	if registered(item, kind) && (list == nil || registered(list, reflect.TypeOf(list).Elem().Name())) {
		return rest.CodecFactoryForGeneratedClient(clientgoscheme.Scheme, clientgoscheme.Codecs)
	}
	scheme := runtime.NewScheme()
	scheme.AddKnownTypeWithName(gv.WithKind(kind), item)
	if list != nil {
		scheme.AddKnownTypeWithName(gv.WithKind(reflect.TypeOf(list).Elem().Name()), list)
	}
	metav1.AddToGroupVersion(scheme, gv)
	if gv != versionV1 {
		metav1.AddToGroupVersion(scheme, versionV1)
	}
	return rest.CodecFactoryForGeneratedClient(scheme, serializer.NewCodecFactory(scheme))
}

// streams reports whether client-go's negotiator has a stream decoder for a
// watch response of Content-Type contentType (client-go reads an
// unparsable one as its first media type, JSON).
func (r *resource[T]) streams(contentType string) bool {
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mediaType = ""
	}
	_, _, _, err = r.negotiator.StreamDecoder(mediaType, params)
	return err == nil
}

// responseTransport hands every response body over as a *responseBody,
// which tells its status and Content-Type (rest.Request.Stream returns
// only the body). A watch answered in a content type client-go has no
// stream decoder for gets its body closed here: client-go's Request.Watch
// returns the negotiation error without closing it.
type responseTransport struct {
	base    http.RoundTripper
	streams func(contentType string) bool
}

func (t *responseTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp == nil || resp.Body == nil {
		return resp, err
	}
	contentType := resp.Header.Get("Content-Type")
	if resp.StatusCode == http.StatusOK && req.URL.Query().Get("watch") == "true" && !t.streams(contentType) {
		_ = resp.Body.Close()
		resp.Body = http.NoBody
		return resp, nil
	}
	resp.Body = &responseBody{ReadCloser: resp.Body, status: resp.StatusCode, contentType: contentType}
	return resp, nil
}

// responseBody is a response's body with its status and Content-Type.
type responseBody struct {
	io.ReadCloser
	status      int
	contentType string
}

package cache

import (
	"context"
	"reflect"
	"time"

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
// responses item by item (decodeItems).
type restList[T Object, L runtime.Object] struct {
	client     rest.Interface
	namespace  string
	resource   string
	apiVersion string // the client's group/version, as a list's envelope names it
	listKind   string // the Go name of L's type, the kind of a LIST response
	newList    func() L
	newItem    func() T
}

// newRESTList returns the LIST of resource in namespace through client,
// or nil when it cannot decode: client is nil, T has no generated protobuf
// code, or L is not a pointer to a named type.
func newRESTList[T Object, L runtime.Object](client rest.Interface, namespace, resource string) func(context.Context, metav1.ListOptions) (runtime.Object, error) {
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
		client:     client,
		namespace:  namespace,
		resource:   resource,
		apiVersion: client.APIVersion().String(),
		listKind:   lt.Elem().Name(),
		newList:    func() L { return reflect.New(lt.Elem()).Interface().(L) },
		newItem:    newItem,
	}
	return r.list
}

// list makes the request a generated typed client's List makes, and decodes
// the response.
func (r *restList[T, L]) list(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	var timeout time.Duration
	if opts.TimeoutSeconds != nil {
		timeout = time.Duration(*opts.TimeoutSeconds) * time.Second
	}
	res := r.client.Get().
		UseProtobufAsDefault().
		NamespaceIfScoped(r.namespace, r.namespace != "").
		Resource(r.resource).
		SpecificallyVersionedParams(&opts, parameterCodec, versionV1).
		Timeout(timeout).
		Do(ctx)
	if err := res.Error(); err != nil {
		return nil, err
	}
	body, _ := res.Raw()
	if pl, ok := splitProtobufList(body); ok && pl.kind == r.listKind && pl.apiVersion == r.apiVersion {
		return r.decode(pl)
	}
	list := r.newList()
	if err := res.Into(list); err != nil {
		return nil, err
	}
	return list, nil
}

// decode decodes the parts of a protobuf list.
func (r *restList[T, L]) decode(pl protobufList) (runtime.Object, error) {
	out := &ItemList[T]{}
	if err := out.ListMeta.Unmarshal(pl.meta); err != nil {
		return nil, err
	}
	items, err := decodeItems(pl.items, r.newItem)
	if err != nil {
		return nil, err
	}
	out.Items = items
	return out, nil
}

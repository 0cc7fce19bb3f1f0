package cache

import (
	"bytes"
	"fmt"
	"reflect"
	goruntime "runtime"
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// protobufPrefix starts every body in Kubernetes' protobuf encoding: the
// magic number before the runtime.Unknown envelope.
var protobufPrefix = []byte{'k', '8', 's', 0}

// protobufList is a LIST response in Kubernetes' protobuf encoding, cut into
// its parts. The parts are sub-slices of the body: nothing is decoded or
// copied yet.
type protobufList struct {
	apiVersion, kind string   // the envelope's type
	meta             []byte   // the list's ListMeta message
	items            [][]byte // one message per item, in order
}

// Field numbers of the messages splitProtobufList reads: runtime.Unknown
// (the envelope), its runtime.TypeMeta, and every Kubernetes list type
// (metadata first, items second).
const (
	unknownTypeMeta        = 1
	unknownRaw             = 2
	unknownContentEncoding = 3
	unknownContentType     = 4
	typeMetaAPIVersion     = 1
	typeMetaKind           = 2
	listMetadata           = 1
	listItems              = 2
)

// splitProtobufList cuts body, a LIST response, into the list's metadata and
// its items. ok is false when body is not a plain protobuf list: another
// encoding, an envelope with a content encoding, a list message with fields
// other than metadata and items, or a malformed message. The caller then
// decodes body as a whole, which reports what is wrong with it.
func splitProtobufList(body []byte) (l protobufList, ok bool) {
	if !bytes.HasPrefix(body, protobufPrefix) {
		return protobufList{}, false
	}
	// A message may repeat a field, which decoding merges; such a body
	// goes to the whole decode, as does any field this does not expect.
	var raw []byte
	var seen [5]bool
	once := func(num protowire.Number) bool {
		if seen[num] {
			return false
		}
		seen[num] = true
		return true
	}
	err := eachField(body[len(protobufPrefix):], func(num protowire.Number, v []byte) bool {
		switch num {
		case unknownTypeMeta:
			var tm [3]bool
			return once(num) && eachField(v, func(num protowire.Number, v []byte) bool {
				switch num {
				case typeMetaAPIVersion:
					l.apiVersion = string(v)
				case typeMetaKind:
					l.kind = string(v)
				default:
					return false
				}
				if tm[num] {
					return false
				}
				tm[num] = true
				return true
			}) == nil
		case unknownRaw:
			raw = v
			return once(num)
		case unknownContentEncoding, unknownContentType:
			return once(num) && len(v) == 0
		}
		return false
	})
	if err != nil || !seen[unknownRaw] {
		return protobufList{}, false
	}
	metaSeen := false
	err = eachField(raw, func(num protowire.Number, v []byte) bool {
		switch num {
		case listMetadata:
			if metaSeen {
				return false
			}
			l.meta, metaSeen = v, true
		case listItems:
			l.items = append(l.items, v)
		default:
			return false
		}
		return true
	})
	if err != nil {
		return protobufList{}, false
	}
	return l, true
}

// errFieldRejected stops eachField when its function returns false.
var errFieldRejected = fmt.Errorf("protobuf field rejected")

// eachField calls f with the number and the bytes of every length-delimited
// field of the message msg, in order, until f returns false. A field of any
// other wire type, or a malformed message, is an error.
func eachField(msg []byte, f func(protowire.Number, []byte) bool) error {
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return protowire.ParseError(n)
		}
		msg = msg[n:]
		if typ != protowire.BytesType {
			return fmt.Errorf("protobuf field %d has wire type %d, not length-delimited", num, typ)
		}
		v, n := protowire.ConsumeBytes(msg)
		if n < 0 {
			return protowire.ParseError(n)
		}
		msg = msg[n:]
		if !f(num, v) {
			return errFieldRejected
		}
	}
	return nil
}

// protobufUnmarshaler is what the API types' generated protobuf code
// implements.
type protobufUnmarshaler interface {
	Unmarshal([]byte) error
}

// decodeChunk is how many items a decoding goroutine takes at a time.
const decodeChunk = 32

// decodeItems decodes every item message into a new object made by newItem,
// on up to GOMAXPROCS goroutines (the caller's included), and returns the
// objects in the order of items. Each item is decoded as the list type's own
// generated code decodes it: by the item type's Unmarshal, into a zero
// object. On failure it returns the error of the first item that failed.
func decodeItems[T Object](items [][]byte, newItem func() T) ([]T, error) {
	out := make([]T, len(items))
	var next atomic.Int64
	var failed atomic.Bool
	errs := make([]error, len(items)/decodeChunk+1)
	work := func() {
		for !failed.Load() {
			start := int(next.Add(decodeChunk)) - decodeChunk
			if start >= len(items) {
				return
			}
			for i := start; i < min(start+decodeChunk, len(items)); i++ {
				obj := newItem()
				if err := any(obj).(protobufUnmarshaler).Unmarshal(items[i]); err != nil {
					errs[start/decodeChunk] = fmt.Errorf("decoding item %d of the list: %w", i, err)
					failed.Store(true)
					return
				}
				out[i] = obj
			}
		}
	}
	helpers := min(goruntime.GOMAXPROCS(0), (len(items)+decodeChunk-1)/decodeChunk) - 1
	var wg sync.WaitGroup
	for range helpers {
		wg.Go(work)
	}
	work()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// newObjectFunc returns a function that makes a new zero T, and whether T
// decodes itself from protobuf (the API types' generated Unmarshal). T must
// be a pointer type for the first.
func newObjectFunc[T Object]() (func() T, bool) {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Pointer {
		return nil, false
	}
	elem := t.Elem()
	newObj := func() T { return reflect.New(elem).Interface().(T) }
	_, ok := any(newObj()).(protobufUnmarshaler)
	return newObj, ok
}

// ItemList is the list a ListWatch returns when it decodes a protobuf LIST
// response itself (NewClientListWatch): the list's metadata and its items,
// each decoded into its own object. client-go's reflector reads it as any
// list (meta.ListAccessor, meta.ExtractList); because its items are
// pointers, it takes them as they are instead of copying each out of the
// list.
type ItemList[T Object] struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []T `json:"items"`
}

// DeepCopyObject returns a deep copy of the list and of every item.
func (l *ItemList[T]) DeepCopyObject() runtime.Object {
	if l == nil {
		return nil
	}
	out := &ItemList[T]{TypeMeta: l.TypeMeta}
	l.ListMeta.DeepCopyInto(&out.ListMeta)
	if l.Items != nil {
		out.Items = make([]T, len(l.Items))
		for i, item := range l.Items {
			var zero T
			if item != zero {
				out.Items[i] = item.DeepCopyObject().(T)
			}
		}
	}
	return out
}

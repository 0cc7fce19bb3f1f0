package wire

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testpods"
)

// diffMaxBody is the largest body the differential targets serve.
const diffMaxBody = 1 << 20

// diffWatchTimeout is how long a differential target waits for a watch over
// a body to end.
const diffWatchTimeout = 5 * time.Second

// diffCheckTimeout is how long one differential check may take: its LIST
// and watches each end within diffWatchTimeout or fail.
const diffCheckTimeout = 8 * diffWatchTimeout

// The content types the API server answers LIST and WATCH requests with.
const (
	diffProtobuf      = runtime.ContentTypeProtobuf
	diffProtobufWatch = runtime.ContentTypeProtobuf + ";stream=watch"
	diffJSON          = runtime.ContentTypeJSON
)

// diffTransport answers every request with status 200, its content type (no
// Content-Type header when it is empty) and a copy of its body, without a
// connection.
type diffTransport struct {
	mu          sync.Mutex
	contentType string
	body        []byte
}

// serve makes every later response carry contentType and body.
func (d *diffTransport) serve(contentType string, body []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.contentType, d.body = contentType, body
}

// RoundTrip answers req with the response serve set, closing req's body.
func (d *diffTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	d.mu.Lock()
	contentType, body := d.contentType, bytes.Clone(d.body)
	d.mu.Unlock()
	if req.Body != nil {
		_ = req.Body.Close()
	}
	header := http.Header{}
	if contentType != "" {
		header.Set("Content-Type", contentType)
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}, nil
}

// diffTypedClient is a client-go typed client of a resource, such as
// clientset.CoreV1().Pods("").
type diffTypedClient[L runtime.Object] interface {
	List(context.Context, metav1.ListOptions) (L, error)
	Watch(context.Context, metav1.ListOptions) (watch.Interface, error)
}

// diffKind is the LIST and the WATCH of one resource in all namespaces, by
// the runtime and by client-go's typed client.
type diffKind struct {
	resource          string
	list, typedList   func(context.Context, metav1.ListOptions) (runtime.Object, error)
	watch, typedWatch func(context.Context, metav1.ListOptions) (watch.Interface, error)
}

// newDiffKind returns the runtime's LIST and WATCH of resource over client,
// the REST client of typed, and typed's own.
func newDiffKind[T Object, L runtime.Object](client rest.Interface, resource string, typed diffTypedClient[L]) (diffKind, error) {
	list := NewList[T](client, "", resource, typed.List)
	w := NewWatch[T](client, "", resource)
	if list == nil || w == nil {
		return diffKind{}, fmt.Errorf("no runtime LIST or WATCH of %s", resource)
	}
	return diffKind{
		resource: resource,
		list:     list,
		typedList: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return typed.List(ctx, opts)
		},
		watch:      w,
		typedWatch: typed.Watch,
	}, nil
}

// diffHarness is a clientset of client-go's full scheme whose every request
// is answered by one diffTransport, and the pods and config maps of it, by
// the runtime and by the typed client.
type diffHarness struct {
	transport  *diffTransport
	pods       diffKind
	configMaps diffKind
}

// newDiffHarness returns a harness; it fails tb when the runtime does not
// list or watch a resource of the clientset.
func newDiffHarness(tb testing.TB) *diffHarness {
	tb.Helper()
	h := &diffHarness{transport: &diffTransport{}}
	cs, err := kubernetes.NewForConfig(&rest.Config{
		Host:        "http://fuzz.invalid",
		Transport:   h.transport,
		RateLimiter: flowcontrol.NewFakeAlwaysRateLimiter(),
	})
	if err != nil {
		tb.Fatal(err)
	}
	core := cs.CoreV1()
	if h.pods, err = newDiffKind[*corev1.Pod, *corev1.PodList](core.RESTClient(), "pods", core.Pods("")); err != nil {
		tb.Fatal(err)
	}
	if h.configMaps, err = newDiffKind[*corev1.ConfigMap, *corev1.ConfigMapList](core.RESTClient(), "configmaps", core.ConfigMaps("")); err != nil {
		tb.Fatal(err)
	}
	return h
}

// kind returns the config maps when configMaps is set, else the pods.
func (h *diffHarness) kind(configMaps bool) diffKind {
	if configMaps {
		return h.configMaps
	}
	return h.pods
}

// checkList lists the kind configMaps picks through the runtime and through
// the typed client, both answered with contentType and body, and fails t
// where the results differ.
func (h *diffHarness) checkList(t *testing.T, configMaps bool, contentType string, body []byte) {
	t.Helper()
	k := h.kind(configMaps)
	h.transport.serve(contentType, body)
	got, gotErr := diffListWithin(t, k.list, contentType, body)
	want, wantErr := diffListWithin(t, k.typedList, contentType, body)
	if difference := diffLists(got, gotErr, want, wantErr); difference != "" {
		t.Errorf("LIST of %s, Content-Type %q, body %s:\n%s\nruntime:   %s\nclient-go: %s",
			k.resource, contentType, diffQuote(body), difference, diffDescribeList(got, gotErr), diffDescribeList(want, wantErr))
	}
}

// checkWatch watches the kind configMaps picks through the runtime and
// through the typed client, both answered with contentType and body, and
// fails t where the events differ.
func (h *diffHarness) checkWatch(t *testing.T, configMaps bool, contentType string, body []byte) {
	t.Helper()
	k := h.kind(configMaps)
	h.transport.serve(contentType, body)
	got, gotHung, gotErr := diffCollect(k.watch)
	want, wantHung, wantErr := diffCollect(k.typedWatch)
	difference := diffWatches(got, gotErr, want, wantErr)
	if gotHung || wantHung {
		difference = strings.TrimSpace(fmt.Sprintf("%s\na watch did not end within %v (runtime %t, client-go %t)", difference, diffWatchTimeout, gotHung, wantHung))
	}
	if difference != "" {
		t.Errorf("WATCH of %s, Content-Type %q, body %s:\n%s\nruntime:   %s\nclient-go: %s",
			k.resource, contentType, diffQuote(body), difference, diffDescribeEvents(got, gotErr), diffDescribeEvents(want, wantErr))
	}
}

// diffListWithin returns what list returns, and fails t with every
// goroutine's stack when list has not returned within diffWatchTimeout: a
// LIST over a body that has been read to its end must end.
func diffListWithin(t *testing.T, list func(context.Context, metav1.ListOptions) (runtime.Object, error), contentType string, body []byte) (runtime.Object, error) {
	t.Helper()
	type result struct {
		obj runtime.Object
		err error
	}
	done := make(chan result, 1)
	go func() {
		obj, err := list(context.Background(), metav1.ListOptions{})
		done <- result{obj, err}
	}()
	timer := time.NewTimer(diffWatchTimeout)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.obj, r.err
	case <-timer.C:
		t.Fatalf("a LIST, Content-Type %q, body %s, did not end within %v:\n%s", contentType, diffQuote(body), diffWatchTimeout, diffStacks())
		return nil, nil
	}
}

// diffStacks returns the stacks of every goroutine, up to 4 MiB of them.
func diffStacks() []byte {
	stacks := make([]byte, 4<<20)
	return stacks[:goruntime.Stack(stacks, true)]
}

// diffCollect starts a watch with start and returns its events until its
// result channel closes, or the error it failed to start with; hung is set
// when it did not end within diffWatchTimeout, and was stopped then.
func diffCollect(start func(context.Context, metav1.ListOptions) (watch.Interface, error)) (events []watch.Event, hung bool, err error) {
	w, err := start(context.Background(), metav1.ListOptions{})
	if err != nil || w == nil {
		return nil, false, err
	}
	defer w.Stop()
	timeout := time.NewTimer(diffWatchTimeout)
	defer timeout.Stop()
	for {
		select {
		case e, ok := <-w.ResultChan():
			if !ok {
				return events, false, nil
			}
			events = append(events, e)
		case <-timeout.C:
			w.Stop()
			drain := time.NewTimer(diffWatchTimeout)
			defer drain.Stop()
			for {
				select {
				case _, ok := <-w.ResultChan():
					if !ok {
						return events, true, nil
					}
				case <-drain.C:
					return events, true, nil
				}
			}
		}
	}
}

// diffErrorClass returns what a caller of a LIST or a WATCH tells an error
// by: an API error's code and reason, or that it is another error.
func diffErrorClass(err error) string {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		s := status.Status()
		return fmt.Sprintf("API error %d %s", s.Code, s.Reason)
	}
	return "error"
}

// diffLists returns how the runtime's LIST result got, gotErr differs from
// client-go's want, wantErr, or "" when they are the same: the same error
// class, or the same list metadata and the same items.
func diffLists(got runtime.Object, gotErr error, want runtime.Object, wantErr error) string {
	switch {
	case gotErr != nil && wantErr != nil:
		if g, w := diffErrorClass(gotErr), diffErrorClass(wantErr); g != w {
			return fmt.Sprintf("the errors differ: runtime %s, client-go %s", g, w)
		}
		return ""
	case gotErr != nil:
		return "the runtime failed, client-go did not"
	case wantErr != nil:
		return "client-go failed, the runtime did not"
	}
	gotMeta, gotItems, err := diffListParts(got)
	if err != nil {
		return "the runtime's list: " + err.Error()
	}
	wantMeta, wantItems, err := diffListParts(want)
	if err != nil {
		return "client-go's list: " + err.Error()
	}
	if !reflect.DeepEqual(gotMeta, wantMeta) {
		return fmt.Sprintf("the list metadata differs: runtime %+v, client-go %+v", gotMeta, wantMeta)
	}
	if len(gotItems) != len(wantItems) {
		return fmt.Sprintf("%d items, client-go %d", len(gotItems), len(wantItems))
	}
	for i := range gotItems {
		if !reflect.DeepEqual(gotItems[i], wantItems[i]) {
			return fmt.Sprintf("item %d differs: %s", i, diffObjects(gotItems[i], wantItems[i]))
		}
	}
	return ""
}

// diffListParts returns the list metadata and the items of a list (an
// *ItemList or a client-go list type), as the reflector reads them.
func diffListParts(obj runtime.Object) (metav1.ListMeta, []runtime.Object, error) {
	v := reflect.ValueOf(obj)
	if obj == nil || v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return metav1.ListMeta{}, nil, fmt.Errorf("%T is no list", obj)
	}
	lm, ok := v.Elem().FieldByName("ListMeta").Interface().(metav1.ListMeta)
	if !ok {
		return metav1.ListMeta{}, nil, fmt.Errorf("%T has no list metadata", obj)
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		return metav1.ListMeta{}, nil, err
	}
	return lm, items, nil
}

// diffWatches returns how the runtime's watch (its events got, or the
// error it failed to start with) differs from client-go's, or "" when they
// are the same: both started or both failed to, and the same events in the
// same order, with the same types, equal objects, and ERROR events with the
// same status code and reason.
func diffWatches(got []watch.Event, gotErr error, want []watch.Event, wantErr error) string {
	switch {
	case gotErr != nil && wantErr != nil:
		if g, w := diffErrorClass(gotErr), diffErrorClass(wantErr); g != w {
			return fmt.Sprintf("the watches failed to start with different errors: runtime %s, client-go %s", g, w)
		}
		return ""
	case gotErr != nil:
		return "the runtime's watch failed to start, client-go's did not"
	case wantErr != nil:
		return "client-go's watch failed to start, the runtime's did not"
	}
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		if g.Type != w.Type {
			return fmt.Sprintf("event %d: type %s, client-go %s", i, g.Type, w.Type)
		}
		if g.Type == watch.Error {
			gs, gok := g.Object.(*metav1.Status)
			ws, wok := w.Object.(*metav1.Status)
			if gok && wok {
				if gs.Code != ws.Code || gs.Reason != ws.Reason {
					return fmt.Sprintf("event %d: ERROR %d %s, client-go ERROR %d %s", i, gs.Code, gs.Reason, ws.Code, ws.Reason)
				}
				continue
			}
		}
		if !reflect.DeepEqual(g.Object, w.Object) {
			return fmt.Sprintf("event %d (%s): the objects differ: %s", i, g.Type, diffObjects(g.Object, w.Object))
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d events, client-go %d", len(got), len(want))
	}
	return ""
}

// diffObjects shows where two objects that are not deeply equal differ:
// the path of the first value that differs, and both values there.
func diffObjects(got, want runtime.Object) string {
	if d := diffPath(reflect.ValueOf(got), reflect.ValueOf(want), fmt.Sprintf("(%T)", got), 0); d != "" {
		return d
	}
	return "no difference found"
}

// diffPath returns the path below path of the first value where a and b
// are not deeply equal (as reflect.DeepEqual compares them: nil and empty
// differ), with both values there; "" when they are deeply equal.
func diffPath(a, b reflect.Value, path string, depth int) string {
	show := func(v reflect.Value) string {
		if !v.IsValid() {
			return "<invalid>"
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
			if v.IsNil() {
				return fmt.Sprintf("nil %s", v.Type())
			}
		}
		if v.Kind() == reflect.Slice || v.Kind() == reflect.Map {
			return fmt.Sprintf("%s of %d", v.Type(), v.Len())
		}
		s := fmt.Sprintf("%v", v)
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		return s
	}
	report := func() string { return fmt.Sprintf("%s: runtime %s, client-go %s", path, show(a), show(b)) }
	switch {
	case !a.IsValid() || !b.IsValid():
		if a.IsValid() != b.IsValid() {
			return report()
		}
		return ""
	case a.Type() != b.Type():
		return fmt.Sprintf("%s: runtime %s, client-go %s", path, a.Type(), b.Type())
	case depth > 64:
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return report()
			}
			return ""
		}
		return diffPath(a.Elem(), b.Elem(), path, depth+1)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := diffPath(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, depth+1); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && (a.IsNil() != b.IsNil() || a.Len() != b.Len()) {
			return report()
		}
		for i := range a.Len() {
			if d := diffPath(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return report()
		}
		for _, k := range a.MapKeys() {
			key := fmt.Sprintf("%s[%v]", path, k)
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return key + ": client-go has no such key"
			}
			if d := diffPath(a.MapIndex(k), bv, key, depth+1); d != "" {
				return d
			}
		}
		return ""
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return ""
	}
	if !a.Equal(b) {
		return report()
	}
	return ""
}

// diffDescribeObject summarises an object: its type and its namespace, name
// and resource version, or a Status's code, reason and message.
func diffDescribeObject(obj runtime.Object) string {
	if obj == nil {
		return "<nil>"
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return fmt.Sprintf("%T(nil)", obj)
	}
	if s, ok := obj.(*metav1.Status); ok {
		return fmt.Sprintf("Status %s %d %s %q", s.Status, s.Code, s.Reason, s.Message)
	}
	if a, err := meta.Accessor(obj); err == nil {
		return fmt.Sprintf("%T %s/%s rv=%q", obj, a.GetNamespace(), a.GetName(), a.GetResourceVersion())
	}
	return fmt.Sprintf("%T", obj)
}

// diffDescribeList summarises a LIST's result: its error and its class, or
// the list's metadata and its first items.
func diffDescribeList(obj runtime.Object, err error) string {
	if err != nil {
		return fmt.Sprintf("%s: %v", diffErrorClass(err), err)
	}
	lm, items, lerr := diffListParts(obj)
	if lerr != nil {
		return lerr.Error()
	}
	var remaining any
	if lm.RemainingItemCount != nil {
		remaining = *lm.RemainingItemCount
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%T rv=%q continue=%q remaining=%v, %d items", obj, lm.ResourceVersion, lm.Continue, remaining, len(items))
	for i, item := range items {
		if i == 5 {
			b.WriteString("\n    …")
			break
		}
		b.WriteString("\n    " + diffDescribeObject(item))
	}
	return b.String()
}

// diffDescribeEvents summarises a watch: the error it failed to start
// with, or its events.
func diffDescribeEvents(events []watch.Event, err error) string {
	if err != nil {
		return fmt.Sprintf("failed to start, %s: %v", diffErrorClass(err), err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d events", len(events))
	for i, e := range events {
		if i == 10 {
			b.WriteString("\n    …")
			break
		}
		fmt.Fprintf(&b, "\n    %s %s", e.Type, diffDescribeObject(e.Object))
	}
	return b.String()
}

// diffQuote returns body as a Go string literal, its middle elided when it
// is long.
func diffQuote(body []byte) string {
	const keep = 600
	if len(body) <= 2*keep {
		return fmt.Sprintf("%q", body)
	}
	return fmt.Sprintf("%q + …%d bytes… + %q", body[:keep], len(body)-2*keep, body[len(body)-keep:])
}

// diffEncode encodes obj in mediaType as the API server does: as core/v1,
// with its apiVersion and kind, in protobuf in its envelope.
func diffEncode(tb testing.TB, mediaType string, obj runtime.Object) []byte {
	tb.Helper()
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), mediaType)
	if !ok {
		tb.Fatalf("no serializer for %s", mediaType)
	}
	b, err := runtime.Encode(scheme.Codecs.EncoderForVersion(info.Serializer, corev1.SchemeGroupVersion), obj)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// diffMarshal returns the protobuf message of obj by its generated code,
// without an envelope.
func diffMarshal(tb testing.TB, obj interface{ Marshal() ([]byte, error) }) []byte {
	tb.Helper()
	b, err := obj.Marshal()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// diffPBBytes returns a length-delimited protobuf field num holding b.
func diffPBBytes(num protowire.Number, b []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), b)
}

// diffPBVarint returns a varint protobuf field num holding v.
func diffPBVarint(num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), v)
}

// diffPBTypeMeta returns a runtime.TypeMeta message of apiVersion and kind,
// followed by the fields extra.
func diffPBTypeMeta(apiVersion, kind string, extra ...[]byte) []byte {
	b := append(diffPBBytes(1, []byte(apiVersion)), diffPBBytes(2, []byte(kind))...)
	return append(b, bytes.Join(extra, nil)...)
}

// diffPBEnvelope returns an object in Kubernetes' protobuf envelope: the
// magic number, then a runtime.Unknown of the TypeMeta message typeMeta and
// the message raw, followed by the fields extra.
func diffPBEnvelope(typeMeta, raw []byte, extra ...[]byte) []byte {
	b := append([]byte("k8s\x00"), diffPBBytes(1, typeMeta)...)
	b = append(b, diffPBBytes(2, raw)...)
	return append(b, bytes.Join(extra, nil)...)
}

// diffPBEvent returns a metav1.WatchEvent message of type typ whose object
// (a runtime.RawExtension) holds object, followed by the fields extra.
func diffPBEvent(typ string, object []byte, extra ...[]byte) []byte {
	b := append(diffPBBytes(1, []byte(typ)), diffPBBytes(2, diffPBBytes(1, object))...)
	return append(b, bytes.Join(extra, nil)...)
}

// diffPBFrames returns events (WatchEvent messages) framed as the API server
// streams them: each after its length, four bytes big-endian.
func diffPBFrames(events ...[]byte) []byte {
	var b []byte
	for _, e := range events {
		b = binary.BigEndian.AppendUint32(b, uint32(len(e)))
		b = append(b, e...)
	}
	return b
}

// diffJSONEvent returns a watch event in JSON as the API server writes it,
// ending with a newline, of type typ and the JSON object object.
func diffJSONEvent(tb testing.TB, typ string, object []byte) []byte {
	tb.Helper()
	b, err := json.Marshal(&metav1.WatchEvent{Type: typ, Object: runtime.RawExtension{Raw: bytes.TrimSpace(object)}})
	if err != nil {
		tb.Fatal(err)
	}
	return append(b, '\n')
}

// diffCut returns the first n bytes of b, or of b without its last -n
// bytes when n is negative.
func diffCut(b []byte, n int) []byte {
	if n < 0 {
		n += len(b)
	}
	return bytes.Clone(b[:n])
}

// diffJoin returns the concatenation of parts.
func diffJoin(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// diffSeedObjects is the objects the seeds are made of.
type diffSeedObjects struct {
	pods          []corev1.Pod
	podList       *corev1.PodList // with every ListMeta field a LIST sets
	configMaps    []corev1.ConfigMap
	configMapList *corev1.ConfigMapList
	bookmark      *corev1.Pod
	expired       *metav1.Status // 410, as a watch's ERROR event or a LIST's error
	internal      *metav1.Status // 500
	success       *metav1.Status // a Status of success
}

// newDiffSeedObjects returns realistic pods and config maps, their lists,
// and statuses.
func newDiffSeedObjects() diffSeedObjects {
	var o diffSeedObjects
	for _, p := range testpods.Generate(testpods.Config{Namespaces: 1, PodsPerNamespace: 3, Nodes: 1, Seed: 1}) {
		o.pods = append(o.pods, *p)
	}
	remaining := int64(42)
	o.podList = &corev1.PodList{
		ListMeta: metav1.ListMeta{ResourceVersion: "12345", Continue: "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDV9", RemainingItemCount: &remaining},
		Items:    o.pods,
	}
	immutable := true
	o.configMaps = []corev1.ConfigMap{
		{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns-0", Name: "settings", ResourceVersion: "100", Labels: map[string]string{"app": "redis"}},
			Data:       map[string]string{"a.conf": "x = 1\n", "empty": ""},
			BinaryData: map[string][]byte{"blob": {0, 1, 2, 0xff}},
		},
		{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns-0", Name: "frozen", ResourceVersion: "101", Annotations: map[string]string{"note": "ünïcödé"}},
			Immutable:  &immutable,
		},
	}
	o.configMapList = &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: "200", Continue: "next"}, Items: o.configMaps}
	o.bookmark = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "12346", Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}
	o.expired = &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonExpired, Message: "too old resource version: 1 (12345)"}
	o.internal = &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Reason: metav1.StatusReasonInternalError, Message: "etcd is unhappy"}
	o.success = &metav1.Status{Status: metav1.StatusSuccess, Code: http.StatusOK}
	return o
}

// diffSeed is a seed of a differential target: the kind it is served for
// (config maps or pods) and the body.
type diffSeed struct {
	configMaps bool
	body       []byte
}

// diffProtobufListSeeds returns LIST bodies in protobuf: the API server's,
// and the wire rules' corners.
func diffProtobufListSeeds(tb testing.TB) []diffSeed {
	o := newDiffSeedObjects()
	podList := diffEncode(tb, diffProtobuf, o.podList)
	listMsg := diffMarshal(tb, o.podList)
	podTypeMeta := diffPBTypeMeta("v1", "PodList")
	metaMsg := diffPBBytes(1, diffMarshal(tb, &o.podList.ListMeta))
	item := func(i int) []byte { return diffPBBytes(2, diffMarshal(tb, &o.pods[i])) }
	unknown := diffJoin(diffPBVarint(99, 7), diffPBBytes(100, []byte("unknown")), protowire.AppendTag(protowire.AppendTag(nil, 101, protowire.StartGroupType), 101, protowire.EndGroupType))
	return []diffSeed{
		{false, podList},
		{false, diffEncode(tb, diffProtobuf, &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "7"}})},
		{true, diffEncode(tb, diffProtobuf, o.configMapList)},
		{true, diffEncode(tb, diffProtobuf, &corev1.ConfigMapList{})},
		// Unknown fields in the envelope, its TypeMeta and the list.
		{false, diffPBEnvelope(diffPBTypeMeta("v1", "PodList", unknown), append(bytes.Clone(listMsg), unknown...), unknown)},
		// Metadata repeated and merged, between items.
		{false, diffPBEnvelope(podTypeMeta, diffJoin(metaMsg, item(0), diffPBBytes(1, diffMarshal(tb, &metav1.ListMeta{Continue: "later"})), item(1)))},
		// A repeated Raw: the last list wins.
		{false, diffPBEnvelope(podTypeMeta, listMsg, diffPBBytes(2, diffJoin(metaMsg, item(2))))},
		// A repeated TypeMeta, merged into the first.
		{false, diffPBEnvelope(podTypeMeta, listMsg, diffPBBytes(1, diffPBBytes(2, []byte("ConfigMapList"))))},
		{false, diffJoin([]byte("k8s\x00"), diffPBBytes(1, podTypeMeta), diffPBBytes(1, diffPBBytes(2, []byte("Pod"))), diffPBBytes(2, listMsg))},
		// A non-empty ContentEncoding and ContentType, which the serializer ignores.
		{false, diffPBEnvelope(podTypeMeta, listMsg, diffPBBytes(3, []byte("gzip")), diffPBBytes(4, []byte("application/json")))},
		// Another apiVersion, another kind, a single object.
		{false, diffPBEnvelope(diffPBTypeMeta("v2", "PodList"), listMsg)},
		{false, diffEncode(tb, diffProtobuf, o.configMapList)},
		{false, diffEncode(tb, diffProtobuf, &o.pods[0])},
		// Statuses: errors of the LIST, and success.
		{false, diffEncode(tb, diffProtobuf, o.expired)},
		{true, diffEncode(tb, diffProtobuf, o.internal)},
		{false, diffEncode(tb, diffProtobuf, o.success)},
		// Truncated bodies.
		{false, diffCut(podList, len(podList)/2)},
		{false, diffCut(podList, -1)},
		{false, diffCut(podList, 10)},
		{false, []byte("k8s\x00")},
		{false, nil},
		// A field of the wrong wire type, a malformed item, a length past the list.
		{false, diffPBEnvelope(podTypeMeta, diffJoin(metaMsg, diffPBVarint(2, 1)))},
		{false, diffPBEnvelope(podTypeMeta, diffJoin(metaMsg, diffPBBytes(2, []byte{0x0a, 0x05, 0x0a})))},
		{false, diffJoin([]byte("k8s\x00"), diffPBBytes(1, podTypeMeta), []byte{0x12, 0xff, 0xff, 0xff, 0x7f}, listMsg)},
		// Unknown fields the generated code skips by their wire types alone:
		// groups holding a field numbered 0 or past int32, or ended by another
		// number, in the list and in the envelope after it, and in a TypeMeta
		// after the list with a varint past 64 bits or a tag past 32.
		{false, []byte("k8s\x00\n\r\n\x02v1\x12\aPodList\x12\x04K\x00\x00L")},
		{true, []byte("k8s\x00\n\x13\n\x02v1\x12\rConfigMapList\x12\bK\x80\x80\x80\x80@\x01L")},
		{false, []byte("k8s\x00\n\r\n\x02v1\x12\aPodList\x12\x00K\x00\x00L")},
		{false, []byte("k8s\x00\n\r\n\x02v1\x12\aPodList\x12\x00\n\x02KT")},
		{false, []byte("k8s\x00\n\r\n\x02v1\x12\aPodList\x12\x00\n\v\x18\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f")},
		{false, []byte("k8s\x00\n\r\n\x02v1\x12\aPodList\x12\x00\n\a\xa8\x80\x80\x80\x80\x01\x00")},
		// Garbage, and JSON in a protobuf response.
		{false, []byte("<html>not protobuf</html>")},
		{false, diffEncode(tb, diffJSON, o.podList)},
	}
}

// diffJSONListSeeds returns LIST bodies in JSON: the API server's, and the
// serializer's corners.
func diffJSONListSeeds(tb testing.TB) []diffSeed {
	o := newDiffSeedObjects()
	podList := diffEncode(tb, diffJSON, o.podList)
	pod := bytes.TrimSpace(diffEncode(tb, diffJSON, &o.pods[0]))
	s := func(body string) []byte { return []byte(body) }
	deep := strings.Repeat("[", maxNestingDepth) + strings.Repeat("]", maxNestingDepth)
	return []diffSeed{
		{false, podList},
		{false, s(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}`)},
		{false, s(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":null}`)},
		{false, s(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"}}`)},
		{true, diffEncode(tb, diffJSON, o.configMapList)},
		{true, s(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"a"},"data":{"k":"v"},"binaryData":{"b":"AAH/"}}]}`)},
		// No kind, items before the kind, members the serializer skips, items with their kind.
		{false, s(`{"metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"a"}}]}`)},
		{false, diffJoin(s(`{"items":[`), pod, s(`],"metadata":{"continue":"c","remainingItemCount":3},"kind":"PodList","apiVersion":"v1"}`))},
		{false, diffJoin(s(`{"kind":"PodList","apiVersion":"v1","extra":{"a":[1,2,{"b":null}]},"Items":[1],"items":[`), pod, s(`,{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"}}]}`))},
		// Keys in other cases.
		{false, s(`{"Kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}}]}`)},
		{false, s(`{"kind":"PodList","APIVERSION":"v1","Metadata":{"resourceVersion":"5"},"items":[{"metadata":{"name":"a"}}]}`)},
		{false, s(`{"kind":"PodList","apiVersion":"v1","ITEMS":[{"metadata":{"name":"a"}}],"items":[{"METADATA":{"NAME":"b"}}]}`)},
		{false, s(`{"k\u0069nd":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}}]}`)},
		// Repeated members.
		{false, s(`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a"}}],"items":[{"metadata":{"name":"b"}}]}`)},
		{false, s(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"metadata":{"continue":"c"},"items":[]}`)},
		{false, s(`{"kind":"ConfigMapList","kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"a","name":"b"}}]}`)},
		// Trailing garbage, a second value, truncated bodies.
		{false, append(bytes.Clone(podList), "garbage"...)},
		{false, append(bytes.Clone(podList), `{"kind":"PodList"}`...)},
		{false, diffCut(podList, len(podList)/2)},
		{false, diffCut(podList, -2)},
		// Another kind, statuses, values that are not lists.
		{false, diffEncode(tb, diffJSON, o.configMapList)},
		{false, diffEncode(tb, diffJSON, o.expired)},
		{true, diffEncode(tb, diffJSON, o.internal)},
		{false, diffEncode(tb, diffJSON, o.success)},
		{false, s(`[]`)},
		{false, s(`null`)},
		{false, nil},
		// Items that fail to decode, invalid UTF-8, a value nested too deep.
		{false, s(`{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":5}}]}`)},
		{false, s(`{"kind":"PodList","apiVersion":"v1","items":{"metadata":{}}}`)},
		{false, s("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[{\"metadata\":{\"name\":\"\xff\xfe\"}}]}")},
		{false, s(`{"kind":"PodList","apiVersion":"v1","deep":` + deep + `,"items":[]}`)},
	}
}

// diffProtobufWatchSeeds returns watch streams in protobuf: the API
// server's, and the wire rules' corners.
func diffProtobufWatchSeeds(tb testing.TB) []diffSeed {
	o := newDiffSeedObjects()
	pb := func(obj runtime.Object) []byte { return diffEncode(tb, diffProtobuf, obj) }
	event := func(typ string, obj runtime.Object) []byte {
		return diffMarshal(tb, &metav1.WatchEvent{Type: typ, Object: runtime.RawExtension{Raw: pb(obj)}})
	}
	podMsg := diffMarshal(tb, &o.pods[0])
	unknown := diffJoin(diffPBVarint(99, 7), diffPBBytes(100, []byte("unknown")))
	all := diffPBFrames(
		event("ADDED", &o.pods[0]), event("ADDED", &o.pods[1]), event("MODIFIED", &o.pods[2]),
		event("DELETED", &o.pods[1]), event("BOOKMARK", o.bookmark), event("ERROR", o.expired))
	lastFrame := len(all) - len(event("ERROR", o.expired)) - 4
	return []diffSeed{
		{false, all},
		{false, diffPBFrames(event("ADDED", &o.pods[0]), event("ERROR", o.internal))},
		{true, diffPBFrames(event("ADDED", &o.configMaps[0]), event("MODIFIED", &o.configMaps[1]), event("DELETED", &o.configMaps[0]))},
		{false, nil},
		// Another kind in a pod watch; a pod in an ERROR event.
		{false, diffPBFrames(event("ADDED", &o.configMaps[0]), event("ADDED", &o.pods[0]))},
		{false, diffPBFrames(event("ERROR", &o.pods[0]))},
		// Unknown fields in the event, its object, the envelope and its TypeMeta.
		{false, diffPBFrames(diffJoin(diffPBBytes(1, []byte("ADDED")), diffPBBytes(2, diffJoin(diffPBBytes(1, pb(&o.pods[0])), unknown)), unknown))},
		{false, diffPBFrames(diffPBEvent("ADDED", diffPBEnvelope(diffPBTypeMeta("v1", "Pod", unknown), podMsg, unknown)))},
		// A repeated object field, merged: the last Raw wins.
		{false, diffPBFrames(diffJoin(diffPBEvent("ADDED", pb(&o.pods[0])), diffPBBytes(2, diffPBBytes(1, pb(&o.pods[1])))))},
		{false, diffPBFrames(diffJoin(diffPBEvent("ADDED", pb(&o.pods[0])), diffPBBytes(2, nil)))},
		// A non-empty ContentEncoding and ContentType, a repeated TypeMeta.
		{false, diffPBFrames(diffPBEvent("ADDED", diffPBEnvelope(diffPBTypeMeta("v1", "Pod"), podMsg, diffPBBytes(3, []byte("gzip")), diffPBBytes(4, []byte("text/plain")))))},
		{false, diffPBFrames(diffPBEvent("ADDED", diffPBEnvelope(diffPBTypeMeta("v1", "Pod"), podMsg, diffPBBytes(1, diffPBBytes(2, []byte("ConfigMap"))))))},
		// Events of no or an unknown type, without an object, of a type of another wire type.
		{false, diffPBFrames(diffPBEvent("FOO", pb(&o.pods[0])))},
		{false, diffPBFrames(diffPBEvent("", pb(&o.pods[0])))},
		{false, diffPBFrames(diffPBBytes(1, []byte("ADDED")))},
		{false, diffPBFrames(diffJoin(diffPBVarint(1, 3), diffPBBytes(2, diffPBBytes(1, pb(&o.pods[0])))))},
		// Objects that are not enveloped protobuf, or fail to decode.
		{false, diffPBFrames(diffPBEvent("ADDED", diffEncode(tb, diffJSON, &o.pods[0])))},
		{false, diffPBFrames(diffPBEvent("ADDED", podMsg))},
		{false, diffPBFrames(diffPBEvent("ADDED", diffPBEnvelope(diffPBTypeMeta("v1", "Pod"), []byte{0x0a, 0x05, 0x0a})))},
		// A garbage frame, an empty frame, truncated streams.
		{false, diffPBFrames(event("ADDED", &o.pods[0]), []byte("hello"), event("ADDED", &o.pods[1]))},
		{false, diffPBFrames(nil, event("ADDED", &o.pods[0]))},
		{false, diffCut(all, lastFrame+2)},
		{false, diffCut(all, -3)},
		// Frame headers claiming 16 MiB and more, with no data.
		{false, diffJoin(diffPBFrames(event("ADDED", &o.pods[0])), []byte{0x01, 0x00, 0x00, 0x00})},
		{false, []byte{0x01, 0x00, 0x00, 0x01, 'k', '8', 's'}},
		{false, []byte{0xff, 0xff, 0xff, 0xff}},
	}
}

// diffJSONWatchSeeds returns watch streams in JSON: the API server's, and
// the serializer's corners.
func diffJSONWatchSeeds(tb testing.TB) []diffSeed {
	o := newDiffSeedObjects()
	js := func(obj runtime.Object) []byte { return diffEncode(tb, diffJSON, obj) }
	event := func(typ string, obj runtime.Object) []byte { return diffJSONEvent(tb, typ, js(obj)) }
	s := func(body string) []byte { return []byte(body) }
	all := diffJoin(
		event("ADDED", &o.pods[0]), event("ADDED", &o.pods[1]), event("MODIFIED", &o.pods[2]),
		event("DELETED", &o.pods[1]), event("BOOKMARK", o.bookmark), event("ERROR", o.expired))
	return []diffSeed{
		{false, all},
		{false, diffJoin(event("ADDED", &o.pods[0]), event("ERROR", o.internal))},
		{true, diffJoin(event("ADDED", &o.configMaps[0]), event("MODIFIED", &o.configMaps[1]), event("DELETED", &o.configMaps[0]))},
		{false, nil},
		// Another kind in a pod watch; a pod in an ERROR event.
		{false, diffJoin(event("ADDED", &o.configMaps[0]), event("ADDED", &o.pods[0]))},
		{false, event("ERROR", &o.pods[0])},
		// Keys in other cases, in the event and in its object.
		{false, s(`{"Type":"ADDED","Object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}` + "\n")},
		{false, s(`{"type":"ADDED","object":{"Kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}` + "\n")},
		{false, s(`{"type":"ADDED","object":{"kind":"Pod","apiversion":"v1","METADATA":{"name":"a"}}}` + "\n")},
		{false, s(`{"type":"ADDED","object":{"k\u0069nd":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}` + "\n")},
		// Repeated members.
		{false, s(`{"type":"ADDED","type":"DELETED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}` + "\n")},
		{false, s(`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}},"object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"}}}` + "\n")},
		{false, s(`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","name":"b"},"metadata":{"namespace":"c"}}}` + "\n")},
		// Objects without a kind, of another version, null, or failing to decode.
		{false, s(`{"type":"ADDED","object":{"metadata":{"name":"a"}}}` + "\n")},
		{false, s(`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v2","metadata":{"name":"a"}}}` + "\n")},
		{false, s(`{"type":"ADDED","object":null}` + "\n")},
		{false, s(`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":5}}}` + "\n")},
		{false, s(`{"type":"ADDED"}` + "\n" + `{"type":"added","object":{"kind":"Pod","apiVersion":"v1"}}` + "\n")},
		{false, s(`{"type":"FOO","object":{"kind":"Pod","apiVersion":"v1"}}` + "\n")},
		// Events without newlines, with other whitespace, with members the serializer skips.
		{false, s(` {"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}{"object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b"}},"type":"DELETED","extra":[1]}` + "\r\n\t")},
		// Trailing garbage, values that are not events, truncated streams.
		{false, append(bytes.Clone(all), "garbage"...)},
		{false, s("123\n\"x\"\nnull\n[]\n")},
		{false, diffCut(all, len(all)/2)},
		{false, diffCut(all, -3)},
		{false, s(`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"\xff"}}}` + "\n")},
	}
}

// diffContentTypeSeeds returns bodies served with Content-Types the API
// server writes, others client-go decodes, none, and ones it cannot parse.
func diffContentTypeSeeds(tb testing.TB) (contentTypes []string, bodies []diffSeed) {
	o := newDiffSeedObjects()
	yamlInfo, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeYAML)
	yamlList, err := runtime.Encode(scheme.Codecs.EncoderForVersion(yamlInfo.Serializer, corev1.SchemeGroupVersion), o.podList)
	if err != nil {
		tb.Fatal(err)
	}
	contentTypes = []string{
		diffProtobuf, diffProtobufWatch, diffJSON, "", "text/html; charset=utf-8", runtime.ContentTypeYAML,
		"application/json; charset=utf-8", "Application/JSON", "application/json; =", "application/vnd.kubernetes.protobuf;;",
	}
	bodies = []diffSeed{
		{false, diffEncode(tb, diffProtobuf, o.podList)},
		{false, diffEncode(tb, diffJSON, o.podList)},
		{true, yamlList},
		{false, diffPBFrames(diffMarshal(tb, &metav1.WatchEvent{Type: "ADDED", Object: runtime.RawExtension{Raw: diffEncode(tb, diffProtobuf, &o.pods[0])}}))},
		{false, diffJSONEvent(tb, "ADDED", diffEncode(tb, diffJSON, &o.pods[0]))},
		{false, []byte("<html><body>502 Bad Gateway</body></html>")},
	}
	return contentTypes, bodies
}

// diffFuzz runs body through check unless it is larger than diffMaxBody.
// A check that has not returned within diffCheckTimeout crashes the process
// with every goroutine's stack, so that the fuzzer records the body.
func diffFuzz(t *testing.T, body []byte, check func()) {
	if len(body) > diffMaxBody {
		t.Skip("body over 1 MiB")
	}
	watchdog := time.AfterFunc(diffCheckTimeout, func() {
		panic(fmt.Sprintf("a check of body %s did not end within %v:\n%s", diffQuote(body), diffCheckTimeout, diffStacks()))
	})
	defer watchdog.Stop()
	check()
}

// FuzzDifferentialProtobufList checks that a LIST answered in protobuf
// gives through the runtime what it gives through client-go's typed client.
func FuzzDifferentialProtobufList(f *testing.F) {
	for _, s := range diffProtobufListSeeds(f) {
		f.Add(s.configMaps, s.body)
	}
	h := newDiffHarness(f)
	f.Fuzz(func(t *testing.T, configMaps bool, body []byte) {
		diffFuzz(t, body, func() { h.checkList(t, configMaps, diffProtobuf, body) })
	})
}

// FuzzDifferentialJSONList checks that a LIST answered in JSON gives
// through the runtime what it gives through client-go's typed client.
func FuzzDifferentialJSONList(f *testing.F) {
	for _, s := range diffJSONListSeeds(f) {
		f.Add(s.configMaps, s.body)
	}
	h := newDiffHarness(f)
	f.Fuzz(func(t *testing.T, configMaps bool, body []byte) {
		diffFuzz(t, body, func() { h.checkList(t, configMaps, diffJSON, body) })
	})
}

// FuzzDifferentialProtobufWatch checks that a watch streamed in protobuf
// gives through the runtime the events it gives through client-go's typed
// client.
func FuzzDifferentialProtobufWatch(f *testing.F) {
	for _, s := range diffProtobufWatchSeeds(f) {
		f.Add(s.configMaps, s.body)
	}
	h := newDiffHarness(f)
	f.Fuzz(func(t *testing.T, configMaps bool, body []byte) {
		diffFuzz(t, body, func() { h.checkWatch(t, configMaps, diffProtobufWatch, body) })
	})
}

// FuzzDifferentialJSONWatch checks that a watch streamed in JSON gives
// through the runtime the events it gives through client-go's typed client.
func FuzzDifferentialJSONWatch(f *testing.F) {
	for _, s := range diffJSONWatchSeeds(f) {
		f.Add(s.configMaps, s.body)
	}
	h := newDiffHarness(f)
	f.Fuzz(func(t *testing.T, configMaps bool, body []byte) {
		diffFuzz(t, body, func() { h.checkWatch(t, configMaps, diffJSON, body) })
	})
}

// FuzzDifferentialContentType checks that a LIST and a watch answered with
// any Content-Type, or none, give through the runtime what they give through
// client-go's typed client: the Content-Type picks the decoder, or the
// error, as in client-go.
func FuzzDifferentialContentType(f *testing.F) {
	contentTypes, bodies := diffContentTypeSeeds(f)
	for i, s := range bodies {
		for j, contentType := range contentTypes {
			if (i+j)%2 == 0 || contentType == "" || contentType == diffProtobuf || contentType == diffJSON {
				f.Add(s.configMaps, contentType, s.body)
			}
		}
	}
	h := newDiffHarness(f)
	f.Fuzz(func(t *testing.T, configMaps bool, contentType string, body []byte) {
		diffFuzz(t, body, func() {
			h.checkList(t, configMaps, contentType, body)
			h.checkWatch(t, configMaps, contentType, body)
		})
	})
}

// TestDifferentialTargetsDecodeTheAPIServersListsInTheRuntime checks that
// the differential targets compare the runtime's own decoding with
// client-go's: the lists the API server writes, in protobuf and in JSON,
// are decoded by the runtime into an ItemList, equal to client-go's list.
func TestDifferentialTargetsDecodeTheAPIServersListsInTheRuntime(t *testing.T) {
	h := newDiffHarness(t)
	o := newDiffSeedObjects()
	for _, c := range []struct {
		configMaps  bool
		contentType string
		list        runtime.Object
	}{
		{false, diffProtobuf, o.podList},
		{false, diffJSON, o.podList},
		{true, diffProtobuf, o.configMapList},
		{true, diffJSON, o.configMapList},
	} {
		h.checkList(t, c.configMaps, c.contentType, diffEncode(t, c.contentType, c.list))
		got, err := h.kind(c.configMaps).list(context.Background(), metav1.ListOptions{})
		switch got.(type) {
		case *ItemList[*corev1.Pod], *ItemList[*corev1.ConfigMap]:
		default:
			t.Errorf("%T in %s: %T, %v; want an ItemList the runtime decoded", c.list, c.contentType, got, err)
		}
	}
}

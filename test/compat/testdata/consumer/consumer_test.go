package consumer

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	compatv1 "example.dev/compat/apis/compat/v1"
	"example.dev/compat/generated/clientset/versioned/fake"
	"example.dev/compat/generated/informers/externalversions"
)

// The test records what the uses observe, under stable names, into the JSON
// file $COMPAT_RESULTS; the compile-compatibility test runs it against both
// generators' output and compares the two files.

const waitTimeout = 30 * time.Second

type recorder struct {
	t   *testing.T
	obs map[string]any
}

func (r *recorder) set(name string, v any) {
	r.t.Helper()
	if _, dup := r.obs[name]; dup {
		r.t.Fatalf("observation %q recorded twice", name)
	}
	// Through JSON, so that what is compared is what is written.
	b, err := json.Marshal(v)
	if err != nil {
		r.t.Fatalf("%s: %v", name, err)
	}
	r.obs[name] = json.RawMessage(b)
}

func errText(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}

func int32p(i int32) *int32 { return &i }

func newFoo(namespace, name, deployment string, replicas int32, lbls map[string]string) *compatv1.Foo {
	return &compatv1.Foo{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: namespace, Name: name, Labels: lbls,
			Annotations: map[string]string{"note": "kept unless transformed"},
		},
		Spec: compatv1.FooSpec{DeploymentName: deployment, Replicas: int32p(replicas)},
	}
}

func newBar(name, zone string) *compatv1.Bar {
	return &compatv1.Bar{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: compatv1.BarSpec{Zone: zone}}
}

func fixtureFoos() []*compatv1.Foo {
	web := map[string]string{"app": "web"}
	return []*compatv1.Foo{
		newFoo("a", "foo-1", "dep-1", 3, web),
		newFoo("a", "foo-2", "dep-2", 0, nil),
		newFoo("b", "foo-3", "dep-1", 3, web),
		newFoo("b", "foo-4", "dep-1", 1, map[string]string{"app": "db"}),
	}
}

func fixtureObjects() []runtime.Object {
	var objs []runtime.Object
	for _, foo := range fixtureFoos() {
		objs = append(objs, foo)
	}
	objs = append(objs, newBar("bar-1", "zone-a"), newBar("bar-2", "zone-b"))
	return objs
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if err := wait.PollUntilContextCancel(ctx, 10*time.Millisecond, true, func(context.Context) (bool, error) {
		return cond(), nil
	}); err != nil {
		t.Fatalf("timed out waiting for %s", what)
	}
}

// collect waits until ev has seen n events and returns them sorted.
func collect(t *testing.T, ev *Events, n int, what string) []string {
	t.Helper()
	var got []string
	for len(got) < n {
		s, ok := ev.Next(waitTimeout)
		if !ok {
			t.Fatalf("%s: got %d events, want %d: %q", what, len(got), n, got)
		}
		got = append(got, s)
	}
	// Nothing else should follow.
	if s, ok := ev.Next(200 * time.Millisecond); ok {
		got = append(got, s)
	}
	sort.Strings(got)
	return got
}

func TestRecord(t *testing.T) {
	out := os.Getenv("COMPAT_RESULTS")
	if out == "" {
		t.Skip("COMPAT_RESULTS is not set")
	}
	r := &recorder{t: t, obs: map[string]any{}}
	t.Run("listers", func(t *testing.T) { recordListers(t, r) })
	t.Run("factory", func(t *testing.T) { recordFactory(t, r) })
	t.Run("tombstone", func(t *testing.T) { recordTombstone(t, r) })
	t.Run("options", func(t *testing.T) { recordFactoryOptions(t, r) })
	t.Run("standalone", func(t *testing.T) { recordStandaloneInformers(t, r) })
	t.Run("unstarted", func(t *testing.T) { recordUnstartedIndexerAdd(t, r) })
	b, err := json.MarshalIndent(r.obs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// recordListers: listers over a client-go indexer, as unit tests build them.
func recordListers(t *testing.T, r *recorder) {
	foos, err := useNewFooListerOverIndexer(fixtureFoos()...)
	if err != nil {
		t.Fatal(err)
	}
	all, err := useListerList(foos, labels.Everything())
	r.set("lister/list-all", []any{all, errText(err)})
	web, err := useListerList(foos, labels.SelectorFromSet(labels.Set{"app": "web"}))
	r.set("lister/list-selector", []any{web, errText(err)})
	inB, err := useNamespaceListerList(foos, "b")
	r.set("lister/namespace-list", []any{inB, errText(err)})
	foo, err := useNamespaceListerGet(foos, "a", "foo-1")
	r.set("lister/namespace-get", []any{foo.Name, foo.Spec.DeploymentName, errText(err)})
	_, err = useNamespaceListerGet(foos, "b", "foo-1")
	r.set("lister/get-other-namespace", []any{errText(err), apierrors.IsNotFound(err)})
	msg, notFound := useNotFound(foos, "a", "missing")
	r.set("lister/not-found", []any{msg, notFound})
	if se, ok := err.(apierrors.APIStatus); ok {
		s := se.Status()
		r.set("lister/not-found-status", []any{s.Reason, s.Code, s.Details.Group, s.Details.Kind, s.Details.Name})
	} else {
		r.set("lister/not-found-status", fmt.Sprintf("not an APIStatus: %T", err))
	}
	byDep, err := useListerExpansion(foos, "dep-1")
	r.set("lister/expansion", []any{byDep, errText(err)})
	scaled, err := useNamespaceListerExpansion(foos, "a", "foo-1")
	r.set("lister/namespace-expansion", []any{scaled, errText(err)})
	notScaled, err := useNamespaceListerExpansion(foos, "a", "foo-2")
	r.set("lister/namespace-expansion-zero", []any{notScaled, errText(err)})
	_, err = useNamespaceListerExpansion(foos, "a", "missing")
	r.set("lister/namespace-expansion-missing", errText(err))

	bars, err := useNewBarListerOverIndexer(newBar("bar-1", "zone-a"), newBar("bar-2", "zone-b"))
	if err != nil {
		t.Fatal(err)
	}
	zone, err := useClusterListerGet(bars, "bar-2")
	r.set("lister/cluster-get", []any{zone, errText(err)})
	_, err = useClusterListerGet(bars, "missing")
	r.set("lister/cluster-not-found", []any{errText(err), apierrors.IsNotFound(err)})
	n, err := useClusterListerList(bars)
	r.set("lister/cluster-list", []any{n, errText(err)})
	useListerExpansionInterfaces()
}

// recordFactory: a factory over the fake clientset, with every kind of
// handler, then an update and a delete through the client.
func recordFactory(t *testing.T, r *recorder) {
	ctx, cancel := context.WithCancel(context.Background())
	client := fake.NewSimpleClientset(fixtureObjects()...)
	f := useNewSharedInformerFactory(client)
	defer useShutdown(f, cancel)
	_ = useFactoryAsInternalInterface(f)
	_ = useGroupVersionInterfaces(f)

	fi := useFooInformerInterface(f)
	tfi := useTypedFooInformerInterface(f)
	untyped, typed, detailed, filtered := NewEvents(), NewEvents(), NewEvents(), NewEvents()
	var regs []cache.ResourceEventHandlerRegistration
	add := func(reg cache.ResourceEventHandlerRegistration, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		regs = append(regs, reg)
	}
	add(useAddEventHandlerFuncs(fi, untyped))
	add(useTypedEventHandler(f, typed))
	add(useAddEventHandlerDetailedFuncs(fi, detailed))
	add(useTypedDetailedHandler(tfi, detailed))
	add(useFilteringResourceEventHandler(fi, "b", filtered))
	add(useTypedFilteringHandler(tfi, filtered))
	add(useAddEventHandlerWithResyncPeriod(fi))
	add(useAddEventHandlerWithOptions(fi))
	r.set("factory/add-indexers", errText(useAddIndexers(fi)))
	_, bars := useListerFromFactory(f)
	bi := f.Compat().V1().Bars()
	_ = bars

	synced := useStartAndWaitForCacheSync(f, ctx.Done())
	r.set("factory/wait-for-cache-sync", synced)
	r.set("factory/wait-for-cache-sync-funcs", useWaitForCacheSync(ctx.Done(), fi, bi))
	r.set("factory/has-synced-checker", useHasSyncedChecker(ctx, fi))
	r.set("factory/wait-named", useWaitForNamedCacheSync(ctx, fi))
	for _, reg := range regs {
		reg := reg
		waitFor(t, "handler registration sync", reg.HasSynced)
	}
	hs, checker := useRegistrationHasSynced(regs[0])
	r.set("factory/registration-has-synced", []any{hs, checker != nil})
	r.set("factory/informer-synced", useInformerSynced(fi)())

	r.set("factory/initial-untyped", collect(t, untyped, 4, "untyped adds"))
	r.set("factory/initial-typed", collect(t, typed, 4, "typed adds"))
	r.set("factory/initial-detailed", collect(t, detailed, 8, "detailed adds"))
	r.set("factory/initial-filtered", collect(t, filtered, 6, "filtered adds"))

	lister := fi.Lister()
	all, err := useListerList(lister, labels.Everything())
	r.set("factory/lister-list", []any{all, errText(err)})
	msg, notFound := useNotFound(lister, "a", "missing")
	r.set("factory/lister-not-found", []any{msg, notFound})
	zone, err := useClusterListerGet(bi.Lister(), "bar-1")
	r.set("factory/bar-lister-get", []any{zone, errText(err)})
	byDep, err := useGetIndexerByIndex(fi, "dep-1")
	r.set("factory/by-index", []any{byDep, errText(err)})
	keys, err := useNamespaceIndex(fi, "b")
	r.set("factory/namespace-index", []any{keys, errText(err)})
	exists, storeKeys, err := useGetStore(fi, "a/foo-2")
	r.set("factory/store", []any{exists, storeKeys, errText(err)})
	threes, err := useTypedIndexers(tfi)
	r.set("factory/typed-indexers", []any{fooNames(threes), errText(err)})
	r.set("factory/lister-of-index-informer", func() any {
		l := useListerOfIndexInformer(tfi.TypedInformer())
		names, err := useListerList(l, labels.Everything())
		return []any{len(names), errText(err)}
	}())
	r.set("factory/expansion", func() any {
		names, err := useListerExpansion(lister, "dep-1")
		return []any{names, errText(err)}
	}())

	gi, err := useForResource(f, "foos")
	if err != nil {
		t.Fatal(err)
	}
	n, err := useGenericLister(gi, "a", "foo-1")
	r.set("factory/for-resource", []any{n, errText(err)})
	_, err = useGenericLister(gi, "a", "missing")
	r.set("factory/generic-lister-not-found", []any{errText(err), apierrors.IsNotFound(err)})
	_, err = useForResource(f, "unknowns")
	r.set("factory/for-resource-unknown", errText(err))
	r.set("factory/informer-for", len(useInformerFor(f, "").GetStore().ListKeys()))

	// An update, then a delete, through the client.
	updated := newFoo("a", "foo-1", "dep-9", 3, map[string]string{"app": "web"})
	if _, err := client.CompatV1().Foos("a").Update(ctx, updated, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	r.set("factory/update-untyped", collect(t, untyped, 1, "untyped update"))
	r.set("factory/update-typed", collect(t, typed, 1, "typed update"))
	if err := client.CompatV1().Foos("b").Delete(ctx, "foo-3", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	r.set("factory/delete-untyped", collect(t, untyped, 1, "untyped delete"))
	r.set("factory/delete-typed", collect(t, typed, 1, "typed delete"))
	waitFor(t, "the lister to lose foo-3", func() bool {
		_, err := lister.Foos("b").Get("foo-3")
		return apierrors.IsNotFound(err)
	})
	all, err = useListerList(lister, labels.Everything())
	r.set("factory/lister-after-delete", []any{all, errText(err)})

	r.set("factory/remove-handler", errText(useRemoveEventHandler(fi, regs[0])))
	rv, stopped, hasSynced := useInformerState(fi.Informer())
	r.set("factory/informer-state", []any{rv != "", stopped, hasSynced})
}

// recordTombstone makes the informer miss a delete: the watch is a fake
// that delivers nothing, the object is deleted behind its back, then the
// watch fails with 410 Gone and the relist finds the object gone. Handlers
// then see cache.DeletedFinalStateUnknown (untyped) and a DeletedFoo with
// FinalStateUnknown set (typed).
func recordTombstone(t *testing.T, r *recorder) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := fake.NewSimpleClientset(fixtureObjects()...)
	watchers := make(chan *watch.FakeWatcher, 100)
	client.PrependWatchReactor("foos", func(clienttesting.Action) (bool, watch.Interface, error) {
		w := watch.NewFakeWithChanSize(10, false)
		watchers <- w
		return true, w, nil
	})
	informer := useNewFooInformer(client, "")
	watchErrs := make(chan error, 10)
	if err := useSetWatchErrorHandler(informer, watchErrs); err != nil {
		t.Fatal(err)
	}
	untyped, typed := NewEvents(), NewEvents()
	reg, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj interface{}) { untyped.add("delete %s", useTombstone(obj)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	treg, err := useToFooIndexInformer(informer).AddTypedEventHandler(
		cache.TypedResourceEventHandlerFuncs[*compatv1.Foo]{
			DeleteFunc: func(d cache.DeletedObject[*compatv1.Foo]) { typed.add("delete %s", useDeletedFoo(d)) },
		})
	if err != nil {
		t.Fatal(err)
	}
	useRunWithContext(ctx, informer)
	waitFor(t, "sync", func() bool { return reg.HasSynced() && treg.HasSynced() })
	var w *watch.FakeWatcher
	select {
	case w = <-watchers:
	case <-time.After(waitTimeout):
		t.Fatal("the informer did not watch")
	}
	gvr := compatv1.SchemeGroupVersion.WithResource("foos")
	if err := client.Tracker().Delete(gvr, "b", "foo-4"); err != nil {
		t.Fatal(err)
	}
	w.Error(&metav1.Status{
		Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired,
		Message: "too old resource version",
	})
	r.set("tombstone/untyped", collect(t, untyped, 1, "untyped tombstone"))
	r.set("tombstone/typed", collect(t, typed, 1, "typed tombstone"))
	_, exists, err := informer.GetStore().GetByKey("b/foo-4")
	r.set("tombstone/store", []any{exists, errText(err)})
	key, err := useDeletionHandlingKey(cache.DeletedFinalStateUnknown{Key: "b/foo-4", Obj: newFoo("b", "foo-4", "", 0, nil)})
	r.set("tombstone/deletion-handling-key", []any{key, errText(err)})
	obj, ok := useTombstoneMetaObject(cache.DeletedFinalStateUnknown{Key: "b/foo-4", Obj: newFoo("b", "foo-4", "", 0, nil)})
	r.set("tombstone/meta-object", []any{obj.GetName(), ok})
}

// recordFactoryOptions: a namespace, a transform, a tweak and an informer
// name on the factory.
func recordFactoryOptions(t *testing.T, r *recorder) {
	ctx, cancel := context.WithCancel(context.Background())
	client := fake.NewSimpleClientset(fixtureObjects()...)
	transformed := make(chan string, 100)
	f := useSharedInformerFactoryWithOptions(client, "a", func(obj interface{}) (interface{}, error) {
		if foo, ok := obj.(*compatv1.Foo); ok {
			transformed <- foo.Name
			foo.Annotations = nil
		}
		return obj, nil
	})
	defer useShutdown(f, cancel)
	foos, _ := useListerFromFactory(f)
	res, err := useStartWithContext(ctx, f)
	var synced []string
	for typ, ok := range res.Synced {
		synced = append(synced, fmt.Sprintf("%v=%v", typ, ok))
	}
	sort.Strings(synced)
	r.set("options/sync-result", []any{synced, errText(err)})
	all, err := useListerList(foos, labels.Everything())
	r.set("options/namespace", []any{all, errText(err)})
	foo, err := useNamespaceListerGet(foos, "a", "foo-1")
	r.set("options/transform", []any{foo.Annotations == nil, errText(err)})
	var names []string
	for len(transformed) > 0 {
		names = append(names, <-transformed)
	}
	sort.Strings(names)
	r.set("options/transformed", names)

	ctx2, cancel2 := context.WithCancel(context.Background())
	filtered := useNewFilteredSharedInformerFactory(client, "")
	defer useShutdown(filtered, cancel2)
	flister := filtered.Compat().V1().Foos().Lister()
	synced = useStartAndWaitForCacheSync(filtered, ctx2.Done())
	r.set("options/filtered-sync", synced)
	web, err := useListerList(flister, labels.Everything())
	r.set("options/tweak-list-options", []any{web, errText(err)})

	named, informerName, err := useWithInformerName(client, "compat-test-informers")
	if err != nil {
		t.Fatal(err)
	}
	r.set("options/informer-name", informerName.Name())
	named.Shutdown()
}

// recordStandaloneInformers: the New*Informer constructors, run by hand.
func recordStandaloneInformers(t *testing.T, r *recorder) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := fake.NewSimpleClientset(fixtureObjects()...)

	typed := useNewTypedFooInformer(client, "b")
	bars := useNewBarInformer(client)
	filtered := useNewFilteredFooInformer(client, "a")
	withOptions := useNewFooInformerWithOptions(client, "", nil)
	if err := useSetTransform(withOptions); err != nil {
		t.Fatal(err)
	}
	if err := useSetWatchErrorHandlerWithContext(withOptions); err != nil {
		t.Fatal(err)
	}
	useRunWithContext(ctx, typed)
	useRunWithContext(ctx, bars)
	useRunWithContext(ctx, filtered)
	useRun(useToTypedFooInformer(FooInformerOf{withOptions}), ctx.Done())
	for _, inf := range []cache.SharedIndexInformer{typed, bars, filtered, withOptions} {
		waitFor(t, "standalone sync", inf.HasSynced)
	}
	objs, err := typed.GetTypedIndexer().ByTypedIndex("compat-byDeploymentName", "dep-1")
	r.set("standalone/typed-by-index", []any{fooNames(objs), errText(err)})
	keys := bars.GetStore().ListKeys()
	sort.Strings(keys)
	r.set("standalone/bars", keys)
	zone, err := useClusterListerGet(useNewBarListerOfInformer(bars), "bar-2")
	r.set("standalone/bar-lister", []any{zone, errText(err)})
	fkeys := filtered.GetStore().ListKeys()
	sort.Strings(fkeys)
	r.set("standalone/filtered", fkeys)
	nsKeys, err := withOptions.GetIndexer().IndexKeys(cache.NamespaceIndex, "b")
	sort.Strings(nsKeys)
	r.set("standalone/with-options", []any{nsKeys, errText(err)})
	obj, exists, err := withOptions.GetStore().GetByKey("a/foo-1")
	r.set("standalone/set-transform", []any{exists, errText(err), exists && obj.(*compatv1.Foo).Annotations == nil})
	_ = useNewTypedFilteredFooInformer(client, "a")
	_ = useNewTypedFooInformerWithOptions(client, "a")
	_ = useNewFilteredBarInformer(client)
}

// recordUnstartedIndexerAdd: sample-controller's tests add objects to a
// factory informer's indexer and read them through the lister, without
// starting anything.
func recordUnstartedIndexerAdd(t *testing.T, r *recorder) {
	client := fake.NewSimpleClientset()
	f := externalversions.NewSharedInformerFactory(client, 0)
	fi := f.Compat().V1().Foos()
	err := useIndexerAdd(fi, fixtureFoos()...)
	r.set("unstarted/indexer-add", errText(err))
	all, err := useListerList(fi.Lister(), labels.Everything())
	r.set("unstarted/lister", []any{all, errText(err)})
	scaled, err := useNamespaceListerExpansion(fi.Lister(), "b", "foo-4")
	r.set("unstarted/expansion", []any{scaled, errText(err)})
	byDep, err := func() ([]string, error) {
		if err := useAddIndexers(fi); err != nil {
			return nil, err
		}
		return useGetIndexerByIndex(fi, "dep-1")
	}()
	r.set("unstarted/add-indexers-after-add", []any{byDep, errText(err)})
	r.set("unstarted/has-synced", fi.Informer().HasSynced())
	msg, notFound := useNotFound(fi.Lister(), "a", "nope")
	r.set("unstarted/not-found", []any{strings.TrimSpace(msg), notFound})
}

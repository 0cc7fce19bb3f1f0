package fieldindex_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/informer-gen-plus/informer-gen-plus/controllerruntime/fieldindex"
	"github.com/informer-gen-plus/informer-gen-plus/controllerruntime/fieldindex/fieldindextest"
)

// configMaps describes the test's indexes of ConfigMaps.
var configMaps = fieldindex.Kind{Name: "ConfigMap", SetupCall: "test.SetupConfigMapIndexes"}

// configMapIndexers indexes ConfigMaps by their data key mode (byMode) and
// by the annotation ref (byRef), as generated index functions would.
func configMapIndexers() cache.Indexers {
	return cache.Indexers{
		"byMode": func(obj any) ([]string, error) {
			if m, ok := obj.(*corev1.ConfigMap).Data["mode"]; ok {
				return []string{m}, nil
			}
			return nil, nil
		},
		"byRef": func(obj any) ([]string, error) {
			if r, ok := obj.(*corev1.ConfigMap).Annotations["ref"]; ok {
				return []string{r}, nil
			}
			return nil, nil
		},
	}
}

func configMap(ns, name, mode, ref string) *corev1.ConfigMap {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	if mode != "" {
		cm.Data = map[string]string{"mode": mode}
	}
	if ref != "" {
		cm.Annotations = map[string]string{"ref": ref}
	}
	return cm
}

// newClient builds a fake client holding objs with the indexers set up.
func newClient(t *testing.T, indexers cache.Indexers, objs ...client.Object) client.Client {
	t.Helper()
	builder := fake.NewClientBuilder().WithScheme(clientgoscheme.Scheme)
	if indexers != nil {
		if err := configMaps.Setup(context.Background(), fieldindextest.Indexer(builder), &corev1.ConfigMap{}, indexers); err != nil {
			t.Fatal(err)
		}
	}
	return builder.WithObjects(objs...).Build()
}

func names(list *corev1.ConfigMapList) []string {
	var out []string
	for _, cm := range list.Items {
		out = append(out, cm.Namespace+"/"+cm.Name)
	}
	slices.Sort(out)
	return out
}

func TestListFindsTheIndexedObjects(t *testing.T) {
	c := newClient(t, configMapIndexers(),
		configMap("a", "fast-1", "fast", ""), configMap("b", "fast-2", "fast", ""),
		configMap("a", "slow", "slow", ""), configMap("a", "none", "", ""))
	ctx := context.Background()
	for _, tc := range []struct {
		value string
		opts  []client.ListOption
		want  []string
	}{
		{"fast", nil, []string{"a/fast-1", "b/fast-2"}},
		{"fast", []client.ListOption{client.InNamespace("a")}, []string{"a/fast-1"}},
		{"slow", nil, []string{"a/slow"}},
		{"", nil, nil},
		{"other", nil, nil},
	} {
		var list corev1.ConfigMapList
		if err := configMaps.List(ctx, c, &list, "byMode", tc.value, tc.opts...); err != nil {
			t.Fatalf("List(byMode=%q): %v", tc.value, err)
		}
		if got := names(&list); !slices.Equal(got, tc.want) {
			t.Errorf("List(byMode=%q, %d options) = %v, want %v", tc.value, len(tc.opts), got, tc.want)
		}
	}
}

func TestListWithoutSetupNamesTheMissingCall(t *testing.T) {
	c := newClient(t, nil, configMap("a", "fast-1", "fast", ""))
	var list corev1.ConfigMapList
	err := configMaps.List(context.Background(), c, &list, "byMode", "fast")
	if !fieldindex.IsMissingIndex(err) {
		t.Fatalf("List without Setup: err = %v, want a *MissingIndexError", err)
	}
	var missing *fieldindex.MissingIndexError
	errors.As(err, &missing)
	if missing.Index != "byMode" || missing.Kind != "ConfigMap" {
		t.Errorf("MissingIndexError = %+v", missing)
	}
	for _, want := range []string{`"byMode"`, "test.SetupConfigMapIndexes", "mgr.GetFieldIndexer()"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %s", err, want)
		}
	}
}

func TestSetupRefusesANilIndexFunctionAndADuplicate(t *testing.T) {
	builder := fake.NewClientBuilder().WithScheme(clientgoscheme.Scheme)
	indexer := fieldindextest.Indexer(builder)
	err := configMaps.Setup(context.Background(), indexer, &corev1.ConfigMap{}, cache.Indexers{"byNothing": nil})
	if err == nil || !strings.Contains(err.Error(), `"byNothing"`) {
		t.Errorf("Setup with a nil function: err = %v, want one naming byNothing", err)
	}
	if err := configMaps.Setup(context.Background(), indexer, &corev1.ConfigMap{}, configMapIndexers()); err != nil {
		t.Fatal(err)
	}
	err = configMaps.Setup(context.Background(), indexer, &corev1.ConfigMap{}, configMapIndexers())
	if err == nil || !strings.Contains(err.Error(), `"byMode"`) {
		t.Errorf("Setup twice: err = %v, want one naming byMode", err)
	}
}

// captureErrors replaces utilruntime's error handlers for the test and
// returns what they were given.
func captureErrors(t *testing.T) func() []string {
	var mu sync.Mutex
	var got []string
	saved := utilruntime.ErrorHandlers
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{func(_ context.Context, err error, _ string, _ ...any) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, err.Error())
	}}
	t.Cleanup(func() { utilruntime.ErrorHandlers = saved })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

func TestAFailingIndexFunctionIsReportedAndIndexesNothing(t *testing.T) {
	reported := captureErrors(t)
	indexers := configMapIndexers()
	indexers["byMode"] = func(obj any) ([]string, error) {
		cm := obj.(*corev1.ConfigMap)
		switch cm.Name {
		case "panics":
			panic("bad index function")
		case "fails":
			return nil, errors.New("bad value")
		}
		return []string{cm.Data["mode"]}, nil
	}
	c := newClient(t, indexers,
		configMap("a", "panics", "fast", ""), configMap("a", "fails", "fast", ""), configMap("a", "fine", "fast", ""))
	var list corev1.ConfigMapList
	if err := configMaps.List(context.Background(), c, &list, "byMode", "fast"); err != nil {
		t.Fatal(err)
	}
	if got := names(&list); !slices.Equal(got, []string{"a/fine"}) {
		t.Errorf("List(byMode=fast) = %v, want only a/fine", got)
	}
	all := strings.Join(reported(), "\n")
	for _, want := range []string{"panicked on a/panics", "a/fails: bad value"} {
		if !strings.Contains(all, want) {
			t.Errorf("reported errors %q do not contain %q", all, want)
		}
	}
}

func TestMapByNameMapsToTheObjectsThatNameIt(t *testing.T) {
	c := newClient(t, configMapIndexers(),
		configMap("a", "uses-s1", "", "s1"), configMap("a", "also-s1", "", "s1"),
		configMap("b", "other-ns", "", "s1"), configMap("a", "uses-s2", "", "s2"))
	mapFunc := fieldindex.MapByName[corev1.ConfigMapList](configMaps, c, "byRef")
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "s1"}}
	var got []string
	for _, r := range mapFunc(context.Background(), secret) {
		got = append(got, r.String())
	}
	slices.Sort(got)
	if want := []string{"a/also-s1", "a/uses-s1"}; !slices.Equal(got, want) {
		t.Errorf("MapByName(a/s1) = %v, want %v", got, want)
	}
	if r := mapFunc(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "s3"}}); len(r) != 0 {
		t.Errorf("MapByName(a/s3) = %v, want nothing", r)
	}
}

func TestMapByNameWithoutSetupReportsTheMissingCall(t *testing.T) {
	reported := captureErrors(t)
	c := newClient(t, nil, configMap("a", "uses-s1", "", "s1"))
	mapFunc := fieldindex.MapByName[corev1.ConfigMapList](configMaps, c, "byRef")
	requests := mapFunc(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "s1"}})
	if len(requests) != 0 {
		t.Errorf("requests = %v, want none", requests)
	}
	if all := strings.Join(reported(), "\n"); !strings.Contains(all, "test.SetupConfigMapIndexes") {
		t.Errorf("reported %q, want the missing call named", all)
	}
}

package shard_test

import (
	"fmt"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testcluster"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/wire"
)

// TestServerSelectsTheSlotsOfEachMember creates ConfigMaps in 20
// namespaces and lists those of all namespaces with the selector of each of
// three members, by uid and by namespace, in JSON and in protobuf, whole
// and in pages of 50. Every list must echo the selector in its shardInfo
// (every page of it), hold only objects in the member's slots, and of the
// test's objects exactly those in the member's slots; the three members'
// lists must be disjoint and together hold every object of the test.
func TestServerSelectsTheSlotsOfEachMember(t *testing.T) {
	const n = 600
	namespaces := newNamespaces(t, cluster, 20)
	ours := namespaceSet(namespaces)
	created := createConfigMaps(t, newClient(t, cluster, runtime.ContentTypeJSON), namespaces, n, "cm")
	all := byKey(created)
	if len(all) != n {
		t.Fatalf("created %d distinct objects, want %d", len(all), n)
	}
	a := assignment(t)

	for _, enc := range encodings {
		cs := newClient(t, cluster, enc.contentType)
		for _, key := range keys {
			for _, limit := range []int64{0, 50} {
				t.Run(fmt.Sprintf("%s/%s/limit=%d", enc.name, key, limit), func(t *testing.T) {
					union := map[string]types.UID{}
					owner := map[string]string{} // object → the member that listed it
					maxPages := 0
					for _, m := range members {
						owned := a.SlotsOf(m)
						sel := selectorOf(t, key, owned)
						items, pages := listAll(t, cs, metav1.ListOptions{ShardSelector: sel, Limit: limit})
						maxPages = max(maxPages, len(pages))
						for i, meta := range pages {
							checkShardInfo(t, fmt.Sprintf("%s, page %d", m, i+1), meta, sel)
						}
						got := map[string]types.UID{}
						for i := range items {
							cm := &items[i]
							k := objectKey(cm)
							if s := slotOf(t, cm, key); !slices.Contains(owned, s) {
								t.Errorf("%s: listed %s, in slot %d, which the member does not own", m, k, s)
							}
							if !ours[cm.Namespace] {
								continue // another test's, or the system's
							}
							if _, dup := got[k]; dup {
								t.Errorf("%s: listed %s twice", m, k)
							}
							got[k] = cm.UID
							if other, dup := owner[k]; dup {
								t.Errorf("%s listed by both %s and %s", k, other, m)
							}
							owner[k] = m
							union[k] = cm.UID
						}
						if d := diff(got, selected(t, created, key, owned)); d != "" {
							t.Errorf("%s, selector %s: listed %s", m, sel, d)
						}
						if limit > 0 {
							for i, meta := range pages[:len(pages)-1] {
								if meta.Continue == "" {
									t.Errorf("%s: page %d of %d has no continue token", m, i+1, len(pages))
								}
							}
						}
					}
					if d := diff(union, all); d != "" {
						t.Errorf("the members together listed %s", d)
					}
					if limit > 0 && maxPages < 2 {
						t.Errorf("no member's LIST with limit %d had more than one page", limit)
					}
				})
			}
		}
		cs.checkAnswers(t)
	}
}

// TestWithoutTheGateTheServerIgnoresTheSelector starts a second cluster,
// without the ShardedListAndWatch gate, and lists with a member's selector
// (that would select only some of the objects): the server must return
// every object and no shardInfo, in JSON and in protobuf. The missing echo
// is how a client tells a server that ignored the selector.
func TestWithoutTheGateTheServerIgnoresTheSelector(t *testing.T) {
	plain := testcluster.StartForTest(t, testcluster.Options{})
	ns := plain.NewNamespace(t)
	created := createConfigMaps(t, newClient(t, plain, runtime.ContentTypeJSON), []string{ns}, 50, "cm")
	all := byKey(created)
	owned := assignment(t).SlotsOf(members[0])
	sel := selectorOf(t, shard.ByUID, owned)
	if len(selected(t, created, shard.ByUID, owned)) == len(created) {
		t.Fatalf("the selector %s selects every object; the test needs one that does not", sel)
	}

	for _, enc := range encodings {
		cs := newClient(t, plain, enc.contentType)
		list, err := cs.CoreV1().ConfigMaps(ns).List(t.Context(), metav1.ListOptions{ShardSelector: sel})
		if err != nil {
			t.Fatalf("%s: LIST with selector %s: %v", enc.name, sel, err)
		}
		if list.ShardInfo != nil {
			t.Errorf("%s: a server without the gate echoed shardInfo %+v", enc.name, *list.ShardInfo)
		}
		got := map[string]types.UID{}
		for i := range list.Items {
			got[objectKey(&list.Items[i])] = list.Items[i].UID
		}
		if d := diff(got, all); d != "" {
			t.Errorf("%s: a server without the gate listed %s", enc.name, d)
		}
		cs.checkAnswers(t)
	}
}

// TestRuntimeDecoderKeepsShardInfo lists with a member's selector through
// the runtime's own LIST (wire.NewList, what the generated informers list
// with), answered in protobuf and, with the Accept header narrowed to JSON,
// in JSON. The runtime must decode the answer itself (into an
// *wire.ItemList), keep the echoed selector in its shardInfo, and return
// exactly the objects the typed client's LIST with the same selector and
// content type returns, field for field.
func TestRuntimeDecoderKeepsShardInfo(t *testing.T) {
	namespaces := newNamespaces(t, cluster, 3)
	created := createConfigMaps(t, newClient(t, cluster, runtime.ContentTypeJSON), namespaces, 90, "cm")
	ours := namespaceSet(namespaces)
	a := assignment(t)

	for _, enc := range encodings {
		t.Run(enc.name, func(t *testing.T) {
			typed := newClient(t, cluster, enc.contentType)

			// The runtime's client: the typed client's configuration, whose
			// LIST requests ask for enc's content type only.
			config := cluster.Config()
			config.QPS, config.Burst = 1000, 2000
			var mu sync.Mutex
			answers := map[string]int{} // Content-Type of the LIST answers
			config.Wrap(func(rt http.RoundTripper) http.RoundTripper {
				return roundTripper(func(req *http.Request) (*http.Response, error) {
					if req.Method == http.MethodGet && enc.contentType == runtime.ContentTypeJSON {
						req = req.Clone(req.Context())
						req.Header.Set("Accept", runtime.ContentTypeJSON)
					}
					resp, err := rt.RoundTrip(req)
					if err == nil && req.Method == http.MethodGet {
						mu.Lock()
						answers[resp.Header.Get("Content-Type")]++
						mu.Unlock()
					}
					return resp, err
				})
			})
			cs := kubernetes.NewForConfigOrDie(config)
			list := wire.NewList[*corev1.ConfigMap](cs.CoreV1().RESTClient(), "", "configmaps", cs.CoreV1().ConfigMaps("").List)
			if list == nil {
				t.Fatal("wire.NewList returned nil for the ConfigMaps of a real clientset")
			}

			for _, key := range keys {
				for _, m := range members {
					owned := a.SlotsOf(m)
					sel := selectorOf(t, key, owned)
					opts := metav1.ListOptions{ShardSelector: sel}
					obj, err := list(t.Context(), opts)
					if err != nil {
						t.Fatalf("%s %s: runtime LIST: %v", key, m, err)
					}
					got, ok := obj.(*wire.ItemList[*corev1.ConfigMap])
					if !ok {
						t.Fatalf("%s %s: the runtime's LIST returned a %T, not the *wire.ItemList it decodes itself", key, m, obj)
					}
					checkShardInfo(t, fmt.Sprintf("%s %s: runtime LIST", key, m), got.ListMeta, sel)

					want, err := typed.CoreV1().ConfigMaps("").List(t.Context(), opts)
					if err != nil {
						t.Fatalf("%s %s: typed LIST: %v", key, m, err)
					}
					checkShardInfo(t, fmt.Sprintf("%s %s: typed LIST", key, m), want.ListMeta, sel)
					if len(got.Items) != len(want.Items) {
						t.Errorf("%s %s: the runtime listed %d objects, the typed client %d", key, m, len(got.Items), len(want.Items))
						continue
					}
					mine := map[string]types.UID{}
					for i, cm := range got.Items {
						if !reflect.DeepEqual(cm, &want.Items[i]) {
							t.Errorf("%s %s: item %d differs: the runtime decoded %s, the typed client %s", key, m, i, objectKey(cm), objectKey(&want.Items[i]))
						}
						if ours[cm.Namespace] {
							mine[objectKey(cm)] = cm.UID
						}
					}
					if d := diff(mine, selected(t, created, key, owned)); d != "" {
						t.Errorf("%s %s: the runtime listed %s", key, m, d)
					}
				}
			}

			mu.Lock()
			defer mu.Unlock()
			for contentType := range answers {
				if !sameMediaType(contentType, enc.contentType) {
					t.Errorf("the runtime's LISTs were answered with Content-Type %q, want %s only (all: %v)", contentType, enc.contentType, answers)
				}
			}
			if len(answers) == 0 {
				t.Error("the runtime sent no LIST")
			}
			typed.checkAnswers(t)
		})
	}
}

// sameMediaType tells whether the Content-Type header value has the media
// type mediaType.
func sameMediaType(contentType, mediaType string) bool {
	got, _, err := mime.ParseMediaType(contentType)
	return err == nil && got == mediaType
}

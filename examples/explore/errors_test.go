package explore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	fakedynamic "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/informer-gen-plus/informer-gen-plus/examples/explore"
)

// Bad input is an error that says what is wrong and what is accepted,
// never a panic, and Run stops what it started.
func TestBadInput(t *testing.T) {
	deployments := func(indexes []string, lookups ...string) explore.Options {
		return explore.Options{SkipDiscovery: true, Resource: "deployments.v1.apps", Indexes: indexes, Lookups: lookups}
	}
	byImage := []string{"byImage: field: spec.template.spec.containers[*].image"}
	composite := []string{`byImageTeam: field: "spec.template.spec.containers[*].image, metadata.labels.team"`}
	for name, c := range map[string]struct {
		opts explore.Options
		want []string
	}{
		"bare path": {deployments([]string{"byImage: spec.template.spec.containers[*].image"}),
			[]string{`names no source; want NAME: SOURCE: VALUE`, `did you mean "byImage: field: spec.template.spec.containers[*].image"?`}},
		"source with =": {deployments([]string{"byColor: field=spec.color"}),
			[]string{`did you mean "byColor: field: spec.color"?`}},
		"bad path": {deployments([]string{"byImage: field: spec.containers[0].image"}),
			[]string{`--index "byImage: field: spec.containers[0].image"`, "spec.containers[0].image"}},
		"unknown source": {deployments([]string{"byImage: path: spec.x"}),
			[]string{`unknown source "path"; the sources are field, label, annotation and owner`}},
		"no name": {deployments([]string{": field: spec.x"}),
			[]string{"want NAME: SOURCE: VALUE"}},
		"name not an identifier": {deployments([]string{"by-image: field: spec.x"}),
			[]string{`the index name "by-image" is not a Go identifier`}},
		"owner without group": {deployments([]string{"byShop: owner: Shop"}),
			[]string{`owner "Shop" names no API group; write group/Kind`}},
		"index twice": {deployments(append(byImage, byImage...)),
			[]string{"index byImage is declared already"}},
		"index named namespace": {deployments([]string{"namespace: field: metadata.namespace"}),
			[]string{"index namespace is declared already"}},
		"lookup without =": {deployments(byImage, "byImage"),
			[]string{`--lookup "byImage": want INDEX=VALUE`}},
		"lookup of an undeclared index": {deployments(byImage, "byColor=red"),
			[]string{`--lookup "byColor=red": no index byColor; declare it with --index`, "(the indexes: namespace, byImage)"}},
		"composite lookup with one value": {deployments(composite, "byImageTeam=nginx:1.29"),
			[]string{"index byImageTeam has a composite key of 2 paths", "got 1"}},
		"composite lookup with three values": {deployments(composite, "byImageTeam=a,b,c"),
			[]string{"got 3"}},
		"composite lookup with a bad quote": {deployments(composite, `byImageTeam="a,b`),
			[]string{"not a comma-separated list"}},
		"index without resource": {explore.Options{Indexes: byImage},
			[]string{"need --resource"}},
		"negative timeout": {explore.Options{Timeout: -1},
			[]string{"--timeout -1ns is negative"}},
		"unknown resource": {explore.Options{SkipDiscovery: true, Resource: "nosuch.v1.apps"},
			[]string{`--resource "nosuch.v1.apps": discovery does not list it; the forms are resource.version.group`}},
		"unknown version": {explore.Options{SkipDiscovery: true, Resource: "deployments.v2.apps"},
			[]string{"served under that name: deployments.v1.apps, deployments.v1.shop.example.dev"}},
		"ambiguous resource": {explore.Options{SkipDiscovery: true, Resource: "deployments"},
			[]string{"several groups serve it: deployments.v1.apps, deployments.v1.shop.example.dev"}},
		"empty resource part": {explore.Options{SkipDiscovery: true, Resource: ".v1.apps"},
			[]string{`--resource ".v1.apps": want resource.version.group`}},
		"cluster-scoped in a namespace": {explore.Options{SkipDiscovery: true, Resource: "shops.v1.shop.example.dev", Namespace: "lab"},
			[]string{"--namespace lab: shops.v1.shop.example.dev is cluster-scoped"}},
		// The factory's discovery tracker, not a wait for a sync that cannot
		// come, says the resource cannot be listed and watched.
		"resource without list and watch": {explore.Options{SkipDiscovery: true, Resource: "bindings.v1"},
			[]string{"the informer of bindings.v1 did not start", "not served by the server", "without list and watch"}},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := run(t, c.opts)
			if err == nil {
				t.Fatalf("no error; printed\n%s", out)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// A bad option fails before any client is needed: Run reports it even
// without clients or a kubeconfig.
func TestBadOptionsNeedNoServer(t *testing.T) {
	var out strings.Builder
	err := explore.Run(t.Context(), explore.Options{Kubeconfig: "does-not-exist", Resource: "x", Lookups: []string{"bad"}}, &out)
	if err == nil || !strings.Contains(err.Error(), `--lookup "bad"`) {
		t.Errorf("got %v, want the --lookup error", err)
	}
}

// A kubeconfig that cannot be read is an error naming it.
func TestMissingKubeconfig(t *testing.T) {
	var out strings.Builder
	err := explore.Run(t.Context(), explore.Options{Kubeconfig: "does-not-exist"}, &out)
	if err == nil || !strings.Contains(err.Error(), "does-not-exist") {
		t.Errorf("got %v, want an error naming the kubeconfig", err)
	}
}

// An informer that cannot list does not sync: Run reports where it is and
// why the wait ended (here the caller's context, cancelled once the list
// has failed) instead of waiting on.
func TestUnsyncedInformerIsReported(t *testing.T) {
	clients := fakeClients()
	ctx, cancel := context.WithCancelCause(t.Context())
	defer cancel(nil)
	clients.Dynamic.(*fakedynamic.FakeDynamicClient).PrependReactor("list", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		cancel(errors.New("the caller gave up"))
		return true, nil, errors.New("the list failed")
	})
	var out strings.Builder
	err := explore.Run(ctx, explore.Options{SkipDiscovery: true, Resource: "deployments.v1.apps", Clients: clients}, &out)
	if err == nil {
		t.Fatalf("no error; printed\n%s", out.String())
	}
	for _, w := range []string{"the caller gave up", "the informer of deployments.v1.apps did not sync: deployments.v1.apps: Syncing"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
}

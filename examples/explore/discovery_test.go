package explore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	fakediscovery "k8s.io/client-go/discovery/fake"

	"github.com/informer-gen-plus/informer-gen-plus/examples/explore"
)

// The table has one row per resource (subresources left out), the core
// group first and the groups by name, each group's preferred version first
// and marked when the group serves several, the resources by name.
func TestDiscoveryTable(t *testing.T) {
	got, err := run(t, explore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `discovery: 3 groups, 4 versions, 9 resources
GROUP             VERSION  RESOURCE     KIND        NAMESPACED  VERBS
core              v1       bindings     Binding     true        create
core              v1       configmaps   ConfigMap   true        create,get,list,watch
core              v1       namespaces   Namespace   false       get,list,watch
core              v1       pods         Pod         true        get,list,watch
apps              v1       deployments  Deployment  true        get,list,watch
shop.example.dev  v1*      deployments  Deployment  true        get,list,watch
shop.example.dev  v1*      shops        Shop        false       get,list,watch
shop.example.dev  v1*      widgets      Widget      true        get,list,watch
shop.example.dev  v2beta1  widgets      Widget      true        get,list,watch
* the group's preferred version
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// --group limits the table to the groups it names, "core" the core group.
func TestDiscoveryTableOfSomeGroups(t *testing.T) {
	got, err := run(t, explore.Options{Groups: []string{"core,apps"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `discovery: 2 groups, 2 versions, 5 resources (of core, apps)
GROUP  VERSION  RESOURCE     KIND        NAMESPACED  VERBS
core   v1       bindings     Binding     true        create
core   v1       configmaps   ConfigMap   true        create,get,list,watch
core   v1       namespaces   Namespace   false       get,list,watch
core   v1       pods         Pod         true        get,list,watch
apps   v1       deployments  Deployment  true        get,list,watch
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// failingDiscovery is the fake discovery, except that listing the
// resources of one group version fails.
type failingDiscovery struct {
	*fakediscovery.FakeDiscovery
	groupVersion string
}

func (d failingDiscovery) ServerResourcesForGroupVersionWithContext(ctx context.Context, gv string) (*metav1.APIResourceList, error) {
	if gv == d.groupVersion {
		return nil, errors.New("the aggregated server is down")
	}
	return d.FakeDiscovery.ServerResourcesForGroupVersionWithContext(ctx, gv)
}

// A group version discovery cannot list is reported under the table, and
// the others are listed and usable, as kubectl does.
func TestPartialDiscovery(t *testing.T) {
	clients := fakeClients(deployment("shop", "web", "", "nginx:1.29"))
	clients.Discovery = failingDiscovery{clients.Discovery.(*fakediscovery.FakeDiscovery), "shop.example.dev/v2beta1"}
	var out strings.Builder
	err := explore.Run(t.Context(), explore.Options{Groups: []string{"shop.example.dev"}, Resource: "deployments.v1.apps", Clients: clients}, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := `discovery: 1 group, 2 versions, 3 resources (of shop.example.dev)
GROUP             VERSION  RESOURCE     KIND        NAMESPACED  VERBS
shop.example.dev  v1*      deployments  Deployment  true        get,list,watch
shop.example.dev  v1*      shops        Shop        false       get,list,watch
shop.example.dev  v1*      widgets      Widget      true        get,list,watch
* the group's preferred version
discovery failed for shop.example.dev/v2beta1: the aggregated server is down

resource deployments.v1.apps`
	if !strings.HasPrefix(out.String(), want) || !strings.HasSuffix(out.String(), "objects in the cache: 1\n") {
		t.Errorf("got\n%s\nwant it to start with\n%s", out.String(), want)
	}

	err = explore.Run(t.Context(), explore.Options{SkipDiscovery: true, Resource: "widgets.v2beta1.shop.example.dev", Clients: clients}, &out)
	if err == nil || !strings.Contains(err.Error(), "discovery does not list it (discovery failed for 1 group version); served under that name: widgets.v1.shop.example.dev") {
		t.Errorf("got %v, want an error saying discovery failed for a group version", err)
	}
}

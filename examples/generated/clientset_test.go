// Package generated_test exercises the checked-in output of
// hack/update-codegen.sh for examples/apis: the fake clientset serves the
// example kinds (create, get, list, watch), the scheme knows them, and
// their generated DeepCopy functions copy deeply.
package generated_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	fleetv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/fleet/v1"
	fleetv2beta1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/fleet/v2beta1"
	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	shopv1alpha1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1alpha1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned/fake"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned/scheme"
	fleetclientv1 "github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned/typed/fleet/v1"
	fleetclientv2beta1 "github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned/typed/fleet/v2beta1"
)

// The fake clientset implements the real one's interface.
var _ versioned.Interface = (*fake.Clientset)(nil)

// newWidget returns a Widget with every kind of field set: embedded struct,
// pointers, slices, maps, owner references. Each call builds new memory, so
// two calls give equal but independent Widgets.
func newWidget(ns, name string) *shopv1.Widget {
	return &shopv1.Widget{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:   ns,
			Name:        name,
			Labels:      map[string]string{shopv1.TeamLabel: "blue", shopv1.ZoneLabel: "eu-1a"},
			Annotations: map[string]string{shopv1.OwnerTeamAnnotation: "pager-blue"},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: shopv1.SchemeGroupVersion.String(),
				Kind:       "Shop",
				Name:       "main-street",
				UID:        "shop-uid",
				Controller: ptr.To(true),
			}},
		},
		Spec: shopv1.WidgetSpec{
			WidgetIdentity: shopv1.WidgetIdentity{SKU: "W-1", Revision: 3},
			Color:          "red",
			Size:           7,
			Nickname:       ptr.To("reddy"),
			ConfigRef:      "widget-config",
			Placement:      &shopv1.Placement{Zone: "eu-1a", AlternateZones: []string{"eu-1b"}},
			Containers: []shopv1.WidgetContainer{
				{Name: "main", Image: "example.dev/widget:1"},
				{Name: "sidecar", Image: "example.dev/proxy:2"},
			},
			Tags: map[string]string{"tier": "gold"},
		},
		Status: shopv1.WidgetStatus{
			Phase: shopv1.WidgetReady,
			Conditions: []metav1.Condition{{
				Type: "Ready", Status: metav1.ConditionTrue, Reason: "Assembled",
				LastTransitionTime: metav1.NewTime(time.Unix(1700000000, 0).UTC()),
			}},
		},
	}
}

func newShop(name string) *shopv1.Shop {
	return &shopv1.Shop{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"shop.example.dev/tier": "flagship"}},
		Spec:       shopv1.ShopSpec{DisplayName: "Main Street", Region: "eu", Open: true},
	}
}

// nextEvent waits for the next event of w.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for a watch event")
	}
	panic("unreachable")
}

func TestSchemeKnowsKinds(t *testing.T) {
	for _, tc := range []struct {
		obj  runtime.Object
		want schema.GroupVersionKind
	}{
		{&shopv1.Widget{}, shopv1.SchemeGroupVersion.WithKind("Widget")},
		{&shopv1.ShopList{}, shopv1.SchemeGroupVersion.WithKind("ShopList")},
		{&shopv1alpha1.Widget{}, shopv1alpha1.SchemeGroupVersion.WithKind("Widget")},
		{&fleetv1.Vehicle{}, fleetv1.SchemeGroupVersion.WithKind("Vehicle")},
		{&fleetv1.Route{}, fleetv1.SchemeGroupVersion.WithKind("Route")},
		{&fleetv2beta1.Depot{}, fleetv2beta1.SchemeGroupVersion.WithKind("Depot")},
		{&fleetv2beta1.Beacon{}, fleetv2beta1.SchemeGroupVersion.WithKind("Beacon")},
	} {
		gvks, _, err := scheme.Scheme.ObjectKinds(tc.obj)
		if err != nil {
			t.Errorf("%T: %v", tc.obj, err)
			continue
		}
		if len(gvks) != 1 || gvks[0] != tc.want {
			t.Errorf("%T: kinds %v, want %v", tc.obj, gvks, tc.want)
		}
	}
	if got, want := shopv1.Resource("widgets"), (schema.GroupResource{Group: "shop.example.dev", Resource: "widgets"}); got != want {
		t.Errorf("Resource() = %v, want %v", got, want)
	}
	if got, want := fleetv1.Kind("Depot"), (schema.GroupKind{Group: "fleet.example.dev", Kind: "Depot"}); got != want {
		t.Errorf("Kind() = %v, want %v", got, want)
	}
}

func TestFakeClientsetWidget(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewSimpleClientset()
	widgets := cs.ShopV1().Widgets("shop-a")

	w, err := widgets.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	defer w.Stop()

	in := newWidget("shop-a", "w1")
	created, err := widgets.Create(ctx, in, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if !equality.Semantic.DeepEqual(created.Spec, newWidget("", "").Spec) {
		t.Fatalf("Create returned spec %+v", created.Spec)
	}
	if _, err := widgets.Create(ctx, newWidget("shop-a", "w1"), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Fatalf("second Create: err = %v, want AlreadyExists", err)
	}

	ev := nextEvent(t, w)
	if ev.Type != watch.Added {
		t.Fatalf("event %v, want ADDED", ev.Type)
	}
	if got, ok := ev.Object.(*shopv1.Widget); !ok || got.Name != "w1" || got.Spec.Color != "red" {
		t.Fatalf("ADDED object %#v", ev.Object)
	}

	got, err := widgets.Get(ctx, "w1", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if !equality.Semantic.DeepEqual(got.Spec, in.Spec) || got.Labels[shopv1.TeamLabel] != "blue" ||
		*got.Spec.Nickname != "reddy" || got.Spec.SKU != "W-1" {
		t.Fatalf("Get returned %+v", got)
	}
	// What the client returns is the caller's: changing it changes nothing
	// stored.
	got.Spec.Containers[0].Image = "mutated"
	*got.Spec.Nickname = "mutated"
	if again, _ := widgets.Get(ctx, "w1", metav1.GetOptions{}); again.Spec.Containers[0].Image != "example.dev/widget:1" ||
		*again.Spec.Nickname != "reddy" {
		t.Fatalf("mutating a returned Widget changed the stored one: %+v", again.Spec)
	}

	if _, err := widgets.Get(ctx, "absent", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("Get(absent): err = %v, want NotFound", err)
	}
	if _, err := cs.ShopV1().Widgets("shop-b").Create(ctx, newWidget("shop-b", "w2"), metav1.CreateOptions{}); err != nil {
		t.Fatalf("Create in shop-b: %v", err)
	}

	list, err := widgets.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(list.Items) != 1 || list.Items[0].Name != "w1" {
		t.Fatalf("List(shop-a) = %v items, want just w1", len(list.Items))
	}
	all, err := cs.ShopV1().Widgets(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil || len(all.Items) != 2 {
		t.Fatalf("List(all) = %v items, %v; want 2", len(all.Items), err)
	}

	upd := got.DeepCopy()
	upd.Spec.Containers[0].Image = "example.dev/widget:2"
	upd.Spec.Nickname = ptr.To("reddy")
	if _, err := widgets.Update(ctx, upd, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("Update: %v", err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Modified || ev.Object.(*shopv1.Widget).Spec.Containers[0].Image != "example.dev/widget:2" {
		t.Fatalf("event %v %#v, want MODIFIED with the new image", ev.Type, ev.Object)
	}
	upd.Status.Phase = shopv1.WidgetFailed
	if st, err := widgets.UpdateStatus(ctx, upd, metav1.UpdateOptions{}); err != nil || st.Status.Phase != shopv1.WidgetFailed {
		t.Fatalf("UpdateStatus: %v, %v", st, err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Modified {
		t.Fatalf("event %v, want MODIFIED", ev.Type)
	}

	if err := widgets.Delete(ctx, "w1", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Deleted || ev.Object.(*shopv1.Widget).Name != "w1" {
		t.Fatalf("event %v %#v, want DELETED w1", ev.Type, ev.Object)
	}
}

func TestFakeClientsetShop(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewSimpleClientset(newShop("preloaded"))
	shops := cs.ShopV1().Shops() // cluster scoped: no namespace argument

	// A watch without a resource version starts with the current state.
	w0, err := shops.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	ev := nextEvent(t, w0)
	w0.Stop()
	if s, ok := ev.Object.(*shopv1.Shop); ev.Type != watch.Added || !ok || s.Name != "preloaded" {
		t.Fatalf("first event %v %#v, want ADDED preloaded", ev.Type, ev.Object)
	}

	// List, then watch from the list's resource version, as a reflector
	// does: only later changes arrive.
	initial, err := shops.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(initial.Items) != 1 || initial.ResourceVersion == "" {
		t.Fatalf("List = %d items at resourceVersion %q, want the preloaded Shop", len(initial.Items), initial.ResourceVersion)
	}
	w, err := shops.Watch(ctx, metav1.ListOptions{ResourceVersion: initial.ResourceVersion})
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	defer w.Stop()

	if _, err := shops.Create(ctx, newShop("main-street"), metav1.CreateOptions{}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	ev = nextEvent(t, w)
	if s, ok := ev.Object.(*shopv1.Shop); ev.Type != watch.Added || !ok || s.Name != "main-street" {
		t.Fatalf("event %v %#v, want ADDED main-street", ev.Type, ev.Object)
	}
	got, err := shops.Get(ctx, "main-street", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if got.Namespace != "" || got.Spec.Region != "eu" || !got.Spec.Open {
		t.Fatalf("Get returned %+v", got)
	}
	list, err := shops.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	names := map[string]bool{}
	for _, s := range list.Items {
		names[s.Name] = true
	}
	if len(list.Items) != 2 || !names["preloaded"] || !names["main-street"] {
		t.Fatalf("List = %v, want preloaded and main-street", names)
	}
	got.Status.WidgetCount = 4
	if _, err := shops.UpdateStatus(ctx, got, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("UpdateStatus: %v", err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Modified || ev.Object.(*shopv1.Shop).Status.WidgetCount != 4 {
		t.Fatalf("event %v %#v, want MODIFIED with widgetCount 4", ev.Type, ev.Object)
	}
	if err := shops.Delete(ctx, "main-street", metav1.DeleteOptions{}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if ev := nextEvent(t, w); ev.Type != watch.Deleted {
		t.Fatalf("event %v, want DELETED", ev.Type)
	}
}

// TestFakeClientsetFleet checks the group with +groupGoName (FleetExample)
// and the kinds that opt out of verbs.
func TestFakeClientsetFleet(t *testing.T) {
	ctx := context.Background()
	cs := fake.NewSimpleClientset()

	depot := &fleetv1.Depot{ObjectMeta: metav1.ObjectMeta{Name: "north", UID: "depot-uid"}, Spec: fleetv1.DepotSpec{Region: "north"}}
	if _, err := cs.FleetExampleV1().Depots().Create(ctx, depot, metav1.CreateOptions{}); err != nil {
		t.Fatalf("Create depot: %v", err)
	}
	v := &fleetv1.Vehicle{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "fleet", Name: "bus-1",
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(depot, fleetv1.SchemeGroupVersion.WithKind("Depot"))},
		},
		Spec:   fleetv1.VehicleSpec{Model: "bus", Autonomous: true, Driver: &fleetv1.DriverRef{Name: "ada"}},
		Status: fleetv1.VehicleStatus{Phase: fleetv1.VehicleDriving, NodeName: "node-1"},
	}
	if _, err := cs.FleetExampleV1().Vehicles("fleet").Create(ctx, v, metav1.CreateOptions{}); err != nil {
		t.Fatalf("Create vehicle: %v", err)
	}
	got, err := cs.FleetExampleV1().Vehicles("fleet").Get(ctx, "bus-1", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("Get vehicle: %v", err)
	}
	if ref := metav1.GetControllerOf(got); ref == nil || ref.Kind != "Depot" || ref.Name != "north" {
		t.Fatalf("controller of vehicle = %+v, want Depot north", ref)
	}

	// +genclient:skipVerbs=watch: a Trip client lists but cannot watch.
	var trips fleetclientv1.TripInterface = cs.FleetExampleV1().Trips("fleet")
	if _, err := trips.List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatalf("List trips: %v", err)
	}
	tripIface := reflect.TypeFor[fleetclientv1.TripInterface]()
	if _, ok := tripIface.MethodByName("Watch"); ok {
		t.Error("TripInterface has Watch despite +genclient:skipVerbs=watch")
	}
	if _, ok := tripIface.MethodByName("List"); !ok {
		t.Error("TripInterface has no List")
	}
	// +genclient:noVerbs: a Beacon client has no verbs at all.
	var beacons fleetclientv2beta1.BeaconInterface = cs.FleetExampleV2beta1().Beacons("fleet")
	if n := reflect.TypeFor[fleetclientv2beta1.BeaconInterface]().NumMethod(); n != 0 {
		t.Errorf("BeaconInterface has %d methods despite +genclient:noVerbs", n)
	}
	_ = beacons
}

// TestDeepCopyIndependence checks that the generated DeepCopy shares no
// memory with its source: changing every reachable part of the copy
// leaves the original as it was built.
func TestDeepCopyIndependence(t *testing.T) {
	orig := newWidget("ns", "w")
	cp := orig.DeepCopy()
	if cp == orig || !reflect.DeepEqual(cp, orig) {
		t.Fatal("DeepCopy is not an equal, distinct Widget")
	}

	cp.Labels[shopv1.TeamLabel] = "x"
	cp.Annotations[shopv1.OwnerTeamAnnotation] = "x"
	*cp.OwnerReferences[0].Controller = false
	cp.OwnerReferences[0].Name = "x"
	cp.Spec.SKU = "x"
	*cp.Spec.Nickname = "x"
	cp.Spec.Placement.Zone = "x"
	cp.Spec.Placement.AlternateZones[0] = "x"
	cp.Spec.Containers[0].Image = "x"
	cp.Spec.Tags["tier"] = "x"
	cp.Status.Conditions[0].Reason = "x"
	cp.Status.Phase = shopv1.WidgetFailed

	if want := newWidget("ns", "w"); !reflect.DeepEqual(orig, want) {
		t.Fatalf("changing the copy changed the original:\n got %+v\nwant %+v", orig, want)
	}

	// DeepCopyObject returns the same type, as deep.
	obj := orig.DeepCopyObject()
	if w, ok := obj.(*shopv1.Widget); !ok || !reflect.DeepEqual(w, orig) {
		t.Fatalf("DeepCopyObject returned %T", obj)
	}

	// Lists copy their items deeply too.
	list := &shopv1.WidgetList{Items: []shopv1.Widget{*newWidget("ns", "a")}}
	lcp := list.DeepCopyObject().(*shopv1.WidgetList)
	lcp.Items[0].Spec.Containers[0].Image = "x"
	*lcp.Items[0].Spec.Nickname = "x"
	if !reflect.DeepEqual(list.Items[0], *newWidget("ns", "a")) {
		t.Fatal("changing a copied list changed the original")
	}

	// Nil stays nil.
	var nilWidget *shopv1.Widget
	if nilWidget.DeepCopy() != nil {
		t.Fatal("DeepCopy of nil is not nil")
	}

	// A v2beta1 Depot: a pointer to a struct, and a *bool in a Vehicle.
	d := &fleetv2beta1.Depot{Spec: fleetv2beta1.DepotSpec{Location: &fleetv2beta1.Location{Region: "north"}}}
	dcp := d.DeepCopy()
	dcp.Spec.Location.Region = "x"
	if d.Spec.Location.Region != "north" {
		t.Fatal("Depot copy shares its Location")
	}
	veh := &fleetv2beta1.Vehicle{Spec: fleetv2beta1.VehicleSpec{Electric: ptr.To(true), Drivers: []fleetv2beta1.DriverRef{{Name: "ada"}}}}
	vcp := veh.DeepCopy()
	*vcp.Spec.Electric = false
	vcp.Spec.Drivers[0].Name = "x"
	if !*veh.Spec.Electric || veh.Spec.Drivers[0].Name != "ada" {
		t.Fatal("Vehicle copy shares its Electric flag or Drivers")
	}
}

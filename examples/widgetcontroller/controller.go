package widgetcontroller

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"

	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	shopcontrollers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/controllers/shop/v1"
	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/informers/externalversions"
	kubeinformers "github.com/informer-gen-plus/informer-gen-plus/examples/generated/kube/informers/externalversions"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/controller"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

// Name is the default name of the controller, in logs and metrics, and the
// value of the managed-by annotation of the ConfigMaps it writes.
const Name = "widget-controller"

// Clients are the API clients the controller writes through.
type Clients struct {
	// Shop writes Widget status.
	Shop versioned.Interface
	// Kube writes ConfigMaps.
	Kube kubernetes.Interface
}

// New returns the Widget controller over the informers of two factories:
// shop's for Widgets and kube's for ConfigMaps. Start the factories after New
// (it requests their informers), then Run the controller.
func New(clients Clients, shop externalversions.SharedInformerFactory, kube kubeinformers.SharedInformerFactory, opts controller.Options) (*controller.Controller[*shopv1.Widget], error) {
	if opts.Name == "" {
		opts.Name = Name
	}
	widgets := shop.Shop().V1().Widgets().Lister()
	configMaps := kube.Core().V1().ConfigMaps()
	r := &Reconciler{Clients: clients, Widgets: widgets, ConfigMaps: configMaps.Lister()}
	c, err := shopcontrollers.NewWidgetController(shop, r, opts)
	if err != nil {
		return nil, err
	}
	// The ConfigMaps the Widgets own: restore them when someone else
	// changes or deletes them.
	if err := controller.WatchOwned(c, configMaps.TypedInformer()); err != nil {
		return nil, err
	}
	// The ConfigMaps the Widgets refer to: re-render the Widgets that
	// spec.configRef points at a ConfigMap that changed.
	referrers := controller.MapByLookup(func(cm *corev1.ConfigMap) ([]*shopv1.Widget, error) {
		return widgets.Widgets(cm.Namespace).ByConfigRef(cm.Name)
	})
	if err := controller.Watch(c, configMaps.TypedInformer(), referrers); err != nil {
		return nil, err
	}
	return c, nil
}

// Run runs the Widget controller until ctx ends, on new informer factories
// over clients (limited to namespace unless it is empty, resyncing every
// resync): it builds the controller, starts the factories, runs it, and
// returns once the controller and every informer have stopped. It returns
// the controller's error.
//
// When opts.Shard is a ring member (*shard.Ring), the replica reconciles
// its share of the Widgets only, and its Widget informer caches only that
// share (the ring's Scope on opts.ShardKey). ConfigMaps are cached whole:
// a Widget's ConfigMaps are found by owner, whose uid places them in no
// particular share. With opts.Registerer, the number of Widgets cached is
// exported as widget_controller_cached_widgets.
func Run(ctx context.Context, clients Clients, namespace string, resync time.Duration, opts controller.Options) error {
	shopOptions := []externalversions.SharedInformerOption{externalversions.WithNamespace(namespace)}
	if ring, ok := opts.Shard.(*shard.Ring); ok {
		key := opts.ShardKey
		if key == "" {
			key = shard.ByUID
		}
		shopOptions = append(shopOptions, externalversions.WithShardScope(ring.Scope(key)))
	}
	shop := externalversions.NewSharedInformerFactoryWithOptions(clients.Shop, resync, shopOptions...)
	kube := kubeinformers.NewSharedInformerFactoryWithOptions(clients.Kube, resync, kubeinformers.WithNamespace(namespace))
	c, err := New(clients, shop, kube, opts)
	if err != nil {
		return err
	}
	if opts.Registerer != nil {
		// What this replica caches: its share of the Widgets when sharded.
		store := shop.Shop().V1().Widgets().Informer().GetStore()
		cached := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "widget_controller_cached_widgets",
			Help: "Widgets in this replica's cache (its share, with --shards).",
		}, func() float64 { return float64(len(store.ListKeys())) })
		if err := opts.Registerer.Register(cached); err != nil {
			return err
		}
		defer opts.Registerer.Unregister(cached)
	}
	shop.StartWithContext(ctx)
	kube.StartWithContext(ctx)
	defer shop.Shutdown()
	defer kube.Shutdown()
	return c.Run(ctx)
}

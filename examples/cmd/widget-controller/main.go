// Command widget-controller runs the example Widget operator of package
// widgetcontroller against a cluster: for every Widget it keeps a rendered
// ConfigMap and the Widget's status up to date.
//
//	widget-controller --kubeconfig ~/.kube/config [--namespace NS] [--workers N] [--metrics-bind-address 127.0.0.1:8080]
//	                  [--leader-elect --leader-elect-namespace NS]
//	                  [--shards --shard-namespace NS --shard-key uid|namespace]
//
// Without --kubeconfig it uses $KUBECONFIG, then the in-cluster
// configuration, as kubectl does. It serves Prometheus metrics on
// /metrics and stops gracefully on SIGINT or SIGTERM.
//
// With --leader-elect, replicas share the work through client-go's leader
// election on a Lease (widget-controller in --leader-elect-namespace): only
// the holder reconciles. A replica that stops releases the Lease, so another
// takes over at once; a replica that loses it exits with an error, to be
// restarted as a follower.
//
// With --shards, replicas share the Widgets instead: each holds a Lease in
// the ring widget-controller (in --shard-namespace), and reconciles and
// caches only the Widgets of the slots the ring gives it (runtime/shard),
// by uid or by namespace (--shard-key). Adding a replica moves about 1/N
// of the slots to it; a replica that stops hands its slots over at once,
// one that dies when its Lease expires. The server selects each replica's
// Widgets when its ShardedListAndWatch feature is on; otherwise every
// replica lists them all and keeps its share (a log line says which).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	"github.com/informer-gen-plus/informer-gen-plus/examples/widgetcontroller"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/controller"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/shard"
)

func main() {
	klog.InitFlags(nil)
	var (
		kubeconfig  = flag.String("kubeconfig", "", "path to a kubeconfig file; defaults to $KUBECONFIG, then the in-cluster configuration")
		namespace   = flag.String("namespace", "", "watch only this namespace (default: all)")
		workers     = flag.Int("workers", 2, "Widgets reconciled concurrently")
		metricsAddr = flag.String("metrics-bind-address", "127.0.0.1:8080", `address of the /metrics endpoint ("0" disables it)`)
		resync      = flag.Duration("resync", 10*time.Minute, "resync period of the informers (0 disables resync)")
		election    leaderElection
	)
	flag.BoolVar(&election.enabled, "leader-elect", false, "run as one of several replicas: reconcile only while holding the Lease")
	flag.StringVar(&election.namespace, "leader-elect-namespace", "default", "namespace of the Lease")
	flag.StringVar(&election.identity, "leader-elect-id", "", "this replica's identity in the Lease (default: hostname and a random suffix)")
	flag.DurationVar(&election.leaseDuration, "leader-elect-lease-duration", 15*time.Second, "how long followers wait before taking over a Lease that is not renewed")
	flag.DurationVar(&election.renewDeadline, "leader-elect-renew-deadline", 10*time.Second, "how long the leader keeps trying to renew before it gives up")
	flag.DurationVar(&election.retryPeriod, "leader-elect-retry-period", 2*time.Second, "how often to try to acquire or renew the Lease")
	var sharding shardRing
	flag.BoolVar(&sharding.enabled, "shards", false, "run as one of several replicas that share the Widgets: reconcile and cache only this replica's share")
	flag.StringVar(&sharding.namespace, "shard-namespace", "default", "namespace of the ring's Leases")
	flag.StringVar(&sharding.identity, "shard-id", "", "this replica's name in the ring, a DNS label (default: hostname and a random suffix)")
	flag.DurationVar(&sharding.leaseDuration, "shard-lease-duration", 15*time.Second, "how long a replica that stopped renewing its Lease keeps its share")
	flag.StringVar(&sharding.key, "shard-key", "uid", `what places a Widget in a share: "uid" (even spread) or "namespace" (a namespace's Widgets together)`)
	flag.Parse()
	if election.enabled && sharding.enabled {
		klog.ErrorS(nil, "--leader-elect and --shards exclude each other")
		klog.FlushAndExit(klog.ExitFlushTimeout, 2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *kubeconfig, *namespace, *workers, *metricsAddr, *resync, election, sharding); err != nil {
		klog.ErrorS(err, "widget-controller failed")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	klog.Flush()
}

func run(ctx context.Context, kubeconfig, namespace string, workers int, metricsAddr string, resync time.Duration, election leaderElection, sharding shardRing) error {
	logger := klog.FromContext(ctx)
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = kubeconfig
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return fmt.Errorf("loading the kubeconfig: %w", err)
	}
	clients := widgetcontroller.Clients{}
	if clients.Shop, err = versioned.NewForConfig(config); err != nil {
		return err
	}
	if clients.Kube, err = kubernetes.NewForConfig(config); err != nil {
		return err
	}

	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	if metricsAddr != "0" {
		listener, err := net.Listen("tcp", metricsAddr)
		if err != nil {
			return fmt.Errorf("serving metrics: %w", err)
		}
		server := &http.Server{Handler: promhttp.HandlerFor(registry, promhttp.HandlerOpts{}), ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := server.Serve(listener); !errors.Is(err, http.ErrServerClosed) {
				logger.Error(err, "Metrics server stopped")
			}
		}()
		defer server.Close()
		logger.Info("Serving metrics", "address", "http://"+listener.Addr().String()+"/metrics")
	}

	opts := controller.Options{Workers: workers, Registerer: registry}
	if sharding.enabled {
		return sharding.run(ctx, clients.Kube, registry, func(ctx context.Context, ring *shard.Ring, key shard.Key) error {
			opts.Shard, opts.ShardKey = ring, key
			return widgetcontroller.Run(ctx, clients, namespace, resync, opts)
		})
	}
	if !election.enabled {
		return widgetcontroller.Run(ctx, clients, namespace, resync, opts)
	}
	return election.run(ctx, clients.Kube, func(ctx context.Context) error {
		return widgetcontroller.Run(ctx, clients, namespace, resync, opts)
	})
}

// shardRing configures the ring of --shards.
type shardRing struct {
	enabled                  bool
	namespace, identity, key string
	leaseDuration            time.Duration
}

// run holds this replica's place in the ring while work runs with it, and
// leaves the ring (handing the replica's slots over) once work returns.
func (r shardRing) run(ctx context.Context, kube kubernetes.Interface, registry prometheus.Registerer, work func(context.Context, *shard.Ring, shard.Key) error) error {
	key := map[string]shard.Key{"uid": shard.ByUID, "namespace": shard.ByNamespace}[r.key]
	if key == "" {
		return fmt.Errorf(`--shard-key %q: want "uid" or "namespace"`, r.key)
	}
	identity := r.identity
	if identity == "" {
		// The ring names this replica's Lease after it: a DNS name.
		host, err := os.Hostname()
		if err != nil {
			return err
		}
		identity = strings.ToLower(host) + "-" + string(uuid.NewUUID())[:8]
	}
	ring, err := shard.NewRing(shard.RingOptions{
		Client: kube.CoordinationV1(), Namespace: r.namespace, Name: widgetcontroller.Name, Identity: identity,
		LeaseDuration: r.leaseDuration, Registerer: registry,
	})
	if err != nil {
		return err
	}
	klog.FromContext(ctx).Info("Joining the ring", "ring", widgetcontroller.Name, "namespace", r.namespace, "identity", identity, "key", key)
	ringCtx, leave := context.WithCancel(ctx)
	ringDone := make(chan struct{})
	go func() {
		defer close(ringDone)
		_ = ring.Run(ringCtx)
	}()
	err = work(ctx, ring, key)
	leave()
	<-ringDone
	return err
}

// replicaIdentity returns identity, or when it is empty the host name with
// a random suffix, as leader election's identities are.
func replicaIdentity(identity string) (string, error) {
	if identity != "" {
		return identity, nil
	}
	host, err := os.Hostname()
	if err != nil {
		return "", err
	}
	return host + "_" + string(uuid.NewUUID()), nil
}

// leaderElection configures the leader election of --leader-elect.
type leaderElection struct {
	enabled                                   bool
	namespace, identity                       string
	leaseDuration, renewDeadline, retryPeriod time.Duration
}

// run calls lead while this replica holds the Lease, and returns when ctx
// ends (nil, or lead's error) or when the Lease is lost (an error).
func (e leaderElection) run(ctx context.Context, kube kubernetes.Interface, lead func(context.Context) error) error {
	logger := klog.FromContext(ctx)
	identity, err := replicaIdentity(e.identity)
	if err != nil {
		return err
	}
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: e.namespace, Name: widgetcontroller.Name},
		Client:     kube.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: identity},
	}
	// client-go calls OnStartedLeading on a goroutine of its own and
	// returns from RunOrDie without waiting for it: wait for lead here.
	var acquired atomic.Bool
	leadErr := make(chan error, 1)
	logger.Info("Waiting for the Lease", "lease", klog.KObj(&lock.LeaseMeta), "identity", identity)
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:            lock,
		Name:            widgetcontroller.Name,
		LeaseDuration:   e.leaseDuration,
		RenewDeadline:   e.renewDeadline,
		RetryPeriod:     e.retryPeriod,
		ReleaseOnCancel: true,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				acquired.Store(true)
				logger.Info("Leading", "identity", identity)
				leadErr <- lead(ctx)
			},
			OnStoppedLeading: func() { logger.Info("Stopped leading", "identity", identity) },
		},
	})
	if !acquired.Load() {
		return nil // ctx ended before this replica led
	}
	if err := <-leadErr; err != nil {
		return err
	}
	if ctx.Err() == nil {
		return errors.New("lost the Lease")
	}
	return nil
}

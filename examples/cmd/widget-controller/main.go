// Command widget-controller runs the example Widget operator of package
// widgetcontroller against a cluster: for every Widget it keeps a rendered
// ConfigMap and the Widget's status up to date.
//
//	widget-controller --kubeconfig ~/.kube/config [--namespace NS] [--workers N] [--metrics-bind-address 127.0.0.1:8080]
//
// Without --kubeconfig it uses $KUBECONFIG, then the in-cluster
// configuration, as kubectl does. It serves Prometheus metrics on
// /metrics and stops gracefully on SIGINT or SIGTERM.
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
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	"github.com/informer-gen-plus/informer-gen-plus/examples/widgetcontroller"
	"github.com/informer-gen-plus/informer-gen-plus/runtime/controller"
)

func main() {
	klog.InitFlags(nil)
	var (
		kubeconfig  = flag.String("kubeconfig", "", "path to a kubeconfig file; defaults to $KUBECONFIG, then the in-cluster configuration")
		namespace   = flag.String("namespace", "", "watch only this namespace (default: all)")
		workers     = flag.Int("workers", 2, "Widgets reconciled concurrently")
		metricsAddr = flag.String("metrics-bind-address", "127.0.0.1:8080", `address of the /metrics endpoint ("0" disables it)`)
		resync      = flag.Duration("resync", 10*time.Minute, "resync period of the informers (0 disables resync)")
	)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *kubeconfig, *namespace, *workers, *metricsAddr, *resync); err != nil {
		klog.ErrorS(err, "widget-controller failed")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	klog.Flush()
}

func run(ctx context.Context, kubeconfig, namespace string, workers int, metricsAddr string, resync time.Duration) error {
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

	return widgetcontroller.Run(ctx, clients, namespace, resync, controller.Options{Workers: workers, Registerer: registry})
}

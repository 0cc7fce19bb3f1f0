package explore

import (
	"fmt"

	kubediscovery "k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
)

// clients returns o.Clients, or clients of the cluster o.Kubeconfig (or
// client-go's default loading rules) points at.
func (o Options) clients() (Clients, error) {
	if o.Clients != nil {
		if o.Clients.Discovery == nil || o.Clients.Dynamic == nil {
			return Clients{}, fmt.Errorf("Options.Clients needs both a discovery and a dynamic client")
		}
		return *o.Clients, nil
	}
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = o.Kubeconfig
	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return Clients{}, fmt.Errorf("kubeconfig: %w", err)
	}
	// Discovery of every group version takes a request each from servers
	// without aggregated discovery: more than client-go's default 5 per
	// second allows without waiting.
	config.QPS, config.Burst = 50, 100
	disc, err := kubediscovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return Clients{}, err
	}
	dyn, err := dynamic.NewForConfig(config)
	if err != nil {
		return Clients{}, err
	}
	return Clients{Discovery: disc, Dynamic: dyn}, nil
}

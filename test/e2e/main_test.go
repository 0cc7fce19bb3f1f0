package e2e

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/informer-gen-plus/informer-gen-plus/examples/generated/clientset/versioned"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testcluster"
	"github.com/informer-gen-plus/informer-gen-plus/internal/testing/testwait"
)

// cluster is the control plane of the package's tests.
var cluster *testcluster.Cluster

func TestMain(m *testing.M) {
	os.Exit(testcluster.Main(m, &cluster, testcluster.Options{}))
}

// crdsOnce installs the example CRDs once per package.
var crdsOnce = sync.OnceValue(func() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return cluster.InstallCRDs(ctx, filepath.Join("..", "..", "examples", "config", "crd"))
})

// clients are the clientsets of a test, with a rate limit high enough not
// to be what a test measures.
type clients struct {
	config *rest.Config
	kube   kubernetes.Interface
	shop   versioned.Interface
}

// newClients installs the example CRDs (once) and returns clients of the
// cluster.
func newClients(t testing.TB) clients {
	t.Helper()
	if err := crdsOnce(); err != nil {
		t.Fatal(err)
	}
	config := cluster.Config()
	config.QPS, config.Burst = 1000, 2000
	return clients{
		config: config,
		kube:   kubernetes.NewForConfigOrDie(config),
		shop:   versioned.NewForConfigOrDie(config),
	}
}

// eventually polls check until it returns "" or 30 s pass.
func eventually(t testing.TB, what string, check func() string) {
	t.Helper()
	testwait.For(t, 30*time.Second, what, check)
}

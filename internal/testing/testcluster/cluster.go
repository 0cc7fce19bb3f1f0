package testcluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/rest"
)

// Options configures Start. The zero value is ready to use.
type Options struct {
	// BinDir is the directory with the etcd and kube-apiserver binaries.
	// Empty means $TESTBIN_DIR, or bin/testbin in the root of this
	// repository when TESTBIN_DIR is unset (where hack/testbin.sh puts
	// them).
	BinDir string
	// Dir is the directory for the state of the cluster (etcd's data, the
	// certificates, the logs etcd.log and kube-apiserver.log). Empty means
	// a new temporary directory, which Stop removes; a directory given
	// here is left in place.
	Dir string
	// StartTimeout bounds each wait for a process to become ready (etcd's
	// /health, kube-apiserver's /readyz), on top of the context's
	// deadline. Zero means one minute.
	StartTimeout time.Duration
	// WatchCache enables kube-apiserver's watch cache. By default it is
	// off, so that every list and watch is served by etcd: then Compact
	// makes the next watch or list from an older resourceVersion fail with
	// 410 Gone, as it does on a real cluster once the watch cache's window
	// has moved on. With the watch cache, watches from a resourceVersion
	// still in its window are served from memory and Compact does not
	// affect them (a resourceVersion older than the window still gets 410
	// Gone, also after RestartAPIServer).
	WatchCache bool
	// FeatureGates sets kube-apiserver's feature gates: each name to
	// whether it is enabled. Start passes them as one flag,
	// --feature-gates=A=true,B=false with the names sorted, after the flags
	// Start sets and before APIServerFlags, so that a --feature-gates flag
	// there overrides the gates it names. Empty means no flag (every gate
	// at its default). A name that is empty or holds ',', '=' or white
	// space fails Start; a name kube-apiserver does not know fails its
	// start, with the error in the log Start quotes.
	FeatureGates map[string]bool
	// APIServerFlags are added to kube-apiserver's command line, after
	// (and so overriding) the flags Start sets.
	APIServerFlags []string
	// EtcdFlags are added to etcd's command line, after the flags Start
	// sets.
	EtcdFlags []string
}

// Cluster is a running etcd and kube-apiserver pair started by Start. Its
// methods are safe for concurrent use. Stop it when done (StartForTest and
// Main do).
type Cluster struct {
	dir     string
	ownDir  bool
	timeout time.Duration

	etcdPath      string
	apiserverPath string
	etcdURL       string
	apiserverArgs []string
	config        *rest.Config
	etcdHTTP      *http.Client

	kubeOnce sync.Once
	kube     kubeClients
	kubeErr  error

	mu        sync.Mutex // guards the processes and stopped
	etcd      *process
	apiserver *process
	stopped   bool
}

const (
	etcdLog      = "etcd.log"
	apiserverLog = "kube-apiserver.log"
	// How many lines of each log an error message quotes.
	logTailLines = 40
	// How many times Start picks new ports when a process could not bind
	// the ones it was given (another process took them in between).
	portAttempts = 3
)

// Start starts etcd and kube-apiserver on free 127.0.0.1 ports and returns
// once kube-apiserver reports ready (/readyz). ctx bounds only the start,
// not the life of the processes: they run until Stop. On failure nothing is
// left running and the error quotes the end of the logs of the process
// that failed; when the binaries are missing it says to run `make testbin`.
func Start(ctx context.Context, opts Options) (_ *Cluster, err error) {
	binDir := opts.BinDir
	if binDir == "" {
		if binDir, err = DefaultBinDir(); err != nil {
			return nil, err
		}
	}
	c := &Cluster{
		timeout:       opts.StartTimeout,
		etcdPath:      filepath.Join(binDir, "etcd"),
		apiserverPath: filepath.Join(binDir, "kube-apiserver"),
		etcdHTTP:      &http.Client{Timeout: 10 * time.Second},
	}
	if c.timeout <= 0 {
		c.timeout = time.Minute
	}
	for _, bin := range []string{c.etcdPath, c.apiserverPath} {
		if st, err := os.Stat(bin); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return nil, fmt.Errorf("testcluster: %s is missing or not executable: run `make testbin` "+
				"(hack/testbin.sh) to build etcd and kube-apiserver, or set TESTBIN_DIR to a directory that has them", bin)
		}
	}

	if err := checkFeatureGates(opts.FeatureGates); err != nil {
		return nil, err
	}

	c.dir = opts.Dir
	if c.dir == "" {
		if c.dir, err = os.MkdirTemp("", "testcluster-"); err != nil {
			return nil, fmt.Errorf("testcluster: %w", err)
		}
		c.ownDir = true
	} else if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return nil, fmt.Errorf("testcluster: %w", err)
	}
	defer func() {
		if err != nil {
			_ = c.Stop()
		}
	}()

	creds, err := writeCredentials(filepath.Join(c.dir, "pki"))
	if err != nil {
		return nil, fmt.Errorf("testcluster: generating credentials: %w", err)
	}

	if err := c.startEtcd(ctx, opts.EtcdFlags); err != nil {
		return nil, err
	}
	if err := c.startAPIServer(ctx, creds, opts); err != nil {
		return nil, err
	}
	return c, nil
}

// startEtcd starts etcd on free ports and waits for its /health.
func (c *Cluster) startEtcd(ctx context.Context, extra []string) error {
	dataDir := filepath.Join(c.dir, "etcd-data")
	var lastErr error
	for attempt := 1; attempt <= portAttempts; attempt++ {
		ports, err := freePorts(2)
		if err != nil {
			return fmt.Errorf("testcluster: %w", err)
		}
		clientURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
		peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
		// A data directory left by a failed attempt would name other
		// peer URLs.
		if err := os.RemoveAll(dataDir); err != nil {
			return fmt.Errorf("testcluster: %w", err)
		}
		args := append([]string{
			"--name=testcluster",
			"--data-dir=" + dataDir,
			"--listen-client-urls=" + clientURL,
			"--advertise-client-urls=" + clientURL,
			"--listen-peer-urls=" + peerURL,
			"--initial-advertise-peer-urls=" + peerURL,
			"--initial-cluster=testcluster=" + peerURL,
			"--initial-cluster-state=new",
			// The data is thrown away with the test: durability only
			// costs time.
			"--unsafe-no-fsync",
		}, extra...)
		p, err := startProcess("etcd", c.etcdPath, args, childEnv(), filepath.Join(c.dir, etcdLog))
		if err != nil {
			return fmt.Errorf("testcluster: %w", err)
		}
		c.etcd = p
		c.etcdURL = clientURL
		err = c.waitReady(ctx, p, func(ctx context.Context) error { return c.etcdHealthy(ctx) })
		if err == nil {
			return nil
		}
		p.stop(5 * time.Second)
		lastErr = c.startError(p, err)
		if !portInUse(p.logPath) {
			break
		}
	}
	return lastErr
}

// startAPIServer starts kube-apiserver on a free port and waits for it to
// be ready.
func (c *Cluster) startAPIServer(ctx context.Context, creds *credentials, opts Options) error {
	var lastErr error
	for attempt := 1; attempt <= portAttempts; attempt++ {
		ports, err := freePorts(1)
		if err != nil {
			return fmt.Errorf("testcluster: %w", err)
		}
		port := strconv.Itoa(ports[0])
		args := c.apiserverFlags(port, creds, opts)
		c.apiserverArgs = args
		c.config = &rest.Config{
			Host:            "https://127.0.0.1:" + port,
			BearerToken:     creds.token,
			TLSClientConfig: rest.TLSClientConfig{CAData: creds.caPEM},
			// No client-side rate limit: the server is the test's own.
			QPS: -1,
		}
		p, err := c.runAPIServer(ctx)
		if err == nil {
			return nil
		}
		lastErr = err
		if p == nil || !portInUse(p.logPath) {
			break
		}
	}
	return lastErr
}

// apiserverFlags is kube-apiserver's command line (without the program)
// for serving on port: the flags Start sets, the feature gates, then
// opts.APIServerFlags.
func (c *Cluster) apiserverFlags(port string, creds *credentials, opts Options) []string {
	args := []string{
		"--etcd-servers=" + c.etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + port,
		"--cert-dir=" + filepath.Join(c.dir, "apiserver-certs"),
		"--tls-cert-file=" + creds.servingCert,
		"--tls-private-key-file=" + creds.servingKey,
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + creds.saKey,
		"--service-account-signing-key-file=" + creds.saKey,
		"--token-auth-file=" + creds.tokenFile,
		"--authorization-mode=RBAC",
		// No controller creates the default ServiceAccount of a
		// namespace, so the admission plugin waiting for it must go.
		"--disable-admission-plugins=ServiceAccount",
		"--service-cluster-ip-range=10.0.0.0/24",
		// No Endpoints for the kubernetes Service: nothing here could
		// reach them.
		"--endpoint-reconciler-type=none",
		"--watch-cache=" + strconv.FormatBool(opts.WatchCache),
		// Without it, an open watch holds up the shutdown (Stop,
		// RestartAPIServer) until the process is killed.
		"--shutdown-watch-termination-grace-period=1s",
	}
	if flag := featureGatesFlag(opts.FeatureGates); flag != "" {
		args = append(args, flag)
	}
	args = append(args, opts.APIServerFlags...)
	return args
}

// runAPIServer starts kube-apiserver with c.apiserverArgs and waits for
// /readyz. On failure the process is stopped (and returned, for its log).
// The caller holds c.mu, or has not shared c yet (Start).
func (c *Cluster) runAPIServer(ctx context.Context) (*process, error) {
	p, err := startProcess("kube-apiserver", c.apiserverPath, c.apiserverArgs, childEnv(), filepath.Join(c.dir, apiserverLog))
	if err != nil {
		return nil, fmt.Errorf("testcluster: %w", err)
	}
	c.apiserver = p
	if err := c.waitReady(ctx, p, c.apiserverReady); err != nil {
		p.stop(5 * time.Second)
		return p, c.startError(p, err)
	}
	return p, nil
}

// checkFeatureGates returns an error for a gate name featureGatesFlag could
// not render unambiguously.
func checkFeatureGates(gates map[string]bool) error {
	for name := range gates {
		if name == "" || strings.ContainsAny(name, ",= \t\n\r") {
			return fmt.Errorf("testcluster: feature gate %q: a name must not be empty nor hold ',', '=' or white space", name)
		}
	}
	return nil
}

// featureGatesFlag renders gates as kube-apiserver's --feature-gates flag,
// the names sorted; "" when there are none.
func featureGatesFlag(gates map[string]bool) string {
	if len(gates) == 0 {
		return ""
	}
	names := slices.Sorted(maps.Keys(gates))
	pairs := make([]string, len(names))
	for i, name := range names {
		pairs[i] = name + "=" + strconv.FormatBool(gates[name])
	}
	return "--feature-gates=" + strings.Join(pairs, ",")
}

// startError is the error of a process that did not become ready, with the
// end of its log.
func (c *Cluster) startError(p *process, err error) error {
	return fmt.Errorf("testcluster: %s did not become ready: %w\n--- last lines of %s ---\n%s\n---",
		p.name, err, p.logPath, logTail(p.logPath, logTailLines))
}

// waitReady polls ready until it succeeds, the process exits, the start
// timeout passes or ctx is done.
func (c *Cluster) waitReady(ctx context.Context, p *process, ready func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	ticker := time.NewTicker(50 * time.Millisecond)
	defer ticker.Stop()
	var lastErr error
	for {
		if err := p.exitError(); err != nil {
			return err
		}
		attemptCtx, cancelAttempt := context.WithTimeout(ctx, 5*time.Second)
		lastErr = ready(attemptCtx)
		cancelAttempt()
		if lastErr == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last check: %v)", ctx.Err(), lastErr)
		case <-p.done:
			return p.exitError()
		case <-ticker.C:
		}
	}
}

// apiserverReady succeeds when kube-apiserver's /readyz answers 200.
func (c *Cluster) apiserverReady(ctx context.Context) error {
	client, err := rest.HTTPClientFor(c.config)
	if err != nil {
		return err
	}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.config.Host+"/readyz", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body := make([]byte, 512)
		n, _ := resp.Body.Read(body)
		return fmt.Errorf("/readyz: %s: %s", resp.Status, strings.TrimSpace(string(body[:n])))
	}
	return nil
}

// Config returns a new copy of the configuration of a client of the
// cluster: the user is a member of system:masters (allowed everything), the
// server's certificate is verified against the cluster's own CA, and there
// is no client-side rate limit. It stays valid across RestartAPIServer.
func (c *Cluster) Config() *rest.Config {
	return rest.CopyConfig(c.config)
}

// Dir returns the directory with the state and the logs (etcd.log,
// kube-apiserver.log) of the cluster.
func (c *Cluster) Dir() string { return c.dir }

// RestartAPIServer stops kube-apiserver (SIGTERM, then SIGKILL after 15
// seconds) and starts it again with the same flags on the same etcd and
// port, and returns once it is ready again. Configs from Config keep
// working; open watches end. The watch cache, when enabled, starts empty.
// A Stop called meanwhile waits for the restart to end.
func (c *Cluster) RestartAPIServer(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return errors.New("testcluster: RestartAPIServer: the cluster is stopped")
	}
	c.apiserver.stop(15 * time.Second)
	_, err := c.runAPIServer(ctx)
	return err
}

// Stop stops kube-apiserver, then etcd, killing their process groups, and
// removes the cluster's directory when Start created it. It returns once
// both have exited. Stop may be called more than once; calls after the
// first do nothing.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	c.stopped = true
	if c.apiserver != nil {
		c.apiserver.stop(15 * time.Second)
	}
	if c.etcd != nil {
		c.etcd.stop(10 * time.Second)
	}
	c.etcdHTTP.CloseIdleConnections()
	if c.ownDir {
		if err := os.RemoveAll(c.dir); err != nil {
			return fmt.Errorf("testcluster: removing %s: %w", c.dir, err)
		}
	}
	return nil
}

// logTails returns the end of the logs of both processes, for the report
// of a failed test.
func (c *Cluster) logTails() string {
	var b strings.Builder
	for _, name := range []string{apiserverLog, etcdLog} {
		path := filepath.Join(c.dir, name)
		fmt.Fprintf(&b, "--- last lines of %s ---\n%s\n", path, logTail(path, logTailLines))
	}
	return b.String()
}

// freePorts returns n distinct TCP ports that were free on 127.0.0.1 a
// moment ago.
func freePorts(n int) ([]int, error) {
	var ports []int
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port: %w", err)
		}
		// Held until all are found, so that they differ.
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// portInUse tells whether a process's log says it could not bind a port.
func portInUse(logPath string) bool {
	return strings.Contains(logTail(logPath, logTailLines), "address already in use")
}

// modulePath is the module this package belongs to: its go.mod marks the
// root of the repository.
const modulePath = "github.com/informer-gen-plus/informer-gen-plus"

// DefaultBinDir returns where Start looks for etcd and kube-apiserver when
// Options.BinDir is empty: $TESTBIN_DIR when set, else bin/testbin in the
// root of this repository, found from the working directory (go test runs
// in the package's directory) or else from this source file's path.
func DefaultBinDir() (string, error) {
	if dir := os.Getenv("TESTBIN_DIR"); dir != "" {
		return dir, nil
	}
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		for {
			if isModuleRoot(dir) {
				return filepath.Join(dir, "bin", "testbin"), nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", fmt.Errorf("testcluster: cannot find the root of %s (the directory of its go.mod) "+
		"to find bin/testbin: set TESTBIN_DIR to the directory that has etcd and kube-apiserver (`make testbin` builds them)", modulePath)
}

// isModuleRoot tells whether dir has the go.mod of modulePath.
func isModuleRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`) == modulePath
		}
	}
	return false
}

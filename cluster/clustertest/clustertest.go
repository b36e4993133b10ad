// Package clustertest gives a go test a whole minicp cluster in a line:
// an API server on the test binary's shared etcd (under a prefix of its
// own), the scheduler and N simulated nodes, torn down when the test ends
// with every goroutine stopped.
//
//	func TestMain(m *testing.M) { clustertest.Main(m) }
//
//	func TestMyController(t *testing.T) {
//		c := clustertest.New(t, clustertest.WithNodes(3))
//		pods := c.Clientset().Pods("default")
//		...
//		require.NoError(t, c.WaitIdle(ctx))
//	}
//
// It is also the one toolbox of minicp's tests for the parts around a
// cluster: Start runs any component (Start(ctx) error) for a test and
// waits for it when the test ends; StartManager runs a controllers
// Manager; InMemoryClient reaches an apiservertest server. Waits watch,
// never poll, and all are bounded by WaitTimeout (MINICP_WAIT_TIMEOUT on a
// slow machine): WaitFor (one object), WaitForList (a set), WaitForEvent,
// WaitIdle (wait.Idlers), Receive, ReceiveUntil and NextEvent (channels
// and watches), and WaitContext for a bounded wait of one's own.
//
// Two kinds of tests keep small helpers of their own: internal tests of a
// package clustertest imports (an import cycle), and the tests of
// storage, watchcache and apiserver, which sit below it and have internal
// tests too, so importing it would rebuild most of the tree for each of
// their test binaries.
package clustertest

import (
	"log/slog"
	goruntime "runtime"
	"testing"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/tracing"
)

// Main is the TestMain of a package that uses New: it starts the shared
// etcd, runs the tests, stops etcd and checks for leaked goroutines.
func Main(m *testing.M) { storagetest.Main(m) }

// Option changes the cluster New builds.
type Option func(*config)

type config struct {
	opts        cluster.Options
	level       slog.Level
	addToScheme []func(*runtime.Scheme) error
}

// WithNodes runs n simulated nodes, and so the scheduler. Defaults to 1.
func WithNodes(n int) Option { return func(c *config) { c.opts.Nodes = n } }

// WithServiceNetwork runs the Service proxy and cluster DNS (off by
// default): ClusterIPs carry traffic and names resolve, for this cluster
// alone in its process at a time, since they listen on fixed loopback
// addresses. Tests that use it must not run in parallel with others
// that do.
func WithServiceNetwork() Option {
	return func(c *config) { c.opts.DisableServiceNetwork = false }
}

// WithClock gives every component the same clock: pass a
// clocktest.Fake to step heartbeats, container run time and backoff
// instead of waiting for them.
func WithClock(clk clock.Clock) Option { return func(c *config) { c.opts.Clock = clk } }

// WithTracing traces the cluster into tr (cluster.Options.Tracing), for a
// test that checks the path of a request through the components.
func WithTracing(tr *tracing.Tracing) Option { return func(c *config) { c.opts.Tracing = tr } }

// WithControllers runs exactly the named controllers (see
// controllermanager.Resolve: "*", "name", "-name"); with no names, none,
// for a test that runs its own controller on a Manager. The default is
// every controller.
func WithControllers(names ...string) Option {
	return func(c *config) { c.opts.Controllers = append([]string{}, names...) }
}

// WithCRDs installs CustomResourceDefinitions before New returns, each
// Established: objects, or paths of files and directories of manifests
// (cluster.ReadCRDs), as envtest's CRDs and CRDDirectoryPaths.
func WithCRDs(crds ...*apiextensionsv1.CustomResourceDefinition) Option {
	return func(c *config) { c.opts.CRDs = append(c.opts.CRDs, crds...) }
}

// WithCRDPaths installs the CRDs read from files and directories (see
// WithCRDs).
func WithCRDPaths(paths ...string) Option {
	return func(c *config) { c.opts.CRDPaths = append(c.opts.CRDPaths, paths...) }
}

// WithTypes registers Go types in the scheme of the cluster's Clientset,
// so its client decodes a custom resource into the user's own type: pass
// the AddToScheme functions of the API packages, each adding the kinds
// (AddKnownTypes) and resources (AddResource).
func WithTypes(addToScheme ...func(*runtime.Scheme) error) Option {
	return func(c *config) { c.addToScheme = append(c.addToScheme, addToScheme...) }
}

// WithLogLevel sets the level of the cluster's log, which goes to the
// test's output. Defaults to slog.LevelWarn: only anomalies.
func WithLogLevel(l slog.Level) Option { return func(c *config) { c.level = l } }

// Cluster is a running test cluster.
type Cluster struct {
	*cluster.Cluster
	clientset *client.Clientset
}

// New starts a cluster for t and stops it when t ends. It fails t if the
// cluster does not start, or is not ready within WaitTimeout.
func New(t testing.TB, opts ...Option) *Cluster {
	t.Helper()
	cfg := config{
		// The Service network listens on fixed loopback addresses, which
		// clusters of parallel tests would fight over: WithServiceNetwork
		// turns it on.
		opts: cluster.Options{Etcd: storagetest.Client(t), StoragePrefix: storagetest.Prefix(t), Nodes: 1,
			DisableServiceNetwork: true},
		level: slog.LevelWarn,
	}
	for _, opt := range opts {
		opt(&cfg)
	}
	cfg.opts.Logger = slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: cfg.level}))
	c, err := cluster.New(cfg.opts)
	if err != nil {
		t.Fatalf("clustertest: %v", err)
	}
	startWhenFree(t, c)
	scheme, err := client.NewScheme()
	if err != nil {
		t.Fatalf("clustertest: %v", err)
	}
	for _, add := range cfg.addToScheme {
		if err := add(scheme); err != nil {
			t.Fatalf("clustertest: WithTypes: %v", err)
		}
	}
	cl, err := client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token(), Scheme: scheme})
	if err != nil {
		t.Fatalf("clustertest: client: %v", err)
	}
	t.Cleanup(cl.CloseIdleConnections)
	cs, err := client.NewClientset(cl)
	if err != nil {
		t.Fatalf("clustertest: client: %v", err)
	}
	return &Cluster{Cluster: c, clientset: cs}
}

// Clientset is a client of the cluster over HTTPS, as the admin.
func (c *Cluster) Clientset() *client.Clientset { return c.clientset }

// starting holds a token for each cluster being started in this process.
// A start is CPU-bound (some sixty watch caches filled, the default
// policy written, every component's informers listing), so twenty
// parallel tests starting twenty clusters at once on two cores made each
// of them twenty times slower, and all of them late; started a few at a
// time, each is ready quickly and the last is ready no later. Once
// ready, clusters run side by side without a token.
//
// A start runs its independent steps at once and keeps about two cores
// busy by itself (1.6 on average), hence one token per two cores. With
// a token per core, two starts at once on two cores slowed each other
// and starved the clusters already running: under -race at load 8, the
// twenty clusters of TestManyClustersOnOneEtcd waited up to 29 s and
// more for a Deployment (etcd calls timed out at 5 s), where with one
// start at a time they wait 2-9 s.
var starting = make(chan struct{}, max(1, goruntime.GOMAXPROCS(0)/2))

// startWhenFree starts c once a start token is free, and returns when c
// is ready. Waiting for a token is not waiting for c, so WaitTimeout
// bounds only c's own start; the token wait ends with t's context.
func startWhenFree(t testing.TB, c *cluster.Cluster) {
	t.Helper()
	select {
	case starting <- struct{}{}:
	case <-t.Context().Done():
		t.Fatal("clustertest: ended while waiting to start the cluster")
	}
	defer func() { <-starting }()
	running := Start(t, c)
	ctx, cancel := WaitContext(t)
	defer cancel()
	select {
	case <-c.Ready():
	case <-running.Done():
		t.Fatal("clustertest: the cluster stopped before it was ready")
	case <-ctx.Done():
		t.Fatalf("clustertest: the cluster not ready within %v", WaitTimeout)
	}
}

package cluster

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	clientv3 "go.etcd.io/etcd/client/v3"
	"golang.org/x/sync/errgroup"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/audit"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/scheduler/config"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/tracing"
)

// Options configures a cluster. The zero value works: an embedded etcd in
// a temporary directory and an API server on a free loopback port.
type Options struct {
	// Etcd, when set, is an etcd client to use (and not close): how tests
	// share one etcd among many clusters. Takes precedence over
	// EtcdServers.
	Etcd *clientv3.Client
	// EtcdServers are external etcd endpoints (--etcd-servers). Empty
	// means an embedded etcd.
	EtcdServers []string
	// EtcdDataDir keeps the embedded etcd's data across restarts. Defaults
	// to a temporary directory removed on stop.
	EtcdDataDir string
	// StoragePrefix is this cluster's etcd key prefix. Defaults to
	// "/registry".
	StoragePrefix string
	// ListenAddr is the API server's address. Defaults to 127.0.0.1:0, a
	// free port.
	ListenAddr string
	// Listener, when set, is the API server's listener, bound by the
	// caller (so a taken port is known before anything starts) and used
	// instead of ListenAddr. Start closes it.
	Listener net.Listener
	// AuditSink receives an audit.k8s.io/v1 Event per API request (see
	// apiserver.Options). Defaults to Debug records on Logger.
	AuditSink audit.Sink
	// MetricsRegistry is where the controller-manager and the scheduler
	// register their metrics; the API server serves it on /metrics next
	// to its own. Defaults to a new registry with the Go runtime and
	// process collectors, one per cluster, never Prometheus' global one.
	MetricsRegistry *prometheus.Registry
	// DisableProfiling turns off the API server's /debug/pprof.
	DisableProfiling bool
	// PKIDir keeps the cluster's identity material across restarts, so
	// kubeconfigs and service account tokens issued before a restart keep
	// working after it: the CA (ca.crt, ca.key), which signs the serving
	// certificate and the client certificates the API server accepts
	// (CN = user, O = groups); the service account signing key (sa.key);
	// and the admin token (admin.token); each created on first use.
	// Defaults to none: new ones at every start.
	PKIDir string
	// Token is the admin's bearer token. Defaults to the one kept in
	// PKIDir, or a random one.
	Token string
	// TokenAuthFile names a kube-apiserver --token-auth-file (CSV lines
	// token,user,uid,"group1,group2") whose users are accepted besides the
	// admin. Besides these, the API server accepts client certificates
	// signed by the cluster's CA (IssueClientCertificate) and service
	// account tokens (serviceaccounts/token, `kubectl create token`), the
	// latter as system:serviceaccount:<namespace>:<name> in the groups
	// system:serviceaccounts and system:serviceaccounts:<namespace>.
	TokenAuthFile string
	// AnonymousAuth lets requests without credentials in as
	// system:anonymous. Without it, only /healthz, /livez, /readyz and
	// /version answer them (what system:public-info-viewer grants); the
	// rest are 401.
	AnonymousAuth bool
	// ServiceAccountAdmission turns on the ServiceAccount admission
	// plugin, as kube-apiserver has it by default: a pod without
	// spec.serviceAccountName runs as "default", a pod naming a missing
	// service account is rejected, and every container gets the pod's
	// token, the CA bundle (the kube-root-ca.crt ConfigMap the
	// root-ca-certificate-publisher-controller keeps in every namespace)
	// and its namespace at /var/run/secrets/kubernetes.io/serviceaccount,
	// from a projected kube-api-access-<random> volume whose token the
	// kubelet requests. Ready then also waits until the default
	// namespace has its "default" ServiceAccount and kube-root-ca.crt.
	// Off by default, as in envtest: a pod can then be created before its
	// namespace's "default" service account exists. `minicp up` turns it
	// on, as kube-apiserver.
	ServiceAccountAdmission bool
	// AuthorizationMode is the API server's (apiserver.Options), as
	// kube-apiserver's --authorization-mode: a comma-separated list of
	// "Node", "RBAC", "AlwaysAllow" and "AllowAuthenticated". Defaults to
	// "Node,RBAC", kube-apiserver's usual setup: each component acts as
	// its own user (system:kube-scheduler; system:kube-controller-manager,
	// and each controller as its ServiceAccount in kube-system; each
	// kubelet as system:node:<name> in system:nodes), which the default
	// RBAC policy and the Node authorizer grant what it needs. The admin
	// is in system:masters, which may always do anything. As upstream, a
	// list without "Node" leaves the kubelets only what RBAC binds to
	// them: nothing by default.
	AuthorizationMode string
	// CompactionInterval is how often etcd's history is compacted, keeping
	// at least one interval of it. Defaults to 5 minutes, as kube-apiserver.
	CompactionInterval time.Duration
	// Nodes is how many simulated nodes (kubelets) to run; with at least
	// one, the scheduler runs too, so pods are scheduled and "run".
	// Defaults to 0: an API server only.
	Nodes int
	// SchedulerConfig enables plugins and sets weights, as a
	// KubeSchedulerConfiguration file does (scheduler/config.Load reads
	// one). Defaults to the default profile.
	SchedulerConfig *config.KubeSchedulerConfiguration
	// Controllers chooses the controller-manager's controllers as
	// kube-controller-manager's --controllers does: "*" is every one,
	// "name" enables and "-name" disables one (controllermanager.Resolve).
	// nil means {"*"}; an empty, non-nil list runs no controller-manager.
	Controllers []string
	// CRDs are CustomResourceDefinitions to install before the cluster is
	// Ready; CRDPaths name files or directories of CRD manifests to read
	// (see ReadCRDs), as envtest's CRDDirectoryPaths. Start waits until
	// each is Established.
	CRDs     []*apiextensionsv1.CustomResourceDefinition
	CRDPaths []string
	// DisableServiceNetwork turns off the Service proxy and cluster DNS
	// (packages proxy and proxy/dns), which are on by default: ClusterIPs,
	// node ports and load balancer IPs then carry no traffic, no name
	// resolves, and pods' servers listen on free ports of 127.0.0.1. One
	// process can run one cluster with them on: they listen on fixed
	// loopback addresses (see package proxy).
	DisableServiceNetwork bool
	// Programs are programmable images (simulated.Program): a pod whose
	// container names one (image: example.com/shop-operator:v1) runs its
	// Go code, serving HTTP at the pod's IP, on every node. Defaults to
	// none.
	Programs map[string]simulated.Program
	// Tracing, when set, traces every request and what it causes across
	// the components (package tracing): the API server's hops, the watch
	// cache, informers, reconciles, scheduling cycles and pod syncs, with
	// their spans kept in Tracing's Recorder. Defaults to nil: nothing
	// traced, at no cost.
	Tracing *tracing.Tracing
	// Clock defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
}

// Cluster is a control plane. Start it once; it stops when the context
// given to Start is done.
type Cluster struct {
	opts  Options
	log   *slog.Logger
	token string

	readyCh chan struct{}

	// mu guards the fields set during Start.
	mu     sync.Mutex
	server *apiserver.Server
	addr   string
	certs  *certs
	comps  *components
	// transport is shared by every HTTPClient, so they share connections.
	transport *http.Transport
}

// New validates opts and returns a cluster that is not running yet.
func New(opts Options) (*Cluster, error) {
	if opts.ListenAddr == "" {
		opts.ListenAddr = "127.0.0.1:0"
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	if opts.AuthorizationMode == "" {
		opts.AuthorizationMode = DefaultAuthorizationMode
	}
	if opts.MetricsRegistry == nil {
		opts.MetricsRegistry = prometheus.NewRegistry()
		opts.MetricsRegistry.MustRegister(collectors.NewGoCollector(),
			collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	token := opts.Token
	if token == "" {
		var err error
		if token, err = loadOrCreateToken(opts.PKIDir); err != nil {
			return nil, fmt.Errorf("cluster: %w", err)
		}
	}
	return &Cluster{
		opts:    opts,
		log:     logging.OrDiscard(opts.Logger),
		token:   token,
		readyCh: make(chan struct{}),
	}, nil
}

// DefaultAuthorizationMode is a cluster's authorization mode unless
// Options.AuthorizationMode says otherwise.
const DefaultAuthorizationMode = "Node,RBAC"

// etcdStartTimeout bounds how long Start waits for etcd: an embedded one
// starts in well under a second, an external one answers or is down.
const etcdStartTimeout = 30 * time.Second

// Start runs the cluster until ctx is done and returns after everything it
// started has stopped. When ctx ends before the cluster is ready, the
// error wraps ctx's cause (context.Canceled), whatever step was cut
// short. Startup, in order:
//
//  1. etcd: the given client, an external cluster, or an embedded server;
//  2. the API server's watch caches, synced;
//  3. the API server, listening on ListenAddr, with a fresh CA;
//  4. the system namespaces (default, kube-system, ...) and the kubernetes
//     Service in default, whose Endpoints are the API server's address;
//     then the CRDs of Options.CRDs and CRDPaths, each Established;
//  5. the etcd compactor;
//  6. the controller-manager with the controllers Options.Controllers
//     enables, waiting until it leads and its informers have synced; with
//     Nodes > 0, the scheduler and the kubelets, waiting until the
//     scheduler has synced and every node is registered;
//  7. Ready is closed.
//
// Shutdown is the reverse: the controller-manager, scheduler and
// kubelets stop while the API server still answers them, then the API
// server stops serving, its watch caches and the compactor stop, then the
// etcd client closes, then the embedded etcd stops.
func (c *Cluster) Start(ctx context.Context) (err error) {
	ready := false
	defer func() {
		// A start that ctx cuts short fails in whichever step it was,
		// and that step's error need not say why: an etcd write
		// cancelled under the API server comes back as an internal
		// error. The caller stopped the start; say that instead.
		if err != nil && !ready && ctx.Err() != nil {
			err = fmt.Errorf("cluster: stopped before ready: %w", context.Cause(ctx))
		}
	}()
	if c.opts.Listener != nil {
		// Closed here when Start fails before serving on it; once served,
		// Serve has closed it and this second Close does nothing.
		defer c.opts.Listener.Close()
	}
	etcdClient, closeEtcd, err := c.startEtcd(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := closeEtcd(); cerr != nil && err == nil {
			err = cerr
		}
	}()

	// Certificates are checked against the real time by every TLS peer,
	// whatever clock the cluster runs on.
	authority, err := loadOrCreateCA(c.opts.PKIDir, time.Now())
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	saKey, err := loadOrCreateServiceAccountKey(c.opts.PKIDir)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	// Client certificates first, then tokens, as kube-apiserver orders
	// its authenticators.
	authenticator := authn.Union{authn.NewX509(authority.pool(), nil), authn.NewTokenFile([]authn.TokenUser{{
		Token: c.token,
		User:  request.User{Name: "minicp-admin", UID: "minicp-admin", Groups: []string{request.SystemPrivilegedGroup}},
	}})}
	if c.opts.TokenAuthFile != "" {
		users, err := authn.ReadTokenFile(c.opts.TokenAuthFile)
		if err != nil {
			return fmt.Errorf("cluster: %w", err)
		}
		authenticator = append(authenticator, users)
	}
	server, err := apiserver.New(apiserver.Options{
		Etcd:              etcdClient,
		StoragePrefix:     c.opts.StoragePrefix,
		Authenticator:     authenticator,
		AnonymousAuth:     c.opts.AnonymousAuth,
		AuthorizationMode: c.opts.AuthorizationMode,
		Clock:             c.opts.Clock,
		Logger:            c.log,
		AuditSink:         c.opts.AuditSink,
		MetricsGatherer:   c.opts.MetricsRegistry,
		DisableProfiling:  c.opts.DisableProfiling,
		ProxyDialer:       c.dialPod,
		// Kept in PKIDir, so tokens outlive a restart.
		ServiceAccountSigningKey: saKey,
		ServiceAccountAdmission:  c.opts.ServiceAccountAdmission,
		Tracing:                  c.opts.Tracing,
	})
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	// The API server, its watch caches and the compactor stop on
	// serverCtx, after the components, which stop on compCtx: their
	// informers and requests end while the API server still answers.
	var wg, compWG sync.WaitGroup
	defer wg.Wait()
	serverCtx, stopServer := context.WithCancel(context.WithoutCancel(ctx))
	defer stopServer()
	compCtx, stopComps := context.WithCancel(context.WithoutCancel(ctx))
	defer compWG.Wait()
	defer stopComps()
	wg.Go(func() { _ = server.Start(serverCtx) })
	if err := server.WaitReady(ctx); err != nil {
		return fmt.Errorf("cluster: watch caches: %w", err)
	}
	ln := c.opts.Listener
	if ln == nil {
		if ln, err = net.Listen("tcp", c.opts.ListenAddr); err != nil {
			return fmt.Errorf("cluster: listen: %w", err)
		}
	}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	certs, err := newCerts(authority, time.Now(), append([]string{host, "127.0.0.1", "::1", "localhost"}, inClusterNames...))
	if err != nil {
		ln.Close()
		return fmt.Errorf("cluster: %w", err)
	}
	if err := server.EnsureSystemNamespaces(ctx); err != nil {
		ln.Close()
		return fmt.Errorf("cluster: %w", err)
	}
	c.mu.Lock()
	c.server, c.addr, c.certs = server, ln.Addr().String(), certs
	c.transport = &http.Transport{TLSClientConfig: certs.clientTLS()}
	c.mu.Unlock()
	defer c.transport.CloseIdleConnections()

	// The Services, the CRDs and the components' construction (their
	// certificates and clients) do not depend on one another: done at
	// once, the start waits for the slowest rather than for their sum.
	var comps *components
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		if err := server.EnsureKubernetesService(gctx, ln.Addr().(*net.TCPAddr).AddrPort()); err != nil {
			return fmt.Errorf("cluster: %w", err)
		}
		return nil
	})
	if !c.opts.DisableServiceNetwork {
		g.Go(func() error {
			if err := c.ensureDNSService(gctx, server); err != nil {
				return fmt.Errorf("cluster: %w", err)
			}
			return nil
		})
	}
	g.Go(func() error { return c.installCRDs(gctx, server) })
	g.Go(func() (err error) {
		comps, err = c.newComponents(server)
		return err
	})
	if err := g.Wait(); err != nil {
		ln.Close()
		return err
	}

	compactor := storage.NewCompactor(etcdClient, storage.CompactorOptions{
		Interval: c.opts.CompactionInterval, Clock: c.opts.Clock, Logger: c.log,
	})
	wg.Go(func() { _ = compactor.Start(serverCtx) })
	comps.start(compCtx, &compWG, c)
	c.mu.Lock()
	c.comps = comps
	c.mu.Unlock()

	serveErr := make(chan error, 1)
	go func() { serveErr <- server.Serve(serverCtx, tls.NewListener(ln, certs.serverTLS())) }()
	// shutdown stops the components, then the API server, and returns
	// Serve's error.
	shutdown := func() error {
		stopComps()
		compWG.Wait()
		stopServer()
		return <-serveErr
	}
	if err := comps.waitReady(ctx); err != nil {
		_ = shutdown()
		return fmt.Errorf("cluster: components: %w", err)
	}
	if err := c.waitServiceAccountReady(ctx, server); err != nil {
		_ = shutdown()
		return err
	}
	close(c.readyCh)
	ready = true
	c.log.Info("cluster ready", "url", c.URL())
	select {
	case <-ctx.Done():
		err = shutdown()
	case err = <-serveErr:
		// Serving failed: stop the rest; Serve has returned already.
		stopComps()
		compWG.Wait()
	}
	c.log.Info("cluster stopped")
	return err
}

// startEtcd returns an etcd client and the function that releases what
// startEtcd started.
func (c *Cluster) startEtcd(ctx context.Context) (*clientv3.Client, func() error, error) {
	if c.opts.Etcd != nil {
		return c.opts.Etcd, func() error { return nil }, nil
	}
	startCtx, cancel := context.WithTimeout(ctx, etcdStartTimeout)
	defer cancel()
	if len(c.opts.EtcdServers) > 0 {
		client, err := storage.NewClient(startCtx, c.opts.EtcdServers)
		if err != nil {
			return nil, nil, fmt.Errorf("cluster: %w", err)
		}
		return client, client.Close, nil
	}
	etcd, err := storage.StartEmbeddedEtcd(startCtx, storage.EmbeddedOptions{DataDir: c.opts.EtcdDataDir, Logger: c.log})
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: start etcd: %w", err)
	}
	c.log.Info("etcd ready", "endpoints", etcd.Endpoints())
	return etcd.Client(), etcd.Close, nil
}

// Ready is closed once the API server serves requests.
func (c *Cluster) Ready() <-chan struct{} { return c.readyCh }

// URL is the API server's base URL; valid once Ready is closed.
func (c *Cluster) URL() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return "https://" + c.addr
}

// CACertificate is the PEM certificate of the CA that signed the API
// server's serving certificate: what a client must trust. Valid once Ready
// is closed.
func (c *Cluster) CACertificate() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.certs == nil {
		return nil
	}
	return c.certs.caPEM
}

// TLSClientConfig trusts the API server's CA. Valid once Ready is closed.
func (c *Cluster) TLSClientConfig() *tls.Config {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.certs.clientTLS()
}

// HTTPClient returns an HTTP client that trusts the API server and sends
// the admin token: the quickest way to call the API from Go without a
// Kubernetes client library. Valid once Ready is closed.
func (c *Cluster) HTTPClient() *http.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &http.Client{Transport: &bearerTransport{token: c.token, next: c.transport}}
}

// bearerTransport adds the Authorization header to every request.
type bearerTransport struct {
	token string
	next  http.RoundTripper
}

func (b *bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// IssueClientCertificate returns a client certificate signed by the
// cluster's CA, and its key, both PEM-encoded: the API server
// authenticates a client presenting it as user, in groups and
// system:authenticated (a kubeconfig's client-certificate-data and
// client-key-data). Valid once Ready is closed.
func (c *Cluster) IssueClientCertificate(user string, groups []string) (certPEM, keyPEM []byte, err error) {
	c.mu.Lock()
	certs := c.certs
	c.mu.Unlock()
	if certs == nil {
		return nil, nil, ErrNotReady
	}
	return certs.authority.issueClientCert(time.Now(), user, groups)
}

// Token is the admin's bearer token.
func (c *Cluster) Token() string { return c.token }

// APIServer returns the running API server; nil before Ready.
func (c *Cluster) APIServer() *apiserver.Server {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.server
}

// WaitIdle blocks until the cluster has nothing left to do: every change
// written so far has reached the components' caches, every controller's
// queue is empty with no reconcile in flight, the scheduler's queue is
// empty with no cycle in flight, and no kubelet has a pod worker busy,
// all at once, and nothing of the cluster was written since. Tests use
// it as a barrier instead of sleeping. Work that waits for the clock
// alone (a backoff, a grace period) does not count: on a fake clock, step
// it and call WaitIdle again.
func (c *Cluster) WaitIdle(ctx context.Context) error {
	select {
	case <-c.readyCh:
	case <-ctx.Done():
		return ctx.Err()
	}
	c.mu.Lock()
	comps, server := c.comps, c.server
	c.mu.Unlock()
	if comps == nil {
		return nil
	}
	return waitIdle(ctx, server, comps)
}

// ErrNotReady is returned by methods that need a running cluster.
var ErrNotReady = errors.New("cluster: not ready")

package apiserver

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/audit"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/authz"
	authzrbac "github.com/minicp/minicp/apiserver/authz/rbac"
	"github.com/minicp/minicp/apiserver/filters"
	"github.com/minicp/minicp/apiserver/flowcontrol"
	"github.com/minicp/minicp/apiserver/metrics"
	"github.com/minicp/minicp/apiserver/responsewriters"
	"github.com/minicp/minicp/apiserver/webhookclient"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/watchcache"
)

// Options configures an API server. Etcd and an authentication method are
// required; everything else has a default.
type Options struct {
	// Etcd is the etcd client the server stores objects through. The
	// server does not close it.
	Etcd *clientv3.Client
	// StoragePrefix is the etcd key prefix of this cluster. Defaults to
	// "/registry". Clusters sharing one etcd use distinct prefixes.
	StoragePrefix string
	// Scheme holds the kinds and resources to serve. Defaults to
	// NewScheme(): the built-in kinds.
	Scheme *runtime.Scheme
	// Authenticator checks credentials (e.g. an authn.TokenFile).
	Authenticator authn.Authenticator
	// AnonymousAuth lets requests without credentials in as
	// system:anonymous (what the authorizer then allows is up to it).
	// Without it, only the public paths (authz.PublicPaths: health and
	// version) answer requests without credentials; the rest are 401.
	AnonymousAuth bool
	// Authorizer decides who may do what. Defaults to the authorizer
	// AuthorizationMode names.
	Authorizer authz.Authorizer
	// AuthorizationMode chooses the authorizer when Authorizer is nil, as
	// kube-apiserver's --authorization-mode: a comma-separated list of
	// authz.ModeNode (kubelets, limited to their own node's objects),
	// authz.ModeRBAC (what RBAC allows), authz.ModeAlwaysAllow (anyone
	// anything) and authz.ModeAllowAuthenticated (any authenticated user
	// anything), asked in order; system:masters may always do anything.
	// "Node,RBAC" is kube-apiserver's usual setup, and what package
	// cluster runs. Defaults to authz.ModeAllowAuthenticated, which a
	// server whose users are a test's alone needs no policy for.
	AuthorizationMode string
	// Admission defaults to DefaultAdmission: defaulting,
	// DefaultTolerationSeconds and the mutating webhooks, then
	// NamespaceLifecycle and the validating webhooks.
	Admission admission.Chain
	// Limits bound request sizes and concurrency; see filters.Limits.
	Limits filters.Limits
	// WatchCacheDisabled serves every request from etcd. Defaults to false:
	// each resource has a watch cache, as in kube-apiserver.
	WatchCacheDisabled bool
	// BookmarkFrequency is how often the watch cache sends a BOOKMARK to a
	// watch that allows them. Defaults to one minute, as kube-apiserver.
	BookmarkFrequency time.Duration
	// Clock defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
	// AuditSink receives one audit.k8s.io/v1 Event per request. Defaults
	// to audit.NewLogSink on Logger: a Debug record per request.
	AuditSink audit.Sink
	// MetricsGatherer holds metrics that /metrics serves besides the
	// server's own, such as those of the controllers and scheduler of the
	// same process. Optional. Its metric names must not clash with the
	// server's (apiserver_*, etcd_*).
	MetricsGatherer prometheus.Gatherer
	// DisableProfiling turns off /debug/pprof, which kube-apiserver's
	// --profiling serves by default.
	DisableProfiling bool
	// ProxyDialer connects pods/proxy and services/proxy to pod IPs.
	// Defaults to dialling them as they are, which reaches nothing unless
	// the machine routes the pod network; a cluster of simulated kubelets
	// gives one that finds the simulated servers.
	ProxyDialer func(ctx context.Context, network, address string) (net.Conn, error)
	// ServiceAccountSigningKey signs and verifies service account tokens
	// (kube-apiserver's --service-account-signing-key-file and
	// --service-account-key-file): an *ecdsa.PrivateKey or an
	// *rsa.PrivateKey. Defaults to a new P-256 key, so tokens issued
	// before a restart fail after it.
	ServiceAccountSigningKey crypto.Signer
	// ServiceAccountIssuer is the iss claim of service account tokens
	// (--service-account-issuer). Defaults to
	// authn.DefaultServiceAccountIssuer.
	ServiceAccountIssuer string
	// APIAudiences are the audiences a token must be for to authenticate
	// a request, and those of a token requested without any
	// (--api-audiences). Defaults to {ServiceAccountIssuer}.
	APIAudiences []string
	// ServiceAccountAdmission runs the ServiceAccount admission plugin in
	// DefaultAdmission: pods get a service account, which must exist, and
	// its token mounted. Off by default, as envtest runs kube-apiserver
	// (--disable-admission-plugins=ServiceAccount): with it, no pod can be
	// created in a namespace before the ServiceAccount controller has
	// made its "default" service account.
	ServiceAccountAdmission bool
	// Tracing, when set, traces each request as spans: the filters,
	// admission, the etcd transaction, and the watch cache's dispatch of
	// the event it wrote (package tracing). Defaults to nil: nothing
	// traced.
	Tracing *tracing.Tracing
}

// Server is a running API server's state: its resources and handler. It
// is safe for concurrent use.
type Server struct {
	scheme  *runtime.Scheme
	etcd    *clientv3.Client
	prefix  string
	clock   clock.Clock
	log     *slog.Logger
	tracing *tracing.Tracing
	handler http.Handler
	// filters is the handler chain in request order, outermost first.
	filters []filter
	// proxyDialer is Options.ProxyDialer.
	proxyDialer func(ctx context.Context, network, address string) (net.Conn, error)

	// metrics are the server's own, on metricsRegistry; gatherer is
	// what /metrics serves: those and Options.MetricsGatherer.
	metrics         *metrics.Metrics
	metricsRegistry *prometheus.Registry
	gatherer        prometheus.Gatherer
	profiling       bool
	// flowControl is API Priority and Fairness, which the limits filter
	// dispatches through and runFlowControlConfig configures; the
	// latter closes flowControlSyncedCh once it has read the objects.
	flowControl         *flowcontrol.Controller
	flowControlSyncedCh chan struct{}

	admission admission.Chain
	// conversionWebhooks calls the conversion webhooks of custom
	// resources, keeping one transport per webhook.
	conversionWebhooks webhookclient.Client

	// authorizer is the authorization hop's (Options.Authorizer or the
	// one AuthorizationMode names); the access reviews ask it too.
	authorizer authz.Authorizer
	// authorizationModes are the modes of Options.AuthorizationMode, in
	// order; none with a custom Options.Authorizer.
	authorizationModes []string
	// rbac is the RBAC authorizer over the server's RBAC resources, used
	// by the RBAC registry's escalation checks whatever the mode.
	rbac *authzrbac.Authorizer
	// policyReadyCh is closed once the default RBAC policy is reconciled.
	policyReadyCh chan struct{}

	// saSigner issues service account tokens; apiAudiences are the
	// server's own audiences; tokenAuthenticators are what a TokenReview
	// asks.
	saSigner            *authn.ServiceAccountSigner
	apiAudiences        []string
	tokenAuthenticators authn.TokenUnion
	// serviceAccountAdmission is Options.ServiceAccountAdmission.
	serviceAccountAdmission bool

	watchCacheDisabled bool
	bookmarkFrequency  time.Duration

	// mu guards the fields below.
	mu        sync.RWMutex
	resources map[runtime.GroupVersionResource]*resource
	// cachers are the watch caches of the installed resources, with the
	// cancel func of each one's context once it runs.
	cachers     map[*watchcache.Cacher]context.CancelFunc
	readyChecks []HealthCheck
	// runCtx is Start's context, nil before Start: a resource installed
	// while the server runs (a CRD's) starts its watch cache under it.
	runCtx context.Context
	// stopping is set once runCtx is done, before Start waits for wg: no
	// goroutine starts after that.
	stopping bool

	// wg counts the goroutines Start and InstallResource start: one per
	// watch cache, and the server's own controllers.
	wg sync.WaitGroup

	// crdsSyncedCh is closed once the CRD controller has served every
	// CRD stored when the server started: until then a custom resource
	// may answer 404 only because its CRD is not read yet.
	crdsSyncedCh chan struct{}
}

// New builds an API server over opts.Etcd serving every resource of the
// Scheme. It does not listen: call Serve, or use Handler in process.
func New(opts Options) (*Server, error) {
	if opts.Etcd == nil {
		return nil, errors.New("apiserver: Etcd is required")
	}
	if opts.Authenticator == nil && !opts.AnonymousAuth {
		return nil, errors.New("apiserver: an Authenticator or AnonymousAuth is required")
	}
	if opts.StoragePrefix == "" {
		opts.StoragePrefix = "/registry"
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	log := logging.OrDiscard(opts.Logger).With("component", "apiserver")
	s := &Server{
		scheme:    opts.Scheme,
		etcd:      opts.Etcd,
		prefix:    opts.StoragePrefix,
		clock:     opts.Clock,
		log:       log,
		tracing:   opts.Tracing,
		resources: map[runtime.GroupVersionResource]*resource{},
		cachers:   map[*watchcache.Cacher]context.CancelFunc{},

		crdsSyncedCh:  make(chan struct{}),
		policyReadyCh: make(chan struct{}),

		flowControlSyncedCh: make(chan struct{}),

		watchCacheDisabled: opts.WatchCacheDisabled,
		bookmarkFrequency:  opts.BookmarkFrequency,
		profiling:          !opts.DisableProfiling,
		proxyDialer:        opts.ProxyDialer,

		serviceAccountAdmission: opts.ServiceAccountAdmission,
	}
	s.initMetrics(opts.MetricsGatherer)
	s.flowControl = newFlowControl(opts.Limits, s.metricsRegistry)
	if s.scheme == nil {
		var err error
		if s.scheme, err = NewScheme(); err != nil {
			return nil, err
		}
	}
	if err := s.setAuthorizer(opts); err != nil {
		return nil, err
	}
	s.admission = opts.Admission
	if s.admission == nil {
		s.admission = DefaultAdmission(s)
	}
	if err := s.installBuiltinResources(); err != nil {
		return nil, err
	}

	saTokens, err := s.setServiceAccountTokens(opts)
	if err != nil {
		return nil, err
	}
	s.installServiceAccountToken()
	// Service account tokens are tried after the given authenticators,
	// as kube-apiserver orders its token authenticators.
	authenticator := authn.Union{saTokens}
	s.tokenAuthenticators = authn.TokenUnion{saTokens}
	if opts.Authenticator != nil {
		authenticator = authn.Union{opts.Authenticator, saTokens}
		s.tokenAuthenticators = append(authn.TokenAuthenticators(opts.Authenticator), saTokens)
	}
	// Without AnonymousAuth, the health and version endpoints still
	// answer anonymously, what system:public-info-viewer grants
	// system:unauthenticated.
	requestAuthenticator := authn.WithAnonymousPaths(authenticator, authz.PublicPaths())
	if opts.AnonymousAuth {
		requestAuthenticator = authn.WithAnonymous(authenticator)
	}
	auditSink := opts.AuditSink
	if auditSink == nil {
		auditSink = audit.NewLogSink(log.With("component", "audit"))
	}
	s.filters = []filter{
		{"panic-recovery", func(h http.Handler) http.Handler { return filters.WithPanicRecovery(h, log) }},
		{"request-info", filters.WithRequestInfo},
		{"tracing", func(h http.Handler) http.Handler { return filters.WithTracing(h, s.tracer()) }},
		{"metrics", func(h http.Handler) http.Handler { return filters.WithMetrics(h, s.metrics, s.kindFor, opts.Clock) }},
		{"authentication", filters.TracedHop(tracing.HopAuthn, s.tracer(), func(h http.Handler) http.Handler {
			return filters.WithAuthentication(h, requestAuthenticator, log)
		}, userAttributes)},
		{"audit", func(h http.Handler) http.Handler { return filters.WithAudit(h, auditSink, opts.Clock) }},
		{"impersonation", func(h http.Handler) http.Handler { return filters.WithImpersonation(h, s.authorizer) }},
		{"authorization", filters.TracedHop(tracing.HopAuthz, s.tracer(), func(h http.Handler) http.Handler {
			return filters.WithAuthorization(h, s.authorizer, log)
		}, nil)},
		{"limits", func(h http.Handler) http.Handler { return filters.WithLimits(h, opts.Limits, s.flowControl) }},
	}
	s.handler = handlerChain(s.routes(), s.filters)
	return s, nil
}

// filter is one named step of the handler chain.
type filter struct {
	name string
	wrap func(http.Handler) http.Handler
}

// handlerChain wraps h so a request passes the filters in the order
// listed: chain[0] sees it first.
func handlerChain(h http.Handler, chain []filter) http.Handler {
	for i := len(chain) - 1; i >= 0; i-- {
		h = chain[i].wrap(h)
	}
	return h
}

// Start runs the server's background work until ctx is done: the watch
// caches, including those of resources installed later (a CRD's), and
// the controllers of custom resource definitions. It returns once all of
// it has stopped, or an error at once if called twice. Requests for a
// resource wait until its cache has synced, so Start must run for the
// server to answer; /readyz says when every cache has. Shutdown:
//
//  1. ctx is done: every watch cache stops, ending its open watches;
//  2. no goroutine starts any more (stopping);
//  3. Start waits for every goroutine it or InstallResource started.
func (s *Server) Start(ctx context.Context) error {
	s.mu.Lock()
	if s.runCtx != nil {
		s.mu.Unlock()
		return errors.New("apiserver: Start called more than once")
	}
	s.runCtx = ctx
	for c := range s.cachers {
		s.startCacherLocked(c)
	}
	s.mu.Unlock()
	s.goUnlessStopping(func() { s.runCRDController(ctx) })
	s.goUnlessStopping(func() { s.runBootstrapPolicy(ctx) })
	s.goUnlessStopping(func() { s.runFlowControlConfig(ctx) })
	<-ctx.Done()
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// startCacherLocked runs c under its own context, a child of Start's, so
// that uninstalling its resource stops it alone. s.mu must be held and
// Start must have begun.
func (s *Server) startCacherLocked(c *watchcache.Cacher) {
	if s.stopping {
		return
	}
	ctx, cancel := context.WithCancel(s.runCtx)
	s.cachers[c] = cancel
	s.wg.Go(func() {
		if err := c.Start(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("watch cache stopped", "err", err)
		}
	})
}

// goUnlessStopping starts fn as one of the server's goroutines, unless
// the server is stopping: under s.mu, so no goroutine joins wg after
// Start began to wait for it.
func (s *Server) goUnlessStopping(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping {
		return
	}
	s.wg.Go(fn)
}

// WaitReady blocks until every watch cache has synced, the custom
// resources of the CRDs stored at start are served, the default RBAC
// policy is reconciled and the flow control configuration read, or ctx
// is done.
func (s *Server) WaitReady(ctx context.Context) error {
	s.mu.RLock()
	cachers := slices.Collect(maps.Keys(s.cachers))
	s.mu.RUnlock()
	for _, c := range cachers {
		if err := c.WaitReady(ctx); err != nil {
			return err
		}
	}
	for _, ch := range []chan struct{}{s.crdsSyncedCh, s.policyReadyCh, s.flowControlSyncedCh} {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// checkCRDsSynced is the /readyz check of the CRD controller's first
// sync (upstream: the crd-informer-synced post-start hook).
func (s *Server) checkCRDsSynced(context.Context) error {
	select {
	case <-s.crdsSyncedCh:
		return nil
	default:
		return errors.New("custom resource definitions not served yet")
	}
}

// checkWatchCaches is the /readyz check of the watch caches.
func (s *Server) checkWatchCaches(context.Context) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for c := range s.cachers {
		select {
		case <-c.Ready():
		default:
			return errors.New("watch cache not synced")
		}
	}
	return nil
}

// Handler is the whole server as an http.Handler, filters included: what
// an in-process client calls instead of going over TCP.
func (s *Server) Handler() http.Handler { return s.handler }

// Scheme returns the kinds and resources the server serves.
func (s *Server) Scheme() *runtime.Scheme { return s.scheme }

// AddReadyzCheck adds a check to /readyz, such as "the watch cache has
// synced".
func (s *Server) AddReadyzCheck(c HealthCheck) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readyChecks = append(s.readyChecks, c)
}

// routes maps paths to handlers. Unknown paths get a 404 Status and
// unsupported methods a 405 Status, never a bare text error.
func (s *Server) routes() http.Handler {
	// SkipClean: gorilla/mux would answer a path with "..", "." or "//"
	// segments with a 301 to its cleaned form, without a Status body, and
	// a client following it would run a request it never sent (a DELETE of
	// "configmaps/..%2Fsecrets" becoming one of secrets). Unclean paths
	// are matched as they are instead, so they name no object or route and
	// get a 404 Status, as kube-apiserver answers them.
	r := mux.NewRouter().SkipClean(true)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		responsewriters.WriteError(w, req, notFoundPath())
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		responsewriters.WriteError(w, req, methodNotAllowed(req.Method))
	})
	get := []string{http.MethodGet, http.MethodHead}
	r.Handle("/healthz", serveHealth("healthz", s.liveChecks)).Methods(get...)
	r.Handle("/livez", serveHealth("livez", s.liveChecks)).Methods(get...)
	r.Handle("/readyz", serveHealth("readyz", s.allReadyChecks)).Methods(get...)
	r.HandleFunc("/version", s.serveVersion).Methods(get...)
	r.HandleFunc(openIDConfigurationPath, s.serveOpenIDConfiguration).Methods(get...)
	r.HandleFunc(jwksPath, s.serveJWKS).Methods(get...)
	r.Handle("/metrics", s.metricsHandler()).Methods(get...)
	if s.profiling {
		installProfiling(r)
	}
	if s.tracing != nil {
		r.HandleFunc(tracesPath, s.serveTraces).Methods(get...)
	}
	r.HandleFunc(watchCachePath, s.serveWatchCache).Methods(get...)
	r.HandleFunc("/openapi/v2", s.serveOpenAPIV2).Methods(get...)
	r.HandleFunc("/openapi/v3", s.serveOpenAPIV3Root).Methods(get...)
	r.PathPrefix("/openapi/v3/").HandlerFunc(s.serveOpenAPIV3).Methods(get...)
	r.HandleFunc("/api", s.serveAPIVersions).Methods(get...)
	r.HandleFunc("/api/", s.serveAPIVersions).Methods(get...)
	r.HandleFunc("/api/{version}", s.serveAPIResourceList).Methods(get...)
	r.HandleFunc("/apis", s.serveAPIGroupList).Methods(get...)
	r.HandleFunc("/apis/", s.serveAPIGroupList).Methods(get...)
	r.HandleFunc("/apis/{group}", s.serveAPIGroup).Methods(get...)
	r.HandleFunc("/apis/{group}/{version}", s.serveAPIResourceList).Methods(get...)
	r.PathPrefix("/api/{version}/").HandlerFunc(s.serveResource)
	r.PathPrefix("/apis/{group}/{version}/").HandlerFunc(s.serveResource)
	return r
}

func (s *Server) serveVersion(w http.ResponseWriter, r *http.Request) {
	responsewriters.WriteObject(w, r, http.StatusOK, Version)
}

func (s *Server) liveChecks() []HealthCheck {
	return []HealthCheck{
		{Name: "ping", Check: func(context.Context) error { return nil }},
		{Name: "etcd", Check: s.checkEtcd},
	}
}

func (s *Server) allReadyChecks() []HealthCheck {
	s.mu.RLock()
	defer s.mu.RUnlock()
	checks := append(s.liveChecks(), HealthCheck{Name: "watch-cache", Check: s.checkWatchCaches},
		HealthCheck{Name: "crd-informer-synced", Check: s.checkCRDsSynced},
		HealthCheck{Name: "poststarthook/rbac/bootstrap-roles", Check: s.checkBootstrapPolicy})
	return append(checks, s.readyChecks...)
}

// checkEtcd reads one key: it proves etcd answers and has a leader.
func (s *Server) checkEtcd(ctx context.Context) error {
	_, err := s.etcd.Get(ctx, s.prefix+"/health", clientv3.WithCountOnly())
	return err
}

// Serve serves HTTP on ln until ctx is done, then shuts down:
//
//  1. ctx is cancelled, which cancels every request's context, so
//     long-running watches return;
//  2. the listener closes and idle connections are closed;
//  3. Serve waits up to shutdownTimeout for in-flight requests, then
//     closes the connections still open and returns.
//
// Serve closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler: s.handler,
		// Slow clients may not hold a connection open without sending
		// headers: 10s is far more than any real client needs.
		ReadHeaderTimeout: 10 * time.Second,
		// A keep-alive connection with no request on it is closed after
		// 90s, kube-apiserver's value (http.DefaultTransport's own idle
		// timeout); a slow body is bounded by filters.Limits.RequestTimeout.
		IdleTimeout: 90 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx },
		ErrorLog:    slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errCh := make(chan error, 1)
	go func() { errCh <- srv.Serve(ln) }()
	s.log.Info("serving", "addr", ln.Addr().String())
	select {
	case err := <-errCh:
		return fmt.Errorf("apiserver: serve: %w", err)
	case <-ctx.Done():
	}
	// Handlers are already unblocked by ctx; this bounds the wait for
	// responses still being written.
	const shutdownTimeout = 5 * time.Second
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		// Connections still open after the timeout (a client that opened
		// one and never sent a request) are cut: stopping is not a failure.
		err = srv.Close()
	}
	<-errCh
	s.log.Info("stopped")
	return err
}

package manager

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/healthz"
	"github.com/minicp/minicp/controllers/leaderelection"
	"github.com/minicp/minicp/controllers/metrics"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/wait"
)

// DefaultLeaderElectionNamespace is where the Lease lives unless
// Options.LeaderElectionNamespace says otherwise, as for
// kube-controller-manager.
const DefaultLeaderElectionNamespace = "kube-system"

// Options configures New. Only Client is required.
type Options struct {
	// Client reaches the API server; its scheme is the Manager's. Required.
	Client *client.Client
	// SyncPeriod is how often the cache re-delivers every object to the
	// controllers. Defaults to cache.DefaultSyncPeriod (10 hours).
	SyncPeriod time.Duration

	// LeaderElection makes the Manager campaign for a Lease and start the
	// runnables that need leader election only once elected. Defaults to
	// false: they start at once.
	LeaderElection bool
	// LeaderElectionID is the Lease's name. Required with LeaderElection.
	LeaderElectionID string
	// LeaderElectionNamespace is the Lease's namespace. Defaults to
	// DefaultLeaderElectionNamespace.
	LeaderElectionNamespace string
	// LeaderElectionIdentity is this Manager's name among the candidates.
	// Defaults to the hostname and a random suffix, as upstream.
	LeaderElectionIdentity string
	// LeaderElectionReleaseOnCancel makes a Manager that stops release the
	// Lease once its leader runnables have stopped, so another takes over
	// at once instead of after LeaseDuration. Defaults to true: Start
	// returns only after every runnable stopped, so nothing acts as leader
	// after the release. (Upstream defaults it to false.) Set it to false
	// to stop as a crashed leader would.
	LeaderElectionReleaseOnCancel *bool
	// LeaseDuration, RenewDeadline and RetryPeriod default to
	// leaderelection's DefaultLeaseDuration (15s), DefaultRenewDeadline
	// (10s) and DefaultRetryPeriod (2s).
	LeaseDuration time.Duration
	RenewDeadline time.Duration
	RetryPeriod   time.Duration

	// HealthProbeBindAddress is where Start serves /healthz and /readyz,
	// such as ":8081". Defaults to "": not served (HealthProbeHandler can
	// be mounted elsewhere).
	HealthProbeBindAddress string

	// Clock drives the cache, leader election, controllers' delays and
	// event timestamps. Defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
	// MetricsRegistry is where the Manager's controllers record their
	// metrics (controllers/metrics): reconciles and work queues.
	// Defaults to nil: none. Upstream registers them on one global
	// registry; here each Manager takes one, as many share a process.
	MetricsRegistry prometheus.Registerer
	// Tracing, when set, traces the Manager's informers and each
	// reconcile of its controllers, linked to the writes that caused it;
	// the writes a reconcile makes join its trace. Defaults to nil:
	// nothing traced.
	Tracing *tracing.Tracing
	// Name names the Manager in traces (its informers' component).
	// Defaults to "manager".
	Name string
	// ClientBuilder, when set, gives each controller that asks
	// (GetClientFor) a client of its own, acting as its own identity, as
	// kube-controller-manager's --use-service-account-credentials does;
	// the cache, leader election and event recorders keep Client.
	// Defaults to nil: every controller acts with Client.
	ClientBuilder ClientBuilder
}

// ClientBuilder returns the client a named controller acts with. It is
// called once per controller, while controllers are added, and must be
// safe for concurrent use.
//
// Upstream: k8s.io/controller-manager/pkg/clientbuilder
// (ControllerClientBuilder.Client).
type ClientBuilder func(name string) (*client.Client, error)

// leaderHealthTolerance is how long past LeaseDuration a leader may go
// without renewing before its healthz check fails: kube-controller-manager's
// 20 seconds, long enough that one slow renewal is not fatal.
const leaderHealthTolerance = 20 * time.Second

// Manager runs Runnables over a shared cache, on the leader only when
// they need it. Make one with New, add controllers (builder.
// ControllerManagedBy, controller.New) and Runnables, then Start it. It is
// safe for concurrent use.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager (controllerManager).
type Manager struct {
	client    *client.Client
	clientset *client.Clientset
	// clientBuilder is Options.ClientBuilder; nil means client for all.
	clientBuilder ClientBuilder
	cache         *cache.Cache
	clock         clock.Clock
	tracing       *tracing.Tracing
	// baseLog is the Options' Logger, for what the Manager makes
	// (controllers, recorders); log is scoped to the Manager.
	baseLog    *slog.Logger
	log        *slog.Logger
	elector    *leaderelection.LeaderElector
	healthAddr string
	electedCh  chan struct{}
	runningCh  chan struct{}
	failedCh   chan struct{}
	failOnce   sync.Once
	// electorDoneCh receives the elector's Start result until it is read,
	// and electorWG counts the elector's goroutine; only Start's goroutine
	// uses them.
	electorDoneCh chan error
	electorWG     sync.WaitGroup
	// stoppedCh is closed once Start has stopped everything (or failed to
	// start).
	stoppedCh chan struct{}
	// lifecycle is notified when runningCh or stoppedCh closes, for
	// IdleChanged: one channel that covers both.
	lifecycle wait.Broadcast

	// mu guards the fields below.
	mu       sync.Mutex
	started  bool
	stopping bool
	stopped  bool
	// runnables run on every manager; leaderRunnables only on the leader.
	runnables       []Runnable
	leaderRunnables []Runnable
	// othersCtx and leaderCtx are set when their group starts; a Runnable
	// added later starts at once under them.
	othersCtx context.Context
	leaderCtx context.Context
	// othersWG and leaderWG count the running runnables of each group;
	// Add only under mu and before stopping.
	othersWG sync.WaitGroup
	leaderWG sync.WaitGroup
	// idlers are the started runnables that are wait.Idlers: the
	// Manager's Idle asks every one of them. This optional capability of
	// a Runnable (controllers have it) is checked in startLocked.
	idlers       []wait.Idler
	errs         []error
	healthChecks []healthz.NamedCheck
	readyChecks  []healthz.NamedCheck
	recorders    map[string]*record.Recorder

	// metrics are created once on Options.MetricsRegistry; nil without.
	metrics *metrics.Metrics
}

// New validates opts and returns a Manager with a cache and no runnables.
// It does not contact the server.
func New(opts Options) (*Manager, error) {
	if opts.Client == nil {
		return nil, errors.New("manager: Client is required")
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	base := logging.OrDiscard(opts.Logger)
	cs, err := client.NewClientset(opts.Client)
	if err != nil {
		return nil, fmt.Errorf("manager: %w", err)
	}
	if opts.Name == "" {
		opts.Name = "manager"
	}
	c, err := cache.New(cache.Options{Client: opts.Client, SyncPeriod: opts.SyncPeriod, Clock: opts.Clock, Logger: base,
		Tracing: opts.Tracing, Component: opts.Name})
	if err != nil {
		return nil, fmt.Errorf("manager: %w", err)
	}
	m := &Manager{
		client:        opts.Client,
		clientset:     cs,
		clientBuilder: opts.ClientBuilder,
		cache:         c,
		clock:         opts.Clock,
		tracing:       opts.Tracing,
		baseLog:       base,
		log:           base.With("component", "manager"),
		healthAddr:    opts.HealthProbeBindAddress,
		electedCh:     make(chan struct{}),
		runningCh:     make(chan struct{}),
		failedCh:      make(chan struct{}),
		stoppedCh:     make(chan struct{}),
		recorders:     map[string]*record.Recorder{},
	}
	if opts.MetricsRegistry != nil {
		if m.metrics, err = metrics.New(opts.MetricsRegistry); err != nil {
			return nil, fmt.Errorf("manager: %w", err)
		}
	}
	if opts.LeaderElection {
		if m.elector, err = newElector(opts, cs, base); err != nil {
			return nil, err
		}
	}
	m.healthChecks = []healthz.NamedCheck{{Name: "ping", Check: healthz.Ping}}
	if m.elector != nil {
		m.healthChecks = append(m.healthChecks, healthz.NamedCheck{Name: "leaderElection", Check: func(*http.Request) error {
			return m.elector.Check(leaderHealthTolerance)
		}})
	}
	m.readyChecks = []healthz.NamedCheck{{Name: "informers", Check: m.checkInformers}}
	return m, nil
}

// newElector builds the Manager's LeaderElector from opts.
func newElector(opts Options, cs *client.Clientset, log *slog.Logger) (*leaderelection.LeaderElector, error) {
	if opts.LeaderElectionID == "" {
		return nil, errors.New("manager: LeaderElectionID is required with LeaderElection")
	}
	ns := opts.LeaderElectionNamespace
	if ns == "" {
		ns = DefaultLeaderElectionNamespace
	}
	identity := opts.LeaderElectionIdentity
	if identity == "" {
		host, err := os.Hostname()
		if err != nil {
			return nil, fmt.Errorf("manager: leader election identity: %w", err)
		}
		identity = host + "_" + rand.Text()
	}
	release := opts.LeaderElectionReleaseOnCancel == nil || *opts.LeaderElectionReleaseOnCancel
	le, err := leaderelection.New(leaderelection.Options{
		Leases: cs.Leases(ns), Name: opts.LeaderElectionID, Identity: identity,
		LeaseDuration: opts.LeaseDuration, RenewDeadline: opts.RenewDeadline, RetryPeriod: opts.RetryPeriod,
		ReleaseOnCancel: release, Clock: opts.Clock, Logger: log,
	})
	if err != nil {
		return nil, fmt.Errorf("manager: %w", err)
	}
	return le, nil
}

// GetClient returns the client the Manager was made with; build typed
// clients with client.NewResource or client.NewClientset over it.
func (m *Manager) GetClient() *client.Client { return m.client }

// GetClientFor returns the client the controller name acts with:
// Options.ClientBuilder's for name, or GetClient's without one. name is
// the controller's identity, such as "deployment-controller" (upstream's
// ClientOrDie argument, which names its ServiceAccount).
func (m *Manager) GetClientFor(name string) (*client.Client, error) {
	if m.clientBuilder == nil {
		return m.client, nil
	}
	c, err := m.clientBuilder(name)
	if err != nil {
		return nil, fmt.Errorf("manager: client for %s: %w", name, err)
	}
	return c, nil
}

// GetScheme returns the client's scheme.
func (m *Manager) GetScheme() *runtime.Scheme { return m.client.Scheme() }

// GetCache returns the shared informer cache; read it through
// cache.ListerFor.
func (m *Manager) GetCache() *cache.Cache { return m.cache }

// GetClock returns the Manager's clock, for controllers and runnables.
func (m *Manager) GetClock() clock.Clock { return m.clock }

// GetMetrics returns the metrics the Manager's controllers record into,
// nil when Options.MetricsRegistry was not set.
func (m *Manager) GetMetrics() *metrics.Metrics { return m.metrics }

// GetTracing returns the Manager's tracing, nil when Options.Tracing was
// not set.
func (m *Manager) GetTracing() *tracing.Tracing { return m.tracing }

// GetLogger returns the Options' logger, unscoped: each user adds its own
// component.
func (m *Manager) GetLogger() *slog.Logger { return m.baseLog }

// GetEventRecorderFor returns the event recorder of the component name,
// creating it on first use. Its writer runs with the Manager, leader or
// not; events recorded before Start wait in its bounded queue.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager
// (Manager.GetEventRecorderFor).
func (m *Manager) GetEventRecorderFor(name string) record.EventRecorder {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.recorders[name]; ok {
		return r
	}
	r := record.New(m.clientset, record.Options{Component: name, Clock: m.clock, Logger: m.baseLog})
	m.recorders[name] = r
	if !m.stopping {
		m.addLocked(recorderRunnable{r})
	}
	return r
}

// recorderRunnable runs a Recorder's writer on every manager.
type recorderRunnable struct{ *record.Recorder }

func (recorderRunnable) NeedLeaderElection() bool { return false }

// Elected returns a channel closed once this Manager leads (at Start,
// without LeaderElection) and its leader runnables are starting.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager (Manager.Elected).
func (m *Manager) Elected() <-chan struct{} { return m.electedCh }

// Add adds r. Before Start, it starts with the others; after Start, at
// once if its group runs (leader runnables once elected). It fails once
// the Manager is stopping.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager (Manager.Add).
func (m *Manager) Add(r Runnable) error {
	if r == nil {
		return errors.New("manager: nil runnable")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopping {
		return errors.New("manager: stopping: runnable not added")
	}
	m.addLocked(r)
	return nil
}

func (m *Manager) addLocked(r Runnable) {
	if needsLeader(r) {
		m.leaderRunnables = append(m.leaderRunnables, r)
		if m.leaderCtx != nil {
			m.startLocked(r, m.leaderCtx, &m.leaderWG)
		}
		return
	}
	m.runnables = append(m.runnables, r)
	if m.othersCtx != nil {
		m.startLocked(r, m.othersCtx, &m.othersWG)
	}
}

// startLocked runs r under ctx, counted by wg; an error stops the
// Manager.
func (m *Manager) startLocked(r Runnable, ctx context.Context, wg *sync.WaitGroup) {
	if i, ok := r.(wait.Idler); ok {
		m.idlers = append(m.idlers, i)
	}
	wg.Go(func() {
		if err := r.Start(ctx); err != nil {
			m.fail(err)
		}
	})
}

// fail records err and makes Start stop everything.
func (m *Manager) fail(err error) {
	m.mu.Lock()
	m.errs = append(m.errs, err)
	m.mu.Unlock()
	m.failOnce.Do(func() { close(m.failedCh) })
}

// Start runs the Manager until ctx is done, a runnable fails or the Lease
// is lost, then stops everything and returns: nil after a clean stop, the
// runnables' errors, or an error wrapping leaderelection.ErrLeaseLost. It
// fails at once if started before, or if the health probe address cannot
// be bound.
//
// Startup:
//
//  1. the health probes listen on HealthProbeBindAddress, if set;
//  2. the cache starts, and its informers requested so far sync;
//  3. the runnables that need no leader election start;
//  4. without LeaderElection, or once the Lease is acquired, Elected is
//     closed and the leader runnables (controllers) start.
//
// Shutdown, in order:
//
//  1. the leader runnables stop, and Start waits for them;
//  2. leader election stops: the Lease is released (see
//     LeaderElectionReleaseOnCancel) only now, so two leaders never act
//     at once;
//  3. the other runnables stop;
//  4. the cache's informers stop;
//  5. the health probe server shuts down.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager
// (controllerManager.Start, engageStopProcedure).
func (m *Manager) Start(ctx context.Context) error {
	m.mu.Lock()
	if m.started {
		m.mu.Unlock()
		return errors.New("manager: already started")
	}
	m.started = true
	m.mu.Unlock()

	var ln net.Listener
	if m.healthAddr != "" {
		var err error
		if ln, err = net.Listen("tcp", m.healthAddr); err != nil {
			m.markStopped()
			return fmt.Errorf("manager: health probes: %w", err)
		}
	}
	// Each group gets its own context, cancelled in shutdown order rather
	// than all at once by ctx; WithoutCancel keeps ctx's values.
	base := context.WithoutCancel(ctx)
	cacheCtx, stopCache := context.WithCancel(base)
	othersCtx, stopOthers := context.WithCancel(base)
	leaderCtx, stopLeader := context.WithCancel(base)
	electorCtx, stopElector := context.WithCancel(base)
	defer func() { stopCache(); stopOthers(); stopLeader(); stopElector() }()

	m.log.InfoContext(ctx, "starting")
	var srv *http.Server
	var serveWG, cacheWG sync.WaitGroup
	if ln != nil {
		srv = &http.Server{Handler: m.HealthProbeHandler(), ReadHeaderTimeout: healthReadHeaderTimeout}
		serveWG.Go(func() {
			if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				m.fail(fmt.Errorf("manager: health probes: %w", err))
			}
		})
	}
	cacheWG.Go(func() {
		if err := m.cache.Start(cacheCtx); err != nil {
			m.fail(err)
		}
	})

	// Upstream starts the other runnables once the caches requested so
	// far have synced, so they read a complete cache.
	if m.cache.WaitForCacheSync(ctx) == nil {
		m.mu.Lock()
		m.othersCtx = othersCtx
		for _, r := range m.runnables {
			m.startLocked(r, othersCtx, &m.othersWG)
		}
		m.mu.Unlock()
		m.run(ctx, leaderCtx, electorCtx)
	}

	m.log.InfoContext(ctx, "stopping")
	m.mu.Lock()
	m.stopping = true
	m.mu.Unlock()
	stopLeader()
	m.leaderWG.Wait()
	stopElector()
	m.waitElector()
	stopOthers()
	m.othersWG.Wait()
	stopCache()
	cacheWG.Wait()
	if srv != nil {
		shutdownCtx, cancel := context.WithTimeout(base, healthShutdownTimeout)
		_ = srv.Shutdown(shutdownCtx)
		cancel()
		serveWG.Wait()
	}
	m.markStopped()
	m.log.InfoContext(ctx, "stopped")
	m.mu.Lock()
	defer m.mu.Unlock()
	return errors.Join(m.errs...)
}

// healthReadHeaderTimeout bounds a prober's request header, so a stuck
// connection cannot hold a server goroutine; probes are tiny.
const healthReadHeaderTimeout = 5 * time.Second

// healthShutdownTimeout bounds the wait for probes in flight at shutdown:
// each answers in microseconds, so a second is plenty.
const healthShutdownTimeout = time.Second

// run starts the leader runnables once elected, and returns when ctx is
// done, a runnable failed or the Lease was lost.
func (m *Manager) run(ctx, leaderCtx, electorCtx context.Context) {
	var elected <-chan struct{}
	if m.elector == nil {
		// Started before runningCh is closed, so Idle never sees a running
		// Manager whose controllers are not started yet.
		m.startLeaderRunnables(ctx, leaderCtx)
	} else {
		elected = m.elector.Elected()
		// electorDoneCh has room for the result, so the elector never
		// blocks on it; waitElector (or the loop below) reads it.
		m.electorDoneCh = make(chan error, 1)
		m.electorWG.Go(func() { m.electorDoneCh <- m.elector.Start(electorCtx) })
	}
	close(m.runningCh)
	m.lifecycle.Notify()
	electorDoneCh := m.electorDoneCh
	for {
		select {
		case <-elected:
			elected = nil
			m.startLeaderRunnables(ctx, leaderCtx)
		case err := <-electorDoneCh:
			// The elector returns before electorCtx is cancelled only when
			// the Lease is lost (or it could not start).
			m.electorDoneCh = nil
			m.electorWG.Wait()
			if err != nil {
				m.log.ErrorContext(ctx, "leader election lost, stopping", "err", err)
				m.fail(fmt.Errorf("manager: %w", err))
			}
			return
		case <-m.failedCh:
			return
		case <-ctx.Done():
			return
		}
	}
}

// startLeaderRunnables starts the runnables that need leader election and
// closes Elected.
func (m *Manager) startLeaderRunnables(ctx, leaderCtx context.Context) {
	m.log.InfoContext(ctx, "elected: starting leader runnables")
	m.mu.Lock()
	m.leaderCtx = leaderCtx
	for _, r := range m.leaderRunnables {
		m.startLocked(r, leaderCtx, &m.leaderWG)
	}
	m.mu.Unlock()
	close(m.electedCh)
}

// waitElector waits for the elector to return, once its context is
// cancelled.
func (m *Manager) waitElector() {
	if m.electorDoneCh == nil {
		return
	}
	if err := <-m.electorDoneCh; err != nil {
		m.fail(fmt.Errorf("manager: %w", err))
	}
	m.electorDoneCh = nil
	m.electorWG.Wait()
}

// markStopped records that Start has stopped everything.
func (m *Manager) markStopped() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stopping, m.stopped = true, true
	close(m.stoppedCh)
	m.lifecycle.Notify()
}

package scheduler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/prometheus/client_golang/prometheus"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/scheduler/config"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/internal/cache"
	"github.com/minicp/minicp/scheduler/internal/queue"
	"github.com/minicp/minicp/scheduler/plugins"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/wait"
)

// Options configures New. Only Clientset is required.
type Options struct {
	// Clientset reaches the API server. Required.
	Clientset *client.Clientset
	// Config lists the profiles (one per schedulerName) and the backoff.
	// It is copied, defaulted (config.SetDefaults, and apiVersion and kind
	// when both are empty) and validated; the caller's value is not
	// changed. Defaults to config.Default().
	Config *config.KubeSchedulerConfiguration
	// Registry holds the plugins the profiles may name. Defaults to
	// plugins.NewInTreeRegistry().
	Registry framework.Registry
	// Clock drives the pods' backoff, the flush of unschedulable pods,
	// the informers' retry backoff, and event and condition timestamps.
	// (Conflict retries of status writes wait on the real clock: they race
	// other writers, not time.) Defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to discarding.
	Logger *slog.Logger
	// Rand breaks ties between the nodes of the best score. It is used
	// only by the scheduling loop. Defaults to a PCG seeded at random;
	// give a seeded one for reproducible placements.
	Rand *rand.Rand
	// Parallelism bounds the goroutines that filter and score the nodes of
	// one cycle. Defaults to Config.Parallelism.
	Parallelism int
	// MetricsRegistry is where the scheduler registers its metrics
	// (scheduler_schedule_attempts_total, scheduler_pending_pods).
	// Defaults to nil: none. One scheduler per registry.
	MetricsRegistry prometheus.Registerer
	// Tracing, when set, traces the scheduler's informers and each
	// scheduling cycle (filter, score, bind), linked to the write of the
	// pod it schedules; the binding joins the cycle's trace. Defaults to
	// nil: nothing traced.
	Tracing *tracing.Tracing
}

// Scheduler assigns unscheduled pods to nodes. Create it with New and run
// it with Start; see the package doc for the flow. Its methods are safe
// for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler (Scheduler).
type Scheduler struct {
	cs     *client.Clientset
	clock  clock.Clock
	logger *slog.Logger
	tracer trace.Tracer
	// revisions finds the writes of the pods the scheduler schedules.
	revisions *tracing.Revisions
	rand      *rand.Rand
	profiles  map[string]*profile

	cache    *cache.Cache
	queue    *queue.PriorityQueue
	metrics  *metrics
	snapshot *cache.Snapshot

	factory      *informer.SharedInformerFactory
	podInformer  *informer.SharedInformer
	nodeInformer *informer.SharedInformer
	podLister    *informer.Lister[*corev1.Pod]
	podsHandled  *informer.HandledTracker
	nodesHandled *informer.HandledTracker

	// changed is notified whenever Idle may have become true.
	changed *wait.Broadcast
	// readyCh is closed by Start once the informers have synced and the
	// handlers have handled what they hold.
	readyCh chan struct{}

	// bindingSlots holds a token per binding cycle running; its capacity
	// is maxBindingsInFlight.
	bindingSlots chan struct{}

	// mu guards started.
	mu      sync.Mutex
	started bool
	// wg counts every goroutine Start starts, the binding cycles
	// included; Start waits for it before it returns.
	wg sync.WaitGroup
}

// profile is one KubeSchedulerProfile at run time.
type profile struct {
	framework *framework.Framework
	recorder  *record.Recorder
}

// New validates opts and builds a scheduler that is not running: one
// framework and event recorder per profile, the cache, the queue, and the
// pod and node informers with their handlers.
func New(opts Options) (*Scheduler, error) {
	if opts.Clientset == nil {
		return nil, errors.New("scheduler: Options.Clientset is required")
	}
	cfg, err := effectiveConfig(opts.Config)
	if err != nil {
		return nil, err
	}
	if opts.Registry == nil {
		opts.Registry = plugins.NewInTreeRegistry()
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	if opts.Rand == nil {
		opts.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = int(cfg.Parallelism)
	}
	base := logging.OrDiscard(opts.Logger)
	s := &Scheduler{
		cs:        opts.Clientset,
		clock:     opts.Clock,
		logger:    base.With("component", "scheduler"),
		tracer:    opts.Tracing.Tracer("scheduler"),
		revisions: opts.Tracing.Revisions(),
		rand:      opts.Rand,
		profiles:  map[string]*profile{},
		cache:     cache.New(),
		snapshot:  cache.NewSnapshot(),
		changed:   &wait.Broadcast{},
		readyCh:   make(chan struct{}),

		bindingSlots: make(chan struct{}, maxBindingsInFlight),
	}
	for _, p := range cfg.Profiles {
		fwk, err := framework.New(framework.Options{Profile: p, Registry: opts.Registry,
			Parallelism: opts.Parallelism, Logger: base})
		if err != nil {
			return nil, fmt.Errorf("scheduler: profile %q: %w", p.SchedulerName, err)
		}
		// As upstream, events name the profile as their source, so
		// `kubectl describe` shows which scheduler placed the pod.
		rec := record.New(opts.Clientset, record.Options{Component: p.SchedulerName, Clock: opts.Clock, Logger: base})
		s.profiles[p.SchedulerName] = &profile{framework: fwk, recorder: rec}
	}
	s.queue = queue.New(queue.Options{
		Clock:             opts.Clock,
		PodInitialBackoff: time.Duration(cfg.PodInitialBackoffSeconds) * time.Second,
		PodMaxBackoff:     time.Duration(cfg.PodMaxBackoffSeconds) * time.Second,
		EventsToRegister:  eventsToRegister(),
		OnChange:          s.changed.Notify,
	})
	if s.metrics, err = newMetrics(opts.MetricsRegistry, s.queue); err != nil {
		return nil, err
	}
	s.factory, err = informer.NewSharedInformerFactory(informer.SharedInformerFactoryOptions{
		Client: opts.Clientset.Client(), Clock: opts.Clock, Logger: base,
		Tracing: opts.Tracing, Component: "scheduler",
	})
	if err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	if s.podInformer, err = s.factory.InformerFor(corev1.SchemeGroupVersion.WithResource("pods")); err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	if s.nodeInformer, err = s.factory.InformerFor(corev1.SchemeGroupVersion.WithResource("nodes")); err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	s.podLister = informer.NewLister[*corev1.Pod](s.podInformer.Indexer(), runtime.GroupResource{Resource: "pods"})
	s.podsHandled = informer.NewHandledTracker(s.changed)
	s.nodesHandled = informer.NewHandledTracker(s.changed)
	if err := s.addAllEventHandlers(); err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	return s, nil
}

// effectiveConfig is cfg (or the default) copied, defaulted and validated.
func effectiveConfig(in *config.KubeSchedulerConfiguration) (*config.KubeSchedulerConfiguration, error) {
	if in == nil {
		return config.Default(), nil
	}
	cfg := *in
	// A configuration built in Go rather than read from a file need not
	// spell out its kind.
	if cfg.APIVersion == "" && cfg.Kind == "" {
		cfg.APIVersion, cfg.Kind = config.APIVersion, config.Kind
	}
	// SetDefaults rewrites each profile's plugin sets in place: copy the
	// profiles so the caller's stay as they were.
	cfg.Profiles = append([]config.KubeSchedulerProfile(nil), in.Profiles...)
	config.SetDefaults(&cfg)
	if err := config.Validate(&cfg); err != nil {
		return nil, fmt.Errorf("scheduler: invalid configuration: %w", err)
	}
	return &cfg, nil
}

// Start runs the scheduler until ctx is done: the informers, the event
// recorders, the queue's timers, the scheduling loop and the binding
// cycles. It returns after every goroutine it started has exited, with the
// informers' errors, if any. It fails at once if called twice.
//
// Shutdown, when ctx ends:
//
//  1. the scheduling loop returns (Pop returns with ctx);
//  2. binding cycles in flight see their API calls fail, forget their
//     assumed pods and record nothing;
//  3. the queue's timer loop, the event recorders (dropping unwritten
//     events) and the informers stop;
//  4. Start waits for all of them, then returns.
func (s *Scheduler) Start(ctx context.Context) error {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return errors.New("scheduler: already started")
	}
	s.started = true
	s.mu.Unlock()

	s.logger.InfoContext(ctx, "starting", "profiles", s.profileNames())
	var factoryErr error
	s.wg.Go(func() { factoryErr = s.factory.Start(ctx) })
	for _, p := range s.profiles {
		s.wg.Go(func() { _ = p.recorder.Start(ctx) })
	}
	s.wg.Go(func() { s.queue.Run(ctx) })

	if err := s.waitForHandlersSync(ctx); err == nil {
		close(s.readyCh)
		s.logger.InfoContext(ctx, "ready")
		// The scheduling loop runs on Start's goroutine: one cycle at a
		// time, as upstream, so the snapshot and Rand need no lock.
		for ctx.Err() == nil {
			s.scheduleOne(ctx)
		}
	}

	s.logger.Info("stopping")
	s.wg.Wait()
	s.logger.Info("stopped")
	return factoryErr
}

// Ready returns a channel closed once the informers have synced and the
// scheduler's handlers have handled everything they listed: from then on
// the scheduler schedules. It is never closed if Start stops first.
func (s *Scheduler) Ready() <-chan struct{} { return s.readyCh }

// waitForHandlersSync waits for the informers' first LISTs and then for the
// handlers to catch up with them, so that the first cycle sees every node.
//
// Upstream: Scheduler.WaitForHandlersSync, which polls; here the handlers
// notify.
func (s *Scheduler) waitForHandlersSync(ctx context.Context) error {
	if err := s.factory.WaitForCacheSync(ctx); err != nil {
		return err
	}
	for {
		ch := s.changed.Wait()
		if s.handlersCaughtUp() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

func (s *Scheduler) profileNames() []string {
	names := make([]string, 0, len(s.profiles))
	for name := range s.profiles {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// WaitSyncedTo blocks until the scheduler's informers hold every change
// up to rv; see informer.SharedInformer.WaitSyncedTo.
func (s *Scheduler) WaitSyncedTo(ctx context.Context, rv int64) error {
	return s.factory.WaitSyncedTo(ctx, rv)
}

package controller

import (
	"context"
	"errors"
	"fmt"

	"github.com/minicp/minicp/controllers/internal/controller"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/controllers/source"
	"github.com/minicp/minicp/informer/workqueue"
	"github.com/minicp/minicp/wait"
)

// Options configures a controller. Only Reconciler is required.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/controller (Options).
type Options struct {
	// MaxConcurrentReconciles is how many Requests are reconciled at once.
	// Defaults to 1.
	MaxConcurrentReconciles int
	// RateLimiter times the retries of failed Requests. Defaults to
	// workqueue.DefaultControllerRateLimiter on the Manager's clock: 5ms
	// doubling to 1000s per Request, 10 retries a second overall.
	RateLimiter workqueue.RateLimiter[reconcile.Request]
	// Reconciler is called for each Request. Required.
	Reconciler reconcile.Reconciler
	// NeedLeaderElection says whether the controller runs only on the
	// elected Manager. Defaults to true.
	NeedLeaderElection *bool
}

// Controller reconciles the Requests its sources produce. It is a
// manager.Runnable (started by its Manager) and a wait.Idler. Safe for
// concurrent use.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/controller (Controller).
type Controller struct {
	c                  *controller.Controller
	needLeaderElection bool
}

var (
	_ manager.Runnable               = (*Controller)(nil)
	_ manager.LeaderElectionRunnable = (*Controller)(nil)
	_ wait.Idler                     = (*Controller)(nil)
)

// New makes a controller called name, with mgr's clock and logger, and
// adds it to mgr, which starts it.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/controller (New).
func New(name string, mgr *manager.Manager, opts Options) (*Controller, error) {
	if mgr == nil {
		return nil, errors.New("controller: nil manager")
	}
	c, err := NewUnmanaged(name, mgr, opts)
	if err != nil {
		return nil, err
	}
	if err := mgr.Add(c); err != nil {
		return nil, fmt.Errorf("controller %s: %w", name, err)
	}
	return c, nil
}

// NewUnmanaged is New without adding the controller to mgr: the caller
// starts it (or adds it later).
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/controller (NewUnmanaged).
func NewUnmanaged(name string, mgr *manager.Manager, opts Options) (*Controller, error) {
	if mgr == nil {
		return nil, errors.New("controller: nil manager")
	}
	if opts.MaxConcurrentReconciles == 0 {
		opts.MaxConcurrentReconciles = 1
	}
	if opts.RateLimiter == nil {
		opts.RateLimiter = workqueue.DefaultControllerRateLimiter[reconcile.Request](mgr.GetClock())
	}
	c, err := controller.New(controller.Options{
		Name:                    name,
		Reconciler:              opts.Reconciler,
		MaxConcurrentReconciles: opts.MaxConcurrentReconciles,
		RateLimiter:             opts.RateLimiter,
		Clock:                   mgr.GetClock(),
		Logger:                  mgr.GetLogger(),
		Metrics:                 mgr.GetMetrics(),
		Tracing:                 mgr.GetTracing(),
	})
	if err != nil {
		return nil, err
	}
	return &Controller{c: c, needLeaderElection: opts.NeedLeaderElection == nil || *opts.NeedLeaderElection}, nil
}

// Name returns the controller's name.
func (c *Controller) Name() string { return c.c.Name() }

// Watch adds a source of Requests, such as
// source.Kind(mgr.GetCache(), &corev1.Pod{}, handler.EnqueueRequestForObject{}).
// Before Start it starts with the controller, whose workers wait for it to
// sync; after Start it starts at once. It fails once the controller has
// stopped.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/controller (Controller.Watch).
func (c *Controller) Watch(src source.Source) error { return c.c.Watch(src) }

// Start runs the controller until ctx is done: its sources, then its
// workers once the sources have synced. It returns after all of them
// stopped, with the errors of sources that failed (a failed source stops
// the controller). The Manager calls it.
func (c *Controller) Start(ctx context.Context) error { return c.c.Start(ctx) }

// NeedLeaderElection implements manager.LeaderElectionRunnable.
func (c *Controller) NeedLeaderElection() bool { return c.needLeaderElection }

// Idle implements wait.Idler: the controller runs with its sources
// synced and caught up with their informers, nothing queued, nothing being
// reconciled and no delay due (or it has stopped). A controller not yet
// started is not idle.
func (c *Controller) Idle() bool { return c.c.Idle() }

// IdleChanged implements wait.Idler.
func (c *Controller) IdleChanged() <-chan struct{} { return c.c.IdleChanged() }

package cache

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/tracing"
)

// DefaultSyncPeriod is how often every cached object is re-delivered to
// the handlers, and so reconciled, even when nothing changed: ten hours,
// as controller-runtime. It is a safety net against a missed event or a
// reconciler bug, not a polling interval; reconcilers that need to look
// again sooner return Result.RequeueAfter.
const DefaultSyncPeriod = 10 * time.Hour

// Options configures New.
type Options struct {
	// Client reaches the API server; its scheme says which resources and
	// Go types exist. Required.
	Client *client.Client
	// SyncPeriod is every informer's resync period. Defaults to
	// DefaultSyncPeriod.
	SyncPeriod time.Duration
	// Clock drives resync and the informers' backoff. Defaults to
	// clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
	// Tracing and Component are the informers' (see
	// informer.SharedInformerOptions).
	Tracing   *tracing.Tracing
	Component string
}

// Cache hands out one informer per resource, started once the Cache is.
// It is safe for concurrent use.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/cache (informerCache).
type Cache struct {
	factory *informer.SharedInformerFactory
	scheme  *runtime.Scheme

	// mu guards informers: every informer handed out, for HasSynced.
	mu        sync.Mutex
	informers map[runtime.GroupVersionResource]*informer.SharedInformer
}

// New validates opts and returns a Cache with no informers.
func New(opts Options) (*Cache, error) {
	if opts.Client == nil {
		return nil, errors.New("cache: Client is required")
	}
	if opts.SyncPeriod == 0 {
		opts.SyncPeriod = DefaultSyncPeriod
	}
	if opts.SyncPeriod < 0 {
		return nil, fmt.Errorf("cache: SyncPeriod %v is negative", opts.SyncPeriod)
	}
	factory, err := informer.NewSharedInformerFactory(informer.SharedInformerFactoryOptions{
		Client:       opts.Client,
		ResyncPeriod: opts.SyncPeriod,
		Clock:        opts.Clock,
		Logger:       opts.Logger,
		Tracing:      opts.Tracing,
		Component:    opts.Component,
	})
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return &Cache{
		factory:   factory,
		scheme:    opts.Client.Scheme(),
		informers: map[runtime.GroupVersionResource]*informer.SharedInformer{},
	}, nil
}

// Scheme returns the scheme objects are resolved and decoded with.
func (c *Cache) Scheme() *runtime.Scheme { return c.scheme }

// ResourceFor returns the resource serving obj's Go type, such as pods for
// a *corev1.Pod (obj may be a typed nil pointer).
func (c *Cache) ResourceFor(obj runtime.Object) (runtime.ResourceInfo, error) {
	if obj == nil {
		return runtime.ResourceInfo{}, errors.New("cache: nil object")
	}
	gvk, err := c.scheme.ObjectKind(obj)
	if err != nil {
		return runtime.ResourceInfo{}, fmt.Errorf("cache: %w", err)
	}
	info, ok := c.scheme.ResourceForKind(gvk)
	if !ok {
		return runtime.ResourceInfo{}, fmt.Errorf("cache: no resource serves %s", gvk)
	}
	return info, nil
}

// GetInformer returns the informer of obj's resource, creating it on
// first use; it runs once the Cache is started (at once if it is).
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/cache (Informers.GetInformer).
func (c *Cache) GetInformer(obj runtime.Object) (*informer.SharedInformer, error) {
	info, err := c.ResourceFor(obj)
	if err != nil {
		return nil, err
	}
	return c.InformerFor(info.GVR)
}

// InformerFor returns the informer of gvr, creating it on first use.
func (c *Cache) InformerFor(gvr runtime.GroupVersionResource) (*informer.SharedInformer, error) {
	inf, err := c.factory.InformerFor(gvr)
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	c.mu.Lock()
	c.informers[gvr] = inf
	c.mu.Unlock()
	return inf, nil
}

// Start runs every informer, including those requested later, until ctx
// is done, and returns once they have all stopped.
func (c *Cache) Start(ctx context.Context) error {
	if err := c.factory.Start(ctx); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// WaitForCacheSync blocks until every informer requested so far has
// synced, or ctx ends (its error is returned).
func (c *Cache) WaitForCacheSync(ctx context.Context) error {
	return c.factory.WaitForCacheSync(ctx)
}

// HasSynced reports whether every informer requested so far has synced:
// the "informers synced" readiness check.
func (c *Cache) HasSynced() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, inf := range c.informers {
		if !inf.HasSynced() {
			return false
		}
	}
	return true
}

// Unsynced returns the Synced channel of an informer requested so far
// that has not synced yet, closed once it has; nil when every one has. A
// caller waiting for the whole Cache calls it again after it fires.
func (c *Cache) Unsynced() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, inf := range c.informers {
		if !inf.HasSynced() {
			return inf.Synced()
		}
	}
	return nil
}

// ListerFor returns a Lister of T's resource over c's informer of it, for
// example ListerFor[*corev1.Pod](c). The informer is created (and started
// with the Cache) if it was not; until it has synced the Lister sees
// nothing. The objects are shared with the cache: never modify them.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/cache (Cache.List and Get,
// which read the same informers untyped).
func ListerFor[T metav1.Object](c *Cache) (*informer.Lister[T], error) {
	var prototype T
	if any(prototype) == nil {
		return nil, errors.New("cache: ListerFor needs a pointer type such as *corev1.Pod, not an interface")
	}
	info, err := c.ResourceFor(prototype)
	if err != nil {
		return nil, err
	}
	inf, err := c.InformerFor(info.GVR)
	if err != nil {
		return nil, err
	}
	return informer.NewLister[T](inf.Indexer(), info.GVR.GroupResource()), nil
}

// WaitSyncedTo blocks until every informer of the cache holds every
// change up to rv; see informer.SharedInformer.WaitSyncedTo.
func (c *Cache) WaitSyncedTo(ctx context.Context, rv int64) error {
	return c.factory.WaitSyncedTo(ctx, rv)
}

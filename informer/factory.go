package informer

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
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/wait"
)

// SharedInformerFactoryOptions configures NewSharedInformerFactory.
type SharedInformerFactoryOptions struct {
	// Client reaches the API server; its scheme says which resources
	// exist. Required.
	Client *client.Client
	// Namespace restricts every informer to one namespace; "" (the
	// default) watches all of them.
	Namespace string
	// ResyncPeriod is every informer's default handler resync; 0 means
	// none.
	ResyncPeriod time.Duration
	// Backoff defaults to DefaultReflectorBackoff.
	Backoff *wait.Backoff
	// Clock defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
	// Tracing and Component are every informer's (see
	// SharedInformerOptions).
	Tracing   *tracing.Tracing
	Component string
}

// SharedInformerFactory hands out one SharedInformer per resource, so all
// the controllers of a program share one watch and one cache per resource.
// It is safe for concurrent use.
//
// Upstream: k8s.io/client-go/informers (sharedInformerFactory).
type SharedInformerFactory struct {
	opts SharedInformerFactoryOptions
	log  *slog.Logger

	// mu guards the fields below.
	mu        sync.Mutex
	informers map[runtime.GroupVersionResource]*SharedInformer
	// ctx is Start's context once started; informers requested later are
	// started under it. stopped is set once Start stops starting them.
	ctx     context.Context
	stopped bool
	// wg counts running informers; Add only under mu and before stopped.
	wg   sync.WaitGroup
	errs []error
}

// NewSharedInformerFactory validates opts and returns a factory with no
// informers.
func NewSharedInformerFactory(opts SharedInformerFactoryOptions) (*SharedInformerFactory, error) {
	if opts.Client == nil {
		return nil, errors.New("informer: factory needs a Client")
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	return &SharedInformerFactory{
		opts:      opts,
		log:       logging.OrDiscard(opts.Logger),
		informers: map[runtime.GroupVersionResource]*SharedInformer{},
	}, nil
}

// InformerFor returns the informer of gvr, creating it on first use. An
// informer created after Start is started at once. gvr must be in the
// client's scheme, whose Go types the informer's objects have. A custom
// resource is in it once the program registered its own types
// (runtime.Scheme.AddKnownTypes and AddResource), or once
// client.NewDynamicResource registered it, with unstructured objects.
//
// Upstream: k8s.io/client-go/informers (sharedInformerFactory.ForResource)
// and k8s.io/client-go/dynamic/dynamicinformer, which minicp folds into
// one factory.
func (f *SharedInformerFactory) InformerFor(gvr runtime.GroupVersionResource) (*SharedInformer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if inf, ok := f.informers[gvr]; ok {
		return inf, nil
	}
	res, err := client.NewResource[metav1.Object, metav1.ListInterface](f.opts.Client, gvr)
	if err != nil {
		return nil, fmt.Errorf("informer: %w", err)
	}
	if res.Info().Namespaced {
		res = res.Namespace(f.opts.Namespace)
	}
	inf, err := NewSharedInformer(SharedInformerOptions{
		ListerWatcher: res,
		Name:          gvr.GroupResource().String(),
		ResyncPeriod:  f.opts.ResyncPeriod,
		Backoff:       f.opts.Backoff,
		Clock:         f.opts.Clock,
		Logger:        f.log,
		Tracing:       f.opts.Tracing,
		Component:     f.opts.Component,
	})
	if err != nil {
		return nil, err
	}
	f.informers[gvr] = inf
	if f.ctx != nil && !f.stopped {
		f.startLocked(inf)
	}
	return inf, nil
}

// Start runs every informer, including the ones requested later, until ctx
// is done, then waits for all of them to stop. It returns their errors
// joined.
func (f *SharedInformerFactory) Start(ctx context.Context) error {
	f.mu.Lock()
	if f.ctx != nil {
		f.mu.Unlock()
		return errors.New("informer: factory already started")
	}
	f.ctx = ctx
	for _, inf := range f.informers {
		f.startLocked(inf)
	}
	f.mu.Unlock()

	<-ctx.Done()
	// No informer starts after this, so Wait cannot race a new Add.
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
	f.wg.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	return errors.Join(f.errs...)
}

func (f *SharedInformerFactory) startLocked(inf *SharedInformer) {
	ctx := f.ctx
	f.wg.Go(func() {
		if err := inf.Start(ctx); err != nil {
			f.mu.Lock()
			f.errs = append(f.errs, err)
			f.mu.Unlock()
		}
	})
}

// WaitForCacheSync blocks until every informer requested so far has synced,
// or ctx ends (its error is returned).
func (f *SharedInformerFactory) WaitForCacheSync(ctx context.Context) error {
	f.mu.Lock()
	informers := make([]*SharedInformer, 0, len(f.informers))
	for _, inf := range f.informers {
		informers = append(informers, inf)
	}
	f.mu.Unlock()
	for _, inf := range informers {
		if err := inf.WaitForSync(ctx); err != nil {
			return err
		}
	}
	return nil
}

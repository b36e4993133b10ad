package proxy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	"github.com/minicp/minicp/api/labels"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/informer"
)

// ServiceCacheOptions configure NewServiceCache. Clientset is required.
type ServiceCacheOptions struct {
	// Clientset reaches the API server. Required.
	Clientset *client.Clientset
	// OnChange is called, on an informer's goroutine, after every change
	// of a Service or an EndpointSlice (and every resync). It must not
	// block. Defaults to nothing.
	OnChange func()
	// ResyncPeriod is how often OnChange is called with no change.
	// Defaults to none.
	ResyncPeriod time.Duration
	// Clock defaults to clock.Real; Logger to discarding.
	Clock  clock.Clock
	Logger *slog.Logger
}

// ServiceCache is what both the proxy and cluster DNS read: the
// Services and EndpointSlices of every namespace, from informers on one
// factory. Create it with NewServiceCache and run Start; its methods are
// safe for concurrent use, and the objects they return are shared (the
// caller must not change them).
type ServiceCache struct {
	factory  *informer.SharedInformerFactory
	informer []*informer.SharedInformer
	services *informer.Lister[*corev1.Service]
	slices   *informer.Lister[*discoveryv1.EndpointSlice]
}

// NewServiceCache validates opts and returns a cache that is not running.
func NewServiceCache(opts ServiceCacheOptions) (*ServiceCache, error) {
	if opts.Clientset == nil {
		return nil, errors.New("proxy: ServiceCache needs a Clientset")
	}
	factory, err := informer.NewSharedInformerFactory(informer.SharedInformerFactoryOptions{
		Client: opts.Clientset.Client(), ResyncPeriod: opts.ResyncPeriod, Clock: opts.Clock, Logger: opts.Logger,
	})
	if err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	c := &ServiceCache{factory: factory}
	onChange := opts.OnChange
	if onChange == nil {
		onChange = func() {}
	}
	for _, gvr := range []runtime.GroupVersionResource{
		corev1.SchemeGroupVersion.WithResource("services"), discoveryv1.SchemeGroupVersion.WithResource("endpointslices"),
	} {
		inf, err := factory.InformerFor(gvr)
		if err != nil {
			return nil, fmt.Errorf("proxy: %w", err)
		}
		_, err = inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
			AddFunc:    func(runtime.Object, bool) { onChange() },
			UpdateFunc: func(runtime.Object, runtime.Object) { onChange() },
			DeleteFunc: func(any) { onChange() },
		}, informer.HandlerOptions{})
		if err != nil {
			return nil, fmt.Errorf("proxy: %w", err)
		}
		c.informer = append(c.informer, inf)
	}
	c.services = informer.NewLister[*corev1.Service](c.informer[0].Indexer(), runtime.GroupResource{Resource: "services"})
	c.slices = informer.NewLister[*discoveryv1.EndpointSlice](c.informer[1].Indexer(),
		runtime.GroupResource{Group: discoveryv1.GroupName, Resource: "endpointslices"})
	return c, nil
}

// Start runs the informers until ctx is done and returns once they have
// stopped.
func (c *ServiceCache) Start(ctx context.Context) error { return c.factory.Start(ctx) }

// WaitForSync blocks until both informers have synced, or ctx is done.
func (c *ServiceCache) WaitForSync(ctx context.Context) error {
	for _, inf := range c.informer {
		if err := inf.WaitForSync(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Services returns every Service.
func (c *ServiceCache) Services() ([]*corev1.Service, error) { return c.services.List(nil) }

// Service returns the Service ns/name; the error is a NotFound when there
// is none.
func (c *ServiceCache) Service(ns, name string) (*corev1.Service, error) {
	return c.services.Get(ns, name)
}

// SlicesOf returns the EndpointSlices of Service ns/name: those labelled
// with its name, whoever manages them.
func (c *ServiceCache) SlicesOf(ns, name string) ([]*discoveryv1.EndpointSlice, error) {
	return c.slices.ByNamespace(ns).List(labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: name}))
}

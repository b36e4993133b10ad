package endpoints

import (
	"context"
	"errors"
	"sync"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/controllers/source"
	"github.com/minicp/minicp/informer"
)

// leaderAnnotation marks the Endpoints an old-style leader election uses
// as its lock: they have no Service, and deleting them would force a
// new election.
const leaderAnnotation = "control-plane.alpha.kubernetes.io/leader"

// leftoverSource enqueues, once at start, the name of every Endpoints
// object in the cache: Endpoints whose Service was deleted while no
// controller ran are found by reconciling their name, and deleted. After
// start, Endpoints without a Service are left alone (they may be written
// before their selector-less Service), as upstream does.
//
// It is a SyncingSource, so the controller's workers (and its Idle) wait
// until these Requests are on the queue.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint
// (Controller.checkLeftoverEndpoints).
type leftoverSource struct {
	cache     *cache.Cache
	endpoints *informer.Lister[*corev1.Endpoints]
	// syncedCh is closed once the Requests are on the queue.
	syncedCh chan struct{}
	once     sync.Once
}

var _ source.SyncingSource = (*leftoverSource)(nil)

func newLeftoverSource(c *cache.Cache, endpoints *informer.Lister[*corev1.Endpoints]) *leftoverSource {
	return &leftoverSource{cache: c, endpoints: endpoints, syncedCh: make(chan struct{})}
}

// Start implements source.Source: it waits for the cache, enqueues every
// Endpoints' name and blocks until ctx is done.
func (s *leftoverSource) Start(ctx context.Context, q handler.Queue) error {
	started := false
	s.once.Do(func() { started = true })
	if !started {
		return errors.New("endpoints: leftover source started twice")
	}
	if err := s.cache.WaitForCacheSync(ctx); err != nil {
		return nil // stopping before the cache synced
	}
	list, err := s.endpoints.List(nil)
	if err != nil {
		return err
	}
	for _, ep := range list {
		if _, ok := ep.Annotations[leaderAnnotation]; ok {
			continue
		}
		q.Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ep.Namespace, Name: ep.Name}})
	}
	close(s.syncedCh)
	<-ctx.Done()
	return nil
}

// WaitForSync implements source.SyncingSource.
func (s *leftoverSource) WaitForSync(ctx context.Context) error {
	select {
	case <-s.syncedCh:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

package scheduler

import (
	"context"
	"fmt"
	"sync"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/wait"
)

// Idle implements wait.Idler. It reports whether the scheduler has nothing to do on its own: it is
// Ready, its handlers have handled every object their informers hold, no
// pod is waiting in the activeQ, no scheduling or binding cycle is in
// flight, and no pod's backoff (or five-minute wait as unschedulable) has
// run out. Pods backing off or waiting for a cluster event do not count:
// only a change in the cluster, or the clock, moves them.
//
// Idle cannot see what its informers have not received yet: a pod created
// a moment ago may still be on its way from the API server.
func (s *Scheduler) Idle() bool {
	select {
	case <-s.readyCh:
	default:
		return false
	}
	// The queue first, as a cheap early answer while busy; then the
	// handlers, then the queue again: whatever the handlers had handled is
	// in the queue by the time it is checked.
	return s.queue.Idle() && s.handlersCaughtUp() && s.queue.Idle()
}

// IdleChanged implements wait.Idler: a channel closed at the scheduler's
// readiness or its next change (a handler call, a queue change).
func (s *Scheduler) IdleChanged() <-chan struct{} {
	select {
	case <-s.readyCh:
		return s.changed.Wait()
	default:
		return s.readyCh
	}
}

// WaitIdle blocks until Idle holds, or ctx ends (its error is returned).
// It waits for changes, never polls. Tests use it as a quiescence
// barrier: step a fake clock, WaitIdle, then assert.
func (s *Scheduler) WaitIdle(ctx context.Context) error {
	if err := wait.WaitIdle(ctx, s); err != nil {
		return fmt.Errorf("scheduler: %w", err)
	}
	return nil
}

// WaitForNodes blocks until the scheduler's cache holds every node in
// names, or ctx ends (its error is returned). A cluster is ready to
// schedule only then: a pod created before would find no node and back
// off, and on a fake clock its backoff never runs out.
func (s *Scheduler) WaitForNodes(ctx context.Context, names ...string) error {
	for {
		ch := s.changed.Wait()
		if s.hasNodes(names) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("scheduler: wait for nodes: %w", ctx.Err())
		case <-ch:
		}
	}
}

func (s *Scheduler) hasNodes(names []string) bool {
	for _, name := range names {
		if !s.cache.HasNode(name) {
			return false
		}
	}
	return true
}

// handlersCaughtUp reports whether both informers have synced and their
// handlers have handled every object (at its current resourceVersion) the
// informers' Indexers hold.
func (s *Scheduler) handlersCaughtUp() bool {
	return s.podInformer.HasSynced() && s.nodeInformer.HasSynced() &&
		s.nodesHandled.caughtUp(s.nodeInformer.Indexer()) && s.podsHandled.caughtUp(s.podInformer.Indexer())
}

// handledTracker records, per object key, the resourceVersion a handler
// last handled, so Idle can tell whether the handler has caught up with
// its informer's Indexer. A Registration only says that the first LIST
// was handled, and offers no channel to wait on; the tracker covers every
// later change too and notifies on each. Safe for concurrent use.
type handledTracker struct {
	changed *wait.Broadcast
	// mu guards rvs: key -> resourceVersion of the last state handled; a
	// deleted object has no entry.
	mu  sync.Mutex
	rvs map[string]string
}

func newHandledTracker(changed *wait.Broadcast) *handledTracker {
	return &handledTracker{changed: changed, rvs: map[string]string{}}
}

// handled records obj as handled. The handler calls it after acting on
// obj, so a caught-up handler has also fed the queue and the cache.
func (t *handledTracker) handled(obj runtime.Object) {
	key, err := informer.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return // no metadata: the Indexer cannot hold it either
	}
	rv := metav1.MustAccessor(obj).ResourceVersion
	t.mu.Lock()
	t.rvs[key] = rv
	t.mu.Unlock()
	t.changed.Notify()
}

// deleted records the deletion of the object with key.
func (t *handledTracker) deleted(key string) {
	t.mu.Lock()
	delete(t.rvs, key)
	t.mu.Unlock()
	t.changed.Notify()
}

// caughtUp reports whether every object of indexer has been handled at
// its current resourceVersion, and no object the indexer no longer has is
// still recorded (its delete is handled). The indexer is read first, so a
// true answer means the handler had caught up with the indexer as it was
// then.
func (t *handledTracker) caughtUp(indexer *informer.Indexer) bool {
	objs := indexer.List()
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(objs) != len(t.rvs) {
		return false
	}
	for _, obj := range objs {
		key, err := informer.MetaNamespaceKeyFunc(obj)
		if err != nil {
			return false
		}
		if rv, ok := t.rvs[key]; !ok || rv != metav1.MustAccessor(obj).ResourceVersion {
			return false
		}
	}
	return true
}

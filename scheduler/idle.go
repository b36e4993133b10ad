package scheduler

import (
	"context"
	"fmt"

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
		s.nodesHandled.CaughtUp(s.nodeInformer.Indexer()) && s.podsHandled.CaughtUp(s.podInformer.Indexer())
}

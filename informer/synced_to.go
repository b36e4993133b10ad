package informer

import (
	"context"
	"fmt"
	"strconv"
)

// WaitSyncedTo blocks until the informer's Indexer holds every change up
// to rv, an etcd revision: the reflector has seen rv or later (a list, an
// event or a bookmark; changes reach the DeltaFIFO before the reflector
// moves on) and every delta queued before has been applied and handed to
// the handlers. A resource nobody wrote to reaches rv only by a bookmark,
// which the API server sends when asked (a cluster's idle barrier asks
// every watch cache to bookmark its watchers first). A reflector waiting
// out its backoff after a failure waits for its clock, which is not work:
// WaitSyncedTo returns then too. It returns ctx's error if neither
// happens first, and fails at once for an informer that has stopped.
//
// Upstream: none; it serves minicp's quiescence barrier (Cluster.WaitIdle).
func (s *SharedInformer) WaitSyncedTo(ctx context.Context, rv int64) error {
	for {
		// Take both channels before looking, so a change between the look
		// and the wait wakes the wait.
		moved, processed := s.progress.Wait(), s.fifo.Processed()
		done, err := s.syncedTo(rv)
		if done || err != nil {
			return err
		}
		select {
		case <-moved:
		case <-processed:
		case <-ctx.Done():
			return fmt.Errorf("informer %s: wait for resourceVersion %d: %w", s.name, rv, ctx.Err())
		}
	}
}

// syncedTo reports whether WaitSyncedTo(rv) may return.
func (s *SharedInformer) syncedTo(rv int64) (bool, error) {
	s.mu.Lock()
	stopped := s.stopped
	s.mu.Unlock()
	if stopped {
		return false, fmt.Errorf("informer %s: stopped", s.name)
	}
	s.mu.Lock()
	r := s.reflector
	s.mu.Unlock()
	if r != nil && r.BackingOff() {
		// Waiting for its clock after a failure: not work (see
		// wait.Idler), and on a fake clock it ends only with a step.
		return true, nil
	}
	// The reflector first, the FIFO second: a reflector at rv has queued
	// everything up to rv, so a FIFO drained after that has applied it.
	last, err := strconv.ParseInt(s.LastSyncResourceVersion(), 10, 64)
	if err != nil || last < rv {
		return false, nil // not listed yet, or behind
	}
	return s.fifo.Drained(), nil
}

// WaitSyncedTo calls WaitSyncedTo on every informer of a started
// factory, one after the other; see SharedInformer.WaitSyncedTo. A
// factory not started has nothing to wait for.
func (f *SharedInformerFactory) WaitSyncedTo(ctx context.Context, rv int64) error {
	f.mu.Lock()
	var started []*SharedInformer
	if f.ctx != nil {
		for _, inf := range f.informers {
			started = append(started, inf)
		}
	}
	f.mu.Unlock()
	for _, inf := range started {
		if err := inf.WaitSyncedTo(ctx, rv); err != nil {
			return err
		}
	}
	return nil
}

package manager

import (
	"context"
	"reflect"
	"slices"
)

// Idle reports whether the Manager has nothing to do right now: it runs,
// every informer of its cache has synced, and every started controller
// has handed everything its informers hold to its queue, has nothing
// queued, nothing being reconciled and no delay due. Delays not yet due
// (RequeueAfter, backoff) are not work; step the clock to make them due.
// A stopped Manager is idle.
//
// Idle cannot see what the informers have not received: a change the API
// server has accepted but not yet sent down a watch. A quiescence barrier
// pairs it with a resourceVersion the informers have reached.
func (m *Manager) Idle() bool {
	idle, _ := m.idle()
	return idle
}

// idle is Idle, and the channels of the busy Idlers, closed at their next
// change.
func (m *Manager) idle() (bool, []<-chan struct{}) {
	m.mu.Lock()
	idlers, stopped := slices.Clone(m.idlers), m.stopped
	m.mu.Unlock()
	if stopped {
		return true, nil
	}
	select {
	case <-m.runningCh:
	default:
		return false, nil
	}
	if !m.cache.HasSynced() {
		return false, nil
	}
	var busy []<-chan struct{}
	for _, r := range idlers {
		if idle, changed := r.Idle(); !idle {
			busy = append(busy, changed)
		}
	}
	return len(busy) == 0, busy
}

// WaitIdle blocks until Idle holds, or ctx ends (its error is returned).
// It does not poll: it waits for the informers to sync, then for a change
// in any busy controller.
func (m *Manager) WaitIdle(ctx context.Context) error {
	select {
	case <-m.runningCh:
	case <-m.stoppedCh:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	for {
		if err := m.cache.WaitForCacheSync(ctx); err != nil {
			return err
		}
		idle, busy := m.idle()
		if idle {
			return nil
		}
		if len(busy) == 0 {
			continue // an informer was requested meanwhile: wait for it
		}
		// Wait for any busy controller to change, or ctx; the set of
		// channels is only known now, hence reflect.Select.
		cases := make([]reflect.SelectCase, 0, len(busy)+1)
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())})
		for _, ch := range busy {
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ch)})
		}
		if chosen, _, _ := reflect.Select(cases); chosen == 0 {
			return ctx.Err()
		}
	}
}

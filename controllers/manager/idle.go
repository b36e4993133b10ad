package manager

import (
	"context"
	"slices"

	"github.com/minicp/minicp/wait"
)

var _ wait.Idler = (*Manager)(nil)

// Idle implements wait.Idler. It reports whether the Manager has nothing
// to do right now: it runs, every informer of its cache has synced, and
// every started controller has handed everything its informers hold to
// its queue, has nothing queued, nothing being reconciled and no delay
// due. Delays not yet due (RequeueAfter, backoff) are not work; step the
// clock to make them due. A stopped Manager is idle.
//
// Idle cannot see what the informers have not received: a change the API
// server has accepted but not yet sent down a watch. A quiescence barrier
// pairs it with a resourceVersion the informers have reached.
func (m *Manager) Idle() bool {
	idle, _ := m.idle()
	return idle
}

// IdleChanged implements wait.Idler: the channel of what keeps the Manager
// busy (its start, an informer's sync, a busy controller), taken before
// Idle looks.
func (m *Manager) IdleChanged() <-chan struct{} {
	_, changed := m.idle()
	return changed
}

// idle is Idle, and a channel closed at the next change that may make the
// Manager idle; wait.Closed when it is idle (look again if asked).
func (m *Manager) idle() (bool, <-chan struct{}) {
	lifecycle := m.lifecycle.Wait()
	m.mu.Lock()
	idlers, stopped := slices.Clone(m.idlers), m.stopped
	m.mu.Unlock()
	if stopped {
		return true, wait.Closed
	}
	select {
	case <-m.runningCh:
	default:
		return false, lifecycle
	}
	if ch := m.cache.Unsynced(); ch != nil {
		return false, ch
	}
	for _, r := range idlers {
		changed := r.IdleChanged()
		if !r.Idle() {
			return false, changed
		}
	}
	return true, wait.Closed
}

// WaitIdle blocks until Idle holds, or ctx ends (its error is returned).
// It does not poll: it waits for a change in whatever keeps the Manager
// busy.
func (m *Manager) WaitIdle(ctx context.Context) error {
	return wait.WaitIdle(ctx, m)
}

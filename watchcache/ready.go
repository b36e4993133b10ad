package watchcache

import (
	"context"
	"errors"
	"sync"

	"github.com/minicp/minicp/wait"
)

// ErrStopped is returned by reads and watches of a Cacher whose Start has
// returned (or is returning): the cache is gone and will not come back.
var ErrStopped = errors.New("watchcache: cacher stopped")

// readyState is where the Cacher is in its lifecycle:
//
//	            list ok (replace)
//	┌─────────┐ ─────────────────▶ ┌───────┐
//	│ Pending │                    │ Ready │
//	└─────────┘ ◀───────────────── └───────┘
//	     │       watch failed:          │
//	     │       relist                 │
//	     │  Start's ctx done            │ Start's ctx done
//	     ▼                              ▼
//	          ┌─────────┐
//	          │ Stopped │   (terminal)
//	          └─────────┘
//
// Reads and watches served from the cache wait while Pending and fail with
// ErrStopped once Stopped. A Cacher is Pending from New until its first
// list, and again while it relists.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (ready).
type readyState int

const (
	statePending readyState = iota
	stateReady
	stateStopped
)

// ready holds the state and wakes the requests that wait for it.
type ready struct {
	// mu guards state and syncedCh.
	mu    sync.Mutex
	state readyState
	// changed is notified on every state change, under mu, so waiters
	// can also select on their ctx.
	changed wait.Broadcast
	// syncedCh is closed the first time the state is Ready, and stays
	// closed: Cacher.Ready returns it.
	syncedCh   chan struct{}
	syncedOnce bool
}

func newReady() *ready {
	return &ready{syncedCh: make(chan struct{})}
}

// set moves to state s. Stopped is terminal: set after it does nothing.
func (r *ready) set(s readyState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == stateStopped || r.state == s {
		return
	}
	r.state = s
	if s == stateReady && !r.syncedOnce {
		r.syncedOnce = true
		close(r.syncedCh)
	}
	r.changed.Notify()
}

// get returns the current state.
func (r *ready) get() readyState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state
}

// wait blocks until the state is Ready (nil), Stopped (ErrStopped) or ctx
// is done (its error).
func (r *ready) wait(ctx context.Context) error {
	for {
		r.mu.Lock()
		state, ch := r.state, r.changed.Wait()
		r.mu.Unlock()
		switch state {
		case stateReady:
			return nil
		case stateStopped:
			return ErrStopped
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// synced returns the channel closed at the first Ready.
func (r *ready) synced() <-chan struct{} { return r.syncedCh }

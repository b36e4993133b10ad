package wait

import (
	"context"
	"fmt"
)

// Idler is a component that can say it has nothing to do right now: a
// controller, the scheduler, a kubelet, the controller-manager. Idle work
// that waits for the clock alone (a delay not yet due) is not work: a test
// steps the clock to make it due. Implementations are safe for concurrent
// use.
//
// Upstream: none; it serves minicp's quiescence barrier (clustertest).
type Idler interface {
	// Idle reports whether the component has no work queued or in flight.
	Idle() bool
	// IdleChanged returns a channel closed at the next change that may
	// make a busy component idle. WaitIdle takes it before it calls Idle,
	// so a change between the two is not missed; it may be a channel that
	// is closed already (see Closed), which means "look again".
	IdleChanged() <-chan struct{}
}

// WaitIdle blocks until every idler is idle at the same time, or ctx ends
// (its error is returned). One component's work may give another more (a
// controller creates a pod, the scheduler binds it, a kubelet runs it), so
// it goes round: a busy idler is waited for, and the round starts over,
// until one whole round finds them all idle. It never polls.
func WaitIdle(ctx context.Context, idlers ...Idler) error {
	for {
		busy := false
		for _, d := range idlers {
			// Take the channel before asking, so a change between the
			// two wakes the select below.
			changed := d.IdleChanged()
			if d.Idle() {
				continue
			}
			busy = true
			select {
			case <-changed:
			case <-ctx.Done():
				return fmt.Errorf("wait for idle: %w", ctx.Err())
			}
			break
		}
		if !busy {
			return nil
		}
	}
}

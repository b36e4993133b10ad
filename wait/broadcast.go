package wait

import "sync"

// Broadcast wakes every goroutine waiting for a change at once: Wait
// returns a channel that the next Notify closes. Unlike sync.Cond, a
// waiter can also select on its ctx. The zero value is ready to use and
// it is safe for concurrent use. A waiter takes the channel before it
// looks at the state it waits on, so a change between the two is not
// missed.
//
// Upstream: none in Kubernetes; kine's memory driver (broadcast and
// getNotifyCh) does the same.
type Broadcast struct {
	// mu guards ch, which is nil while nobody waits, so that Notify,
	// called on every change, allocates nothing then.
	mu sync.Mutex
	ch chan struct{}
}

// Wait returns a channel closed at the next Notify. It never blocks.
func (b *Broadcast) Wait() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	return b.ch
}

// Notify wakes everyone waiting. It never blocks.
func (b *Broadcast) Notify() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch != nil {
		close(b.ch)
		b.ch = nil
	}
}

// Closed is a channel that is always closed: "changed already". An
// IdleChanged with nothing to wait for returns it, so WaitIdle looks
// again at once.
var Closed <-chan struct{} = func() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}()

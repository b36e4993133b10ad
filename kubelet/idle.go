package kubelet

import (
	"context"
	"fmt"
	"strconv"

	"github.com/minicp/minicp/wait"
)

// Idle implements wait.Idler. It reports whether the kubelet has nothing to do at the clock's
// current time: it is Ready, its pod list is in step with everything its
// watch delivered, no runtime change is waiting for the PLEG, no pod
// worker runs or is due, and no pod's wake-up time (a backoff, a probe, a
// deadline) has passed. Heartbeats and events still being written do not
// count: they change no pod.
//
// Idle does not see what the API server has not delivered yet: a pod
// bound a moment ago may still be on its way. The cluster's quiescence
// barrier pairs it with the API server's own.
//
// The checks run in the order work flows, so that work moving from one
// stage to the next is never missed between two checks: the runtime is
// brought up to the clock first (a container due to exit exits now),
// then the PLEG's pending change, then the workers and their wake-ups,
// which the PLEG and the wake-up timer hand work to under the workers'
// lock.
func (k *Kubelet) Idle() bool {
	select {
	case <-k.readyCh:
	default:
		return false
	}
	if k.notifier != nil {
		// Every call of a changeNotifier runtime first runs what is due by
		// the clock; this one is the cheapest.
		_, _ = k.runtime.PodSandboxStatus(context.Background(), "")
	}
	if k.pleg.pending() {
		return false
	}
	return k.workers.idle()
}

// IdleChanged implements wait.Idler: a channel closed at the next change
// of anything Idle looks at.
func (k *Kubelet) IdleChanged() <-chan struct{} { return k.changed.Wait() }

// WaitIdle blocks until Idle or until ctx is done, returning ctx's error.
func (k *Kubelet) WaitIdle(ctx context.Context) error {
	if err := wait.WaitIdle(ctx, k); err != nil {
		return fmt.Errorf("kubelet %s: %w", k.nodeName, err)
	}
	return nil
}

// notify wakes WaitIdle callers: something Idle looks at may have changed.
func (k *Kubelet) notify() { k.changed.Notify() }

// markRegistered and markSynced record the two halves of readiness.
func (k *Kubelet) markRegistered() {
	k.mu.Lock()
	k.registered = true
	k.mu.Unlock()
	k.checkReady()
}

func (k *Kubelet) markSynced() { k.checkReady() }

func (k *Kubelet) checkReady() {
	k.mu.Lock()
	ready := !k.isReady && k.registered && k.source.hasSynced()
	if ready {
		k.isReady = true
		close(k.readyCh)
	}
	k.mu.Unlock()
	if ready {
		k.log.Info("ready")
		k.notify()
	}
}

// WaitSyncedTo blocks until the kubelet's pod watch has reached rv, an
// etcd revision (a list, an event or a bookmark), or ctx is done. Its
// store hands every change to the pod workers as it comes, so from then
// on Idle covers every change up to rv. A kubelet not running has
// nothing to wait for.
func (k *Kubelet) WaitSyncedTo(ctx context.Context, rv int64) error {
	k.mu.Lock()
	runCtx := k.runCtx
	k.mu.Unlock()
	if runCtx == nil {
		return nil
	}
	for {
		changed := k.changed.Wait()
		if k.reflector.BackingOff() {
			return nil // waiting for its clock: not work
		}
		if last, err := strconv.ParseInt(k.reflector.LastSyncResourceVersion(), 10, 64); err == nil && last >= rv {
			return nil
		}
		select {
		case <-changed:
		case <-runCtx.Done():
			return nil
		case <-ctx.Done():
			return fmt.Errorf("kubelet %s: wait for resourceVersion %d: %w", k.nodeName, rv, ctx.Err())
		}
	}
}

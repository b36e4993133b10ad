package kubelet

import (
	"context"
	"sync"
)

// syncLoop is the kubelet's main loop: it relists the runtime when the
// PLEG says something changed, and starts the pod workers whose wake-up
// time (backoff, probe, deadline) came.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (Kubelet.syncLoop).
func (k *Kubelet) syncLoop(ctx context.Context) {
	defer k.pleg.stop()
	// The pod workers' wake-ups are served beside the loop, and stopped
	// with it.
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { k.workers.runWakeups(ctx) })
	changed, tick := k.pleg.relist(ctx)
	k.notify()
	for {
		select {
		case <-ctx.Done():
			return
		case <-changed:
			changed, tick = k.pleg.relist(ctx)
			k.notify()
		case <-tick:
			changed, tick = k.pleg.relist(ctx)
			k.notify()
		}
	}
}

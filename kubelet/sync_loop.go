package kubelet

import "context"

// syncLoop is the kubelet's main loop: it relists the runtime when the
// PLEG says something changed, and starts the pod workers whose wake-up
// time (backoff, probe, deadline) came.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (Kubelet.syncLoop).
func (k *Kubelet) syncLoop(ctx context.Context) {
	defer k.pleg.stop()
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
		case <-k.workers.timer.C():
			k.workers.fireDue()
		case <-k.workers.kickCh:
			k.workers.fireDue()
		}
	}
}

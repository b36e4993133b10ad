package kubelet

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

// leaseRenewRetry bounds the tries of one renewal, one right after
// another; a renewal that keeps failing is tried again at the next
// heartbeat, long before the Lease expires (the heartbeat is a quarter of
// its duration).
var leaseRenewRetry = wait.Backoff{Steps: 5}

// renewLease sets the node Lease's renewTime to now, creating the Lease
// if it does not exist. The Lease lives in kube-node-lease, is named after
// the node, is held by the node and is owned by the Node, so it goes when
// the Node goes. A Lease whose renewTime is older than its
// leaseDurationSeconds belongs to a node that is down.
//
// Upstream: k8s.io/component-helpers/apimachinery/lease (controller.sync).
func (k *Kubelet) renewLease(ctx context.Context) error {
	leases := k.cs.Leases(metav1.NamespaceNodeLease)
	return wait.OnError(ctx, leaseRenewRetry, func(err error) bool {
		// Someone changed, deleted or created the Lease since it was
		// read: read it again.
		return apierrors.IsConflict(err) || apierrors.IsNotFound(err) || apierrors.IsAlreadyExists(err)
	}, func() error {
		if k.lease == nil {
			lease, err := leases.Get(ctx, k.nodeName, client.GetOptions{})
			if apierrors.IsNotFound(err) {
				lease, err = leases.Create(ctx, k.newLease(nil), client.WriteOptions{})
				if err == nil {
					k.lease = lease
					return nil
				}
			}
			if err != nil {
				return fmt.Errorf("node lease: %w", err)
			}
			k.lease = lease
		}
		out, err := leases.Update(ctx, k.newLease(k.lease), client.WriteOptions{})
		if err != nil {
			k.lease = nil
			return fmt.Errorf("renew node lease: %w", err)
		}
		k.lease = out
		return nil
	})
}

// newLease returns the node's Lease renewed now, based on current (nil
// for a new one).
func (k *Kubelet) newLease(current *coordinationv1.Lease) *coordinationv1.Lease {
	lease := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: k.nodeName, Namespace: metav1.NamespaceNodeLease}}
	if current != nil {
		lease = current.DeepCopy()
	}
	holder, duration := k.nodeName, k.leaseDuration
	renew := metav1.NewMicroTime(k.clock.Now())
	lease.Spec.HolderIdentity = &holder
	lease.Spec.LeaseDurationSeconds = &duration
	lease.Spec.RenewTime = &renew
	if k.node != nil && len(lease.OwnerReferences) == 0 {
		lease.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: k.nodeName, UID: k.node.UID}}
	}
	return lease
}

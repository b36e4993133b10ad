package nodelifecycle

import (
	"context"
	"fmt"
	"time"

	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/wait"
)

// nodeHealth is what the controller last saw of a node's heartbeats, on
// its own clock. Heartbeats are compared with the time they were seen
// here, never with the times the kubelet wrote, so a kubelet whose clock
// is off is judged by when its heartbeats arrive.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle (nodeHealthData).
type nodeHealth struct {
	// probeTimestamp is when a heartbeat (a new lastHeartbeatTime of the
	// Ready condition, or a new renewTime of the Lease) was last seen.
	probeTimestamp time.Time
	// readyTransitionTimestamp is when the Ready condition was last seen
	// to change.
	readyTransitionTimestamp time.Time
	// status is the node's status as last seen or written.
	status *corev1.NodeStatus
	// lease is the node's Lease as last seen.
	lease *coordinationv1.Lease
}

// kubeletConditions are the conditions the kubelet owns, which go Unknown
// when it stops posting. NetworkUnavailable is the network plugin's and
// is left alone.
var kubeletConditions = []corev1.NodeConditionType{
	corev1.NodeReady, corev1.NodeMemoryPressure, corev1.NodeDiskPressure, corev1.NodePIDPressure,
}

// nodeHealthUpdateRetry bounds the tries of one health update; after a
// conflict the node is read again from the API server (the kubelet may
// have just written its status).
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler
// (NodeHealthUpdateRetry).
const nodeHealthUpdateRetry = 5

// nodeHealthRetry tries again at once on the node read again: the write
// that won the race (the kubelet's status) has already landed, and the
// controller's clock-driven monitor pass must not wait on the real clock.
var nodeHealthRetry = wait.Backoff{Steps: nodeHealthUpdateRetry}

// updateNodeHealth runs tryUpdateNodeHealth, reading node again from the
// API server after a failed try. It returns the Ready condition before
// (observed) and after (current, nil if none) the update and the node as
// stored.
func (nc *Controller) updateNodeHealth(ctx context.Context, node *corev1.Node) (observed corev1.NodeCondition, current *corev1.NodeCondition, _ *corev1.Node, err error) {
	updated, reread := node, false
	err = client.RetryOnConflict(ctx, nodeHealthRetry, func() error {
		if reread {
			fresh, err := nc.clientset.Nodes().Get(ctx, node.Name, client.GetOptions{})
			if err != nil {
				return fmt.Errorf("get node: %w", err)
			}
			node, updated = fresh, fresh
		}
		reread = true
		var err error
		observed, current, updated, err = nc.tryUpdateNodeHealth(ctx, node)
		if err != nil {
			updated = node
			return fmt.Errorf("update health of node %s: %w", node.Name, err)
		}
		return nil
	})
	return observed, current, updated, err
}

// tryUpdateNodeHealth records the node's heartbeats and, when none came
// for the grace period (nodeMonitorGracePeriod, or
// nodeStartupGracePeriod for a node that never posted a Ready
// condition), sets its kubelet conditions Unknown through nodes/status.
// node is the controller's own copy and is modified.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (Controller.tryUpdateNodeHealth).
func (nc *Controller) tryUpdateNodeHealth(ctx context.Context, node *corev1.Node) (observed corev1.NodeCondition, current *corev1.NodeCondition, _ *corev1.Node, _ error) {
	now := nc.clock.Now()
	// Entries are replaced, never changed (see handleDisruption): the
	// one read here stays as it is.
	nc.mu.Lock()
	health := nc.health[node.Name]
	nc.mu.Unlock()

	gracePeriod := NodeMonitorGracePeriod
	current = nodeCondition(&node.Status, corev1.NodeReady)
	if current == nil {
		// The kubelet never posted its status: judge the node from its
		// creation, with the longer startup grace.
		observed = corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionUnknown,
			LastHeartbeatTime: node.CreationTimestamp, LastTransitionTime: node.CreationTimestamp}
		gracePeriod = NodeStartupGracePeriod
	} else {
		observed = *current
	}

	var saved *corev1.NodeCondition
	var savedLease *coordinationv1.Lease
	if health != nil {
		saved = nodeCondition(health.status, corev1.NodeReady)
		savedLease = health.lease
	}
	next := nodeHealth{status: &node.Status}
	switch {
	case health == nil && current == nil:
		next.probeTimestamp, next.readyTransitionTimestamp = node.CreationTimestamp.Time, node.CreationTimestamp.Time
	case health == nil, saved == nil && current != nil, saved != nil && current == nil:
		// Newly seen, or a Ready condition appeared (or, wrongly,
		// vanished): start counting now.
		next.probeTimestamp, next.readyTransitionTimestamp = now, now
	case saved != nil && current != nil && !saved.LastHeartbeatTime.Equal(current.LastHeartbeatTime.Time):
		next.probeTimestamp, next.readyTransitionTimestamp = now, health.readyTransitionTimestamp
		if !saved.LastTransitionTime.Equal(current.LastTransitionTime.Time) {
			next.readyTransitionTimestamp = now
		}
	default:
		// No new heartbeat in the status.
		next.probeTimestamp, next.readyTransitionTimestamp = health.probeTimestamp, health.readyTransitionTimestamp
	}
	if health != nil {
		next.lease = health.lease
	}
	// A renewed Lease is a heartbeat too: a kubelet renews its Lease
	// every 10s but writes its status less often.
	lease, err := nc.leases.Get(metav1.NamespaceNodeLease, node.Name)
	if err == nil && (savedLease == nil || renewTime(savedLease).Before(renewTime(lease))) {
		next.lease = lease
		next.probeTimestamp = now
	}
	defer func() {
		nc.mu.Lock()
		nc.health[node.Name] = &next
		nc.mu.Unlock()
	}()

	if !now.After(next.probeTimestamp.Add(gracePeriod)) {
		return observed, current, node, nil
	}
	// Nothing heard for longer than the grace period: whatever the
	// kubelet last said no longer holds.
	log := logging.FromContext(ctx)
	for _, t := range kubeletConditions {
		c := nodeCondition(&node.Status, t)
		switch {
		case c == nil:
			node.Status.Conditions = append(node.Status.Conditions, corev1.NodeCondition{
				Type: t, Status: corev1.ConditionUnknown, Reason: "NodeStatusNeverUpdated",
				Message: "Kubelet never posted node status.", LastHeartbeatTime: node.CreationTimestamp,
				LastTransitionTime: metav1.NewTime(now),
			})
		case c.Status != corev1.ConditionUnknown:
			c.Status, c.Reason, c.Message = corev1.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status."
			c.LastTransitionTime = metav1.NewTime(now)
		}
	}
	current = nodeCondition(&node.Status, corev1.NodeReady)
	if conditionEqual(current, &observed) {
		return observed, current, node, nil
	}
	log.InfoContext(ctx, "node stopped posting status", "node", node.Name, "since", next.probeTimestamp)
	updated, err := nc.clientset.Nodes().UpdateStatus(ctx, node, client.WriteOptions{})
	if err != nil {
		// The heartbeats seen are kept; the caller reads the node again.
		return observed, current, node, err
	}
	next = nodeHealth{status: &updated.Status, probeTimestamp: next.probeTimestamp, readyTransitionTimestamp: now, lease: next.lease}
	return observed, nodeCondition(&updated.Status, corev1.NodeReady), updated, nil
}

// renewTime is the Lease's renewTime, zero if unset.
func renewTime(l *coordinationv1.Lease) time.Time {
	if l.Spec.RenewTime == nil {
		return time.Time{}
	}
	return l.Spec.RenewTime.Time
}

// nodeCondition returns status's condition of type t, or nil; the
// result points into status.
func nodeCondition(status *corev1.NodeStatus, t corev1.NodeConditionType) *corev1.NodeCondition {
	if status == nil {
		return nil
	}
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			return &status.Conditions[i]
		}
	}
	return nil
}

// conditionEqual compares two conditions, nil equal only to nil.
func conditionEqual(a, b *corev1.NodeCondition) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		a.LastHeartbeatTime.Equal(b.LastHeartbeatTime.Time) && a.LastTransitionTime.Equal(b.LastTransitionTime.Time)
}

package nodelifecycle

import (
	"context"
	"fmt"
	"slices"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

// The taints of node conditions that corev1 does not name.
const (
	TaintNodeMemoryPressure     = "node.kubernetes.io/memory-pressure"
	TaintNodeDiskPressure       = "node.kubernetes.io/disk-pressure"
	TaintNodeNetworkUnavailable = "node.kubernetes.io/network-unavailable"
	TaintNodePIDPressure        = "node.kubernetes.io/pid-pressure"
)

var (
	// UnreachableTaintTemplate is the taint of a node whose Ready
	// condition is Unknown: its kubelet stopped posting. Pods that do not
	// tolerate it are evicted.
	UnreachableTaintTemplate = corev1.Taint{Key: corev1.TaintNodeUnreachable, Effect: corev1.TaintEffectNoExecute}
	// NotReadyTaintTemplate is the taint of a node whose kubelet reports
	// it not ready.
	NotReadyTaintTemplate = corev1.Taint{Key: corev1.TaintNodeNotReady, Effect: corev1.TaintEffectNoExecute}
)

// nodeConditionToTaintKey says which condition status earns a node which
// NoSchedule taint (TaintNodesByCondition): new pods then go elsewhere
// unless they tolerate it.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (nodeConditionToTaintKeyStatusMap).
var nodeConditionToTaintKey = map[corev1.NodeConditionType]map[corev1.ConditionStatus]string{
	corev1.NodeReady: {
		corev1.ConditionFalse:   corev1.TaintNodeNotReady,
		corev1.ConditionUnknown: corev1.TaintNodeUnreachable,
	},
	corev1.NodeMemoryPressure:     {corev1.ConditionTrue: TaintNodeMemoryPressure},
	corev1.NodeDiskPressure:       {corev1.ConditionTrue: TaintNodeDiskPressure},
	corev1.NodeNetworkUnavailable: {corev1.ConditionTrue: TaintNodeNetworkUnavailable},
	corev1.NodePIDPressure:        {corev1.ConditionTrue: TaintNodePIDPressure},
}

// conditionTaintKeys are the keys of nodeConditionToTaintKey's taints.
var conditionTaintKeys = []string{
	corev1.TaintNodeNotReady, corev1.TaintNodeUnreachable, TaintNodeMemoryPressure,
	TaintNodeDiskPressure, TaintNodeNetworkUnavailable, TaintNodePIDPressure,
}

// noScheduleTaints returns the NoSchedule taints node's conditions and
// cordon call for.
func noScheduleTaints(node *corev1.Node) []corev1.Taint {
	var taints []corev1.Taint
	for _, c := range node.Status.Conditions {
		if key, ok := nodeConditionToTaintKey[c.Type][c.Status]; ok {
			taints = append(taints, corev1.Taint{Key: key, Effect: corev1.TaintEffectNoSchedule})
		}
	}
	if node.Spec.Unschedulable {
		taints = append(taints, corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule})
	}
	return taints
}

// doNoScheduleTaintingPass makes node's condition NoSchedule taints match
// its conditions, leaving every other taint alone, and returns the node
// as stored.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (Controller.doNoScheduleTaintingPass).
func (nc *Controller) doNoScheduleTaintingPass(ctx context.Context, node *corev1.Node) (*corev1.Node, error) {
	want := noScheduleTaints(node)
	var have []corev1.Taint
	for _, t := range node.Spec.Taints {
		if t.Effect == corev1.TaintEffectNoSchedule &&
			(t.Key == corev1.TaintNodeUnschedulable || slices.Contains(conditionTaintKeys, t.Key)) {
			have = append(have, t)
		}
	}
	add, remove := taintSetDiff(want, have)
	if len(add) == 0 && len(remove) == 0 {
		return node, nil
	}
	return nc.swapNodeControllerTaint(ctx, node, add, remove)
}

// taintSetDiff returns the taints of want missing from have, and those of
// have not in want, matching by key and effect.
//
// Upstream: k8s.io/kubernetes/pkg/util/taints (TaintSetDiff).
func taintSetDiff(want, have []corev1.Taint) (add, remove []corev1.Taint) {
	for _, t := range want {
		if !taintExists(have, t) {
			add = append(add, t)
		}
	}
	for _, t := range have {
		if !taintExists(want, t) {
			remove = append(remove, t)
		}
	}
	return add, remove
}

// taintExists reports whether taints has one of t's key and effect.
//
// Upstream: k8s.io/kubernetes/pkg/util/taints (TaintExists).
func taintExists(taints []corev1.Taint, t corev1.Taint) bool {
	return slices.ContainsFunc(taints, func(x corev1.Taint) bool { return matchTaint(x, t) })
}

func matchTaint(a, b corev1.Taint) bool { return a.Key == b.Key && a.Effect == b.Effect }

// nodeUpdateRetry bounds the tries of one taint change; after a conflict
// the node is read again from the API server.
const nodeUpdateRetry = 5

// nodeUpdateBackoff tries again at once on the object read again: the
// write that won the race (a kubelet's, another controller's) has already
// landed, so the re-read sees it, and the controllers' clock-driven
// passes must not wait on the real clock.
var nodeUpdateBackoff = wait.Backoff{Steps: nodeUpdateRetry}

// swapNodeControllerTaint adds the taints add (stamped with the time
// they are added) and removes the taints remove (by key and effect) from
// node in one update, and returns the node as stored. A conflict is
// retried on the node read again.
//
// Upstream: k8s.io/kubernetes/pkg/controller/util/node
// (SwapNodeControllerTaint) and k8s.io/kubernetes/pkg/controller
// (AddOrUpdateTaintOnNode, RemoveTaintOffNode).
func (nc *Controller) swapNodeControllerTaint(ctx context.Context, node *corev1.Node, add, remove []corev1.Taint) (*corev1.Node, error) {
	now := metav1.NewTime(nc.clock.Now())
	out, reread := node, false
	err := client.RetryOnConflict(ctx, nodeUpdateBackoff, func() error {
		if reread {
			fresh, err := nc.clientset.Nodes().Get(ctx, node.Name, client.GetOptions{})
			if err != nil {
				out = fresh
				return fmt.Errorf("get node: %w", err)
			}
			node, out = fresh, fresh
		}
		reread = true
		taints, changed := swapTaints(node.Spec.Taints, add, remove, now)
		if !changed {
			return nil
		}
		update := node.DeepCopy()
		update.Spec.Taints = taints
		updated, err := nc.clientset.Nodes().Update(ctx, update, client.WriteOptions{})
		if err != nil {
			return fmt.Errorf("update taints of node %s: %w", node.Name, err)
		}
		out = updated
		return nil
	})
	return out, err
}

// swapTaints returns taints without remove and with add, and whether that
// differs from taints. A taint of add already there (same key, effect
// and value) is kept as it is, with its time.
func swapTaints(taints, add, remove []corev1.Taint, now metav1.Time) ([]corev1.Taint, bool) {
	out := make([]corev1.Taint, 0, len(taints)+len(add))
	changed := false
	for _, t := range taints {
		if taintExists(remove, t) {
			changed = true
			continue
		}
		out = append(out, t)
	}
	for _, t := range add {
		i := slices.IndexFunc(out, func(x corev1.Taint) bool { return matchTaint(x, t) })
		if i >= 0 && out[i].Value == t.Value {
			continue
		}
		t.TimeAdded = &now
		if i >= 0 {
			out[i] = t
		} else {
			out = append(out, t)
		}
		changed = true
	}
	return out, changed
}

// markNodeAsReachable removes the NoExecute taints of an unhealthy node,
// and returns the node as stored.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (Controller.markNodeAsReachable).
func (nc *Controller) markNodeAsReachable(ctx context.Context, node *corev1.Node) (*corev1.Node, error) {
	if !taintExists(node.Spec.Taints, UnreachableTaintTemplate) && !taintExists(node.Spec.Taints, NotReadyTaintTemplate) {
		return node, nil
	}
	return nc.swapNodeControllerTaint(ctx, node, nil, []corev1.Taint{UnreachableTaintTemplate, NotReadyTaintTemplate})
}

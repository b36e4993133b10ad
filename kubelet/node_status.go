package kubelet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	goruntime "runtime"
	"slices"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

// nodeStatusUpdateRetry is how often a node status update is tried
// before the kubelet waits for the next period: upstream's number of
// tries, one right after another. Each try re-reads the node after a
// conflict.
var nodeStatusUpdateRetry = wait.Backoff{Steps: 5}

// registrationBackoff paces registration attempts while the API server
// cannot be reached: upstream starts at 100ms and doubles up to 7s.
var registrationBackoff = wait.Backoff{Initial: 100 * time.Millisecond, Factor: 2, Cap: 7 * time.Second}

// errPodCIDRMismatch: the node is registered with another podCIDR, which
// can never change; the kubelet would hand out addresses the node does
// not own.
var errPodCIDRMismatch = errors.New("the node is registered with another podCIDR")

// runHeartbeats registers the node, creates its Lease, then renews the
// Lease every heartbeat interval and the node's conditions every status
// update period, until ctx is done.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (registerWithAPIServer,
// syncNodeStatus) and k8s.io/component-helpers/apimachinery/lease
// (controller).
func (k *Kubelet) runHeartbeats(ctx context.Context) {
	backoff := registrationBackoff
	backoff.Clock = k.clock
	for {
		err := k.registerNode(ctx)
		if err == nil {
			err = k.renewLease(ctx)
		}
		if err == nil {
			break
		}
		if errors.Is(err, errPodCIDRMismatch) {
			k.log.Error("node registration refused", "err", err)
			return
		}
		if ctx.Err() != nil {
			return
		}
		k.log.Warn("node registration failed, retrying", "err", err)
		if backoff.Wait(ctx) != nil {
			return
		}
	}
	k.log.Info("node registered")
	k.markRegistered()

	leaseTicker := k.clock.NewTicker(k.heartbeat)
	defer leaseTicker.Stop()
	statusTicker := k.clock.NewTicker(k.statusFreq)
	defer statusTicker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-leaseTicker.C():
			if err := k.renewLease(ctx); err != nil && ctx.Err() == nil {
				k.log.Warn("renewing the node lease failed", "err", err)
			}
		case <-statusTicker.C():
			if err := k.updateNodeStatus(ctx); err != nil && ctx.Err() == nil {
				k.log.Warn("updating node status failed", "err", err)
			}
		}
	}
}

// registerNode creates the node, or adopts the one registered before
// under its name: it adds its labels and podCIDR and writes its status.
func (k *Kubelet) registerNode(ctx context.Context) error {
	node := k.initialNode()
	created, err := k.cs.Nodes().Create(ctx, node, client.WriteOptions{})
	if err == nil {
		k.node = created
		return nil
	}
	if !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("register node: %w", err)
	}
	existing, err := k.cs.Nodes().Get(ctx, k.nodeName, client.GetOptions{})
	if err != nil {
		return fmt.Errorf("register node: %w", err)
	}
	if cidr := existing.Spec.PodCIDR; cidr != "" && node.Spec.PodCIDR != "" && cidr != node.Spec.PodCIDR {
		return fmt.Errorf("register node %s: %w: %s, not %s", k.nodeName, errPodCIDRMismatch, cidr, node.Spec.PodCIDR)
	}
	update := existing.DeepCopy()
	if update.Labels == nil {
		update.Labels = map[string]string{}
	}
	maps.Copy(update.Labels, node.Labels)
	if update.Spec.PodCIDR == "" {
		update.Spec.PodCIDR, update.Spec.PodCIDRs = node.Spec.PodCIDR, node.Spec.PodCIDRs
	}
	updated, err := k.cs.Nodes().Update(ctx, update, client.WriteOptions{})
	if err != nil {
		return fmt.Errorf("register node: %w", err)
	}
	k.node = updated
	return k.updateNodeStatus(ctx)
}

// initialNode is the Node the kubelet registers.
func (k *Kubelet) initialNode() *corev1.Node {
	labels := map[string]string{
		corev1.LabelHostname:   k.nodeName,
		corev1.LabelOSStable:   "linux",
		corev1.LabelArchStable: goruntime.GOARCH,
	}
	maps.Copy(labels, k.labels)
	node := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: k.nodeName, Labels: labels},
		Spec:       corev1.NodeSpec{Taints: slices.Clone(k.taints)},
	}
	if k.podCIDR.IsValid() {
		node.Spec.PodCIDR = k.podCIDR.String()
		node.Spec.PodCIDRs = []string{node.Spec.PodCIDR}
	}
	k.setNodeStatus(node, k.clock.Now())
	return node
}

// setNodeStatus sets what the kubelet reports of its node: capacity,
// addresses, kubelet port, system info, and its conditions with now as
// their heartbeat.
func (k *Kubelet) setNodeStatus(node *corev1.Node, now time.Time) {
	s := &node.Status
	s.Capacity = maps.Clone(k.capacity)
	s.Allocatable = maps.Clone(k.capacity)
	s.Addresses = []corev1.NodeAddress{
		{Type: corev1.NodeInternalIP, Address: NodeIP},
		{Type: corev1.NodeHostName, Address: k.nodeName},
	}
	s.DaemonEndpoints.KubeletEndpoint.Port = int32(k.LogAddr().Port())
	id := sha256.Sum256([]byte(k.nodeName))
	machineID := hex.EncodeToString(id[:16])
	s.NodeInfo = corev1.NodeSystemInfo{
		MachineID:               machineID,
		SystemUUID:              machineID,
		BootID:                  hex.EncodeToString(id[16:]),
		KernelVersion:           "6.8.0-minicp",
		OSImage:                 "minicp simulated node",
		ContainerRuntimeVersion: ContainerRuntimeVersion,
		KubeletVersion:          Version,
		OperatingSystem:         "linux",
		Architecture:            goruntime.GOARCH,
	}
	for _, c := range []corev1.NodeCondition{
		{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse, Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available"},
		{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse, Reason: "KubeletHasNoDiskPressure", Message: "kubelet has no disk pressure"},
		{Type: corev1.NodePIDPressure, Status: corev1.ConditionFalse, Reason: "KubeletHasSufficientPID", Message: "kubelet has sufficient PID available"},
		{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status"},
	} {
		setNodeCondition(s, c, now)
	}
}

// setNodeCondition sets c with now as its heartbeat, and as its
// transition time when its status changes.
func setNodeCondition(s *corev1.NodeStatus, c corev1.NodeCondition, now time.Time) {
	c.LastHeartbeatTime = metav1.NewTime(now)
	c.LastTransitionTime = metav1.NewTime(now)
	for i := range s.Conditions {
		if s.Conditions[i].Type != c.Type {
			continue
		}
		if s.Conditions[i].Status == c.Status {
			c.LastTransitionTime = s.Conditions[i].LastTransitionTime
		}
		s.Conditions[i] = c
		return
	}
	s.Conditions = append(s.Conditions, c)
}

// updateNodeStatus writes the node's status with fresh heartbeats. It
// starts from the node as last written and re-reads it after a conflict.
func (k *Kubelet) updateNodeStatus(ctx context.Context) error {
	return client.RetryOnConflict(ctx, nodeStatusUpdateRetry, func() error {
		if k.node == nil {
			node, err := k.cs.Nodes().Get(ctx, k.nodeName, client.GetOptions{})
			if err != nil {
				return fmt.Errorf("get node: %w", err)
			}
			k.node = node
		}
		update := k.node.DeepCopy()
		k.setNodeStatus(update, k.clock.Now())
		out, err := k.cs.Nodes().UpdateStatus(ctx, update, client.WriteOptions{})
		if err != nil {
			k.node = nil
			return fmt.Errorf("update status of node %s: %w", k.nodeName, err)
		}
		k.node = out
		return nil
	})
}

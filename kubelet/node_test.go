package kubelet_test

import (
	"net/netip"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/kubelet"
)

func nodeCondition(n *corev1.Node, t corev1.NodeConditionType) *corev1.NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == t {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

// TestRegistersNodeAndLease: a Ready kubelet has registered a Ready node
// with what it runs on, and holds its Lease.
func TestRegistersNodeAndLease(t *testing.T) {
	h := newHarness(t, func(o *kubelet.Options) {
		o.Labels = map[string]string{"zone": "a"}
		o.Taints = []corev1.Taint{{Key: "dedicated", Value: "infra", Effect: corev1.TaintEffectNoSchedule}}
	})
	node, err := h.cs.Nodes().Get(t.Context(), "node-1", client.GetOptions{})
	require.NoError(t, err, "get node")

	for _, want := range []corev1.NodeCondition{
		{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady"},
		{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse, Reason: "KubeletHasSufficientMemory"},
		{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse, Reason: "KubeletHasNoDiskPressure"},
		{Type: corev1.NodePIDPressure, Status: corev1.ConditionFalse, Reason: "KubeletHasSufficientPID"},
	} {
		c := nodeCondition(node, want.Type)
		require.NotNil(t, c, "condition %s", want.Type)
		assert.Equal(t, want.Status, c.Status, "condition %s", want.Type)
		assert.Equal(t, want.Reason, c.Reason, "condition %s", want.Type)
		assert.Equal(t, epoch, c.LastHeartbeatTime.Time.UTC(), "condition %s heartbeat", want.Type)
	}
	for name, want := range map[corev1.ResourceName]string{"cpu": "4", "memory": "8Gi", "pods": "110", "ephemeral-storage": "100Gi"} {
		assert.True(t, node.Status.Capacity[name].Equal(resource.MustParse(want)), "capacity %s = %v", name, node.Status.Capacity[name])
		assert.True(t, node.Status.Allocatable[name].Equal(resource.MustParse(want)), "allocatable %s", name)
	}
	assert.Equal(t, []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "127.0.0.1"}, {Type: corev1.NodeHostName, Address: "node-1"}},
		node.Status.Addresses)
	assert.Equal(t, int32(h.kl.LogAddr().Port()), node.Status.DaemonEndpoints.KubeletEndpoint.Port, "kubelet port")
	assert.Equal(t, "v1.32.0-minicp", node.Status.NodeInfo.KubeletVersion)
	assert.Equal(t, "minicp-simulated://0.1.0", node.Status.NodeInfo.ContainerRuntimeVersion)
	assert.Equal(t, "linux", node.Status.NodeInfo.OperatingSystem)
	assert.Equal(t, goruntime.GOARCH, node.Status.NodeInfo.Architecture)
	assert.Equal(t, "10.244.1.0/24", node.Spec.PodCIDR)
	assert.Equal(t, []string{"10.244.1.0/24"}, node.Spec.PodCIDRs)
	assert.Equal(t, "node-1", node.Labels[corev1.LabelHostname])
	assert.Equal(t, "a", node.Labels["zone"])
	assert.Equal(t, []corev1.Taint{{Key: "dedicated", Value: "infra", Effect: corev1.TaintEffectNoSchedule}}, node.Spec.Taints)

	lease, err := h.cs.Leases(metav1.NamespaceNodeLease).Get(t.Context(), "node-1", client.GetOptions{})
	require.NoError(t, err, "get lease")
	assert.Equal(t, "node-1", *lease.Spec.HolderIdentity)
	assert.Equal(t, int32(40), *lease.Spec.LeaseDurationSeconds)
	assert.Equal(t, epoch, lease.Spec.RenewTime.Time.UTC())
	require.Len(t, lease.OwnerReferences, 1)
	assert.Equal(t, metav1.OwnerReference{APIVersion: "v1", Kind: "Node", Name: "node-1", UID: node.UID}, lease.OwnerReferences[0])
}

// waitLease waits for the node's Lease to be renewed at renewed.
func (h *harness) waitLease(renewed time.Time) *coordinationv1.Lease {
	h.t.Helper()
	ctx, cancel := clustertest.WaitContext(h.t)
	defer cancel()
	leases := h.cs.Leases(metav1.NamespaceNodeLease)
	lease, err := leases.Get(ctx, h.node, client.GetOptions{})
	require.NoError(h.t, err, "get lease")
	w, err := leases.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + h.node, ResourceVersion: lease.ResourceVersion})
	require.NoError(h.t, err, "watch lease")
	defer w.Stop()
	for !lease.Spec.RenewTime.Time.Equal(renewed) {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(h.t, ok, "lease watch ended")
			if ev.Type == watch.Modified {
				lease = ev.Object.(*coordinationv1.Lease)
			}
		case <-ctx.Done():
			h.t.Fatalf("lease not renewed at %v within %v (renewTime %v)", renewed, clustertest.WaitTimeout, lease.Spec.RenewTime)
		}
	}
	return lease
}

// waitNodeHeartbeat waits for the node's Ready condition to carry the
// heartbeat at.
func (h *harness) waitNodeHeartbeat(at time.Time) *corev1.Node {
	h.t.Helper()
	ctx, cancel := clustertest.WaitContext(h.t)
	defer cancel()
	nodes := h.cs.Nodes()
	node, err := nodes.Get(ctx, h.node, client.GetOptions{})
	require.NoError(h.t, err, "get node")
	w, err := nodes.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + h.node, ResourceVersion: node.ResourceVersion})
	require.NoError(h.t, err, "watch node")
	defer w.Stop()
	for !nodeCondition(node, corev1.NodeReady).LastHeartbeatTime.Time.Equal(at) {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(h.t, ok, "node watch ended")
			if ev.Type == watch.Modified {
				node = ev.Object.(*corev1.Node)
			}
		case <-ctx.Done():
			h.t.Fatalf("node heartbeat %v not written within %v", at, clustertest.WaitTimeout)
		}
	}
	return node
}

// TestHeartbeats: the Lease is renewed every HeartbeatInterval and the
// node's conditions every NodeStatusUpdateFrequency, by the clock.
func TestHeartbeats(t *testing.T) {
	h := newHarness(t, func(o *kubelet.Options) { o.NodeStatusUpdateFrequency = 20 * time.Second })
	// The tickers exist once the kubelet is Ready; wait for them so the
	// steps below reach them.
	require.NoError(t, h.clock.BlockUntilWaiters(t.Context(), 2))

	h.clock.Step(10 * time.Second)
	h.waitLease(epoch.Add(10 * time.Second))
	h.clock.Step(10 * time.Second)
	h.waitLease(epoch.Add(20 * time.Second))
	node := h.waitNodeHeartbeat(epoch.Add(20 * time.Second))
	ready := nodeCondition(node, corev1.NodeReady)
	assert.Equal(t, corev1.ConditionTrue, ready.Status)
	assert.Equal(t, epoch, ready.LastTransitionTime.Time.UTC(), "a heartbeat is no transition")
}

// TestStoppedKubeletLeavesStaleLease: once a kubelet stops, nobody renews
// its Lease, and after leaseDurationSeconds it is stale, which is how the
// control plane tells the node is down. The Node stays.
func TestStoppedKubeletLeavesStaleLease(t *testing.T) {
	h := newHarness(t)
	require.NoError(t, h.clock.BlockUntilWaiters(t.Context(), 2))
	h.clock.Step(10 * time.Second)
	lease := h.waitLease(epoch.Add(10 * time.Second))

	h.stop()
	for range 6 {
		h.clock.Step(10 * time.Second)
	}
	after, err := h.cs.Leases(metav1.NamespaceNodeLease).Get(t.Context(), "node-1", client.GetOptions{})
	require.NoError(t, err, "the lease outlives its kubelet")
	assert.Equal(t, lease.ResourceVersion, after.ResourceVersion, "nobody renewed the lease")
	assert.Equal(t, epoch.Add(10*time.Second), after.Spec.RenewTime.Time.UTC())
	age := h.clock.Now().Sub(after.Spec.RenewTime.Time)
	assert.Greater(t, age, time.Duration(*after.Spec.LeaseDurationSeconds)*time.Second, "the lease is stale")
	_, err = h.cs.Nodes().Get(t.Context(), "node-1", client.GetOptions{})
	assert.NoError(t, err, "the node stays")
}

// TestReregistration: a kubelet that starts again under a registered
// node's name adopts the node and renews the same Lease.
func TestReregistration(t *testing.T) {
	h := newHarness(t)
	first, err := h.cs.Nodes().Get(t.Context(), "node-1", client.GetOptions{})
	require.NoError(t, err)
	h.stop()

	h.clock.Step(time.Minute)
	kl, err := kubelet.New(kubelet.Options{NodeName: "node-1", Clientset: h.cs, PodCIDR: podCIDR, Clock: h.clock})
	require.NoError(t, err)
	startKubelet(t, kl)
	node, err := h.cs.Nodes().Get(t.Context(), "node-1", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, first.UID, node.UID, "the same node")
	assert.Equal(t, int32(kl.LogAddr().Port()), node.Status.DaemonEndpoints.KubeletEndpoint.Port, "the new kubelet's port")
	assert.Equal(t, epoch.Add(time.Minute), nodeCondition(node, corev1.NodeReady).LastHeartbeatTime.Time.UTC())
	lease, err := h.cs.Leases(metav1.NamespaceNodeLease).Get(t.Context(), "node-1", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, epoch.Add(time.Minute), lease.Spec.RenewTime.Time.UTC(), "renewed by the new kubelet")
}

func TestNewValidatesOptions(t *testing.T) {
	cs := clustertest.InMemoryClientset(t, apiservertest.New(t))
	tests := []struct {
		name string
		opts kubelet.Options
	}{
		{name: "no node name", opts: kubelet.Options{Clientset: cs}},
		{name: "bad node name", opts: kubelet.Options{NodeName: "Node_1", Clientset: cs}},
		{name: "no clientset", opts: kubelet.Options{NodeName: "node-1"}},
		{name: "IPv6 podCIDR", opts: kubelet.Options{NodeName: "node-1", Clientset: cs, PodCIDR: netip.MustParsePrefix("fd00::/64")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := kubelet.New(tc.opts)
			assert.Error(t, err, "New(%+v)", tc.opts)
		})
	}
}

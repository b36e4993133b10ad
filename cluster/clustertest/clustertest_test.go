package clustertest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// TestPodsRunAcrossNodes: pods created through the API are scheduled,
// spread over the nodes and Running; WaitIdle is the barrier.
func TestPodsRunAcrossNodes(t *testing.T) {
	c := clustertest.New(t, clustertest.WithNodes(3), clustertest.WithControllers())
	pods := c.Clientset().Pods("default")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for i := range 9 {
		_, err := pods.Create(ctx, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-%d", i)},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
		}, client.WriteOptions{})
		require.NoError(t, err)
	}
	w, err := pods.Watch(ctx, client.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	defer w.Stop()
	running := map[string]string{}
	for len(running) < 9 {
		select {
		case ev := <-w.ResultChan():
			if p, ok := ev.Object.(*corev1.Pod); ok && p.Status.Phase == corev1.PodRunning {
				running[p.Name] = p.Spec.NodeName
			}
		case <-ctx.Done():
			t.Fatalf("only %d of 9 pods Running", len(running))
		}
	}
	require.NoError(t, c.WaitIdle(ctx))
	perNode := map[string]int{}
	for _, node := range running {
		perNode[node]++
	}
	assert.Len(t, perNode, 3, "pods spread over every node: %v", perNode)
}

// TestWaitIdleSeesChangesInFlight: WaitIdle right after a write returns
// only once everything the write set off is done: the Deployment's
// ReplicaSet, its pods scheduled, started and Ready, and the
// Deployment's status saying so, without waiting for any of it first.
func TestWaitIdleSeesChangesInFlight(t *testing.T) {
	c := clustertest.New(t, clustertest.WithNodes(2))
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	deployments := c.Clientset().Deployments("default")
	replicas := int32(3)
	_, err := deployments.Create(ctx, newDeployment("web", replicas, "nginx"), client.WriteOptions{})
	require.NoError(t, err)
	require.NoError(t, c.WaitIdle(ctx))

	d, err := deployments.Get(ctx, "web", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, replicas, d.Status.AvailableReplicas, "available replicas after WaitIdle: %+v", d.Status)
	assert.Equal(t, d.Generation, d.Status.ObservedGeneration, "the Deployment's status is of its spec")
	list, err := c.Clientset().Pods("default").List(ctx, client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, int(replicas), "pods after WaitIdle")
	for _, p := range list.Items {
		assert.Equal(t, corev1.PodRunning, p.Status.Phase, "pod %s", p.Name)
		assert.NotEmpty(t, p.Spec.NodeName, "pod %s bound", p.Name)
	}
}

// TestHundredPodsOnTenNodes: 100 pods on 10 nodes all reach Running, and
// the scheduler's scores spread them (no node gets more than twice its
// share).
func TestHundredPodsOnTenNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := clustertest.New(t, clustertest.WithNodes(10), clustertest.WithControllers())
	pods := c.Clientset().Pods("default")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	w, err := pods.Watch(ctx, client.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	defer w.Stop()
	for i := range 100 {
		_, err := pods.Create(ctx, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p-%d", i)},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx",
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
					corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")}}}}},
		}, client.WriteOptions{})
		require.NoError(t, err)
	}
	running := map[string]string{}
	for len(running) < 100 {
		select {
		case ev := <-w.ResultChan():
			if p, ok := ev.Object.(*corev1.Pod); ok && p.Status.Phase == corev1.PodRunning {
				running[p.Name] = p.Spec.NodeName
			}
		case <-ctx.Done():
			t.Fatalf("only %d of 100 pods Running", len(running))
		}
	}
	perNode := map[string]int{}
	for _, node := range running {
		perNode[node]++
	}
	assert.Len(t, perNode, 10, "every node runs pods: %v", perNode)
	for node, n := range perNode {
		assert.LessOrEqual(t, n, 20, "node %s has %d of 100 pods: %v", node, n, perNode)
	}
}

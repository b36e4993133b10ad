package ttlafterfinished_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/job"
	"github.com/minicp/minicp/controllers/ttlafterfinished"
)

// TestJobDeletedAfterItCompletes runs a Job to completion on a cluster
// with a node and the job controller, then checks that the
// TTL-after-finished controller deletes it ttlSecondsAfterFinished later
// on the clock.
func TestJobDeletedAfterItCompletes(t *testing.T) {
	clk := clocktest.NewFake(epoch)
	c := clustertest.New(t, clustertest.WithNodes(1), clustertest.WithControllers(), clustertest.WithClock(clk))
	e := &env{t: t, clk: clk, cs: c.Clientset()}
	waitNodeSeen(t, c)
	e.mgr = clustertest.StartManager(t, e.cs.Client(), clk, job.Add, ttlafterfinished.Add)

	_, err := e.cs.Jobs(ns).Create(t.Context(), newJob("short-lived", "echo hi; exit 0", ptrTo(int32(10))), client.WriteOptions{})
	require.NoError(t, err)
	j := e.waitJob("short-lived", "complete", func(j *batchv1.Job) bool {
		for _, c := range j.Status.Conditions {
			if c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue {
				return true
			}
		}
		return false
	})
	require.NotNil(t, j.Status.CompletionTime)
	assert.Equal(t, epoch, j.Status.CompletionTime.UTC())

	e.waitIdle()
	e.clk.Step(9 * time.Second)
	e.waitIdle()
	assert.True(t, e.kept("short-lived"), "kept until its TTL expires")
	e.clk.Step(time.Second)
	e.waitDeleted("short-lived")
}

// waitNodeSeen waits until the API server's watch cache has c's node, and
// so has sent it to the scheduler, then until the cluster is idle: Ready
// means the kubelet registered its node, not that the scheduler has it.
func waitNodeSeen(t *testing.T, c *clustertest.Cluster) {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	node, err := c.Clientset().Nodes().Get(ctx, cluster.NodeName(0), client.GetOptions{})
	require.NoError(t, err)
	w, err := c.Clientset().Nodes().Watch(ctx, client.ListOptions{ResourceVersion: node.ResourceVersion})
	require.NoError(t, err)
	w.Stop()
	require.NoError(t, c.WaitIdle(ctx))
}

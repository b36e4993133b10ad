package deployment_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/controllers/deployment"
)

// TestProgressDeadline: a rollout with no progress for
// progressDeadlineSeconds, on the manager's clock, gets Progressing=False
// ProgressDeadlineExceeded; progress before the deadline moves it; a
// rollout that completes after all goes back to True.
func TestProgressDeadline(t *testing.T) {
	t.Parallel()
	clk := clocktest.NewFake(t0)
	e := newEnv(t, withClock(clk))
	d := newDeployment("web", 2)
	deadline := int32(60)
	d.Spec.ProgressDeadlineSeconds = &deadline
	e.create(d)
	e.settle()
	rs := e.replicaSetsOf("web")[0]
	c := requireCondition(t, e.get("web"), appsv1.DeploymentProgressing, corev1.ConditionTrue, deployment.NewReplicaSetReason)
	assert.True(t, c.LastUpdateTime.Equal(t0), "measured from the creation, on the manager's clock: %v", c.LastUpdateTime)

	clk.Step(30 * time.Second)
	e.setRSStatus(rs.Name, 2, 1)
	e.settle()
	c = requireCondition(t, e.get("web"), appsv1.DeploymentProgressing, corev1.ConditionTrue, deployment.ReplicaSetUpdatedReason)
	assert.True(t, c.LastUpdateTime.Equal(t0.Add(30*time.Second)), "progress moves lastUpdateTime: %v", c.LastUpdateTime)
	assert.True(t, c.LastTransitionTime.Equal(t0), "but not lastTransitionTime: %v", c.LastTransitionTime)

	// 70s after the start, 40s after the progress: within the deadline.
	clk.Step(40 * time.Second)
	e.settle()
	requireCondition(t, e.get("web"), appsv1.DeploymentProgressing, corev1.ConditionTrue, deployment.ReplicaSetUpdatedReason)

	// The controller asked to look again when the deadline passes; no
	// event is needed.
	clk.Step(25 * time.Second)
	e.settle()
	got := e.get("web")
	c = requireCondition(t, got, appsv1.DeploymentProgressing, corev1.ConditionFalse, deployment.TimedOutReason)
	assert.Equal(t, fmt.Sprintf("ReplicaSet %q has timed out progressing.", rs.Name), c.Message)
	assert.True(t, c.LastTransitionTime.Equal(t0.Add(95*time.Second)), "%v", c.LastTransitionTime)
	requireCondition(t, got, appsv1.DeploymentAvailable, corev1.ConditionFalse, deployment.MinimumReplicasUnavailable)

	e.setRSStatus(rs.Name, 2, 2)
	e.settle()
	got = e.get("web")
	requireCondition(t, got, appsv1.DeploymentProgressing, corev1.ConditionTrue, deployment.NewRSAvailableReason)
	requireCondition(t, got, appsv1.DeploymentAvailable, corev1.ConditionTrue, deployment.MinimumReplicasAvailable)

	// A complete rollout is not timed: long after, it is still complete.
	clk.Step(10 * time.Minute)
	e.settle()
	requireCondition(t, e.get("web"), appsv1.DeploymentProgressing, corev1.ConditionTrue, deployment.NewRSAvailableReason)
}

// TestPausedDeploymentOnlyScales: a paused Deployment does not roll out a
// new template, but it is scaled, and its Progressing condition says it
// is paused, so the pause is not taken for lack of progress; resuming
// rolls the template out.
func TestPausedDeploymentOnlyScales(t *testing.T) {
	t.Parallel()
	clk := clocktest.NewFake(t0)
	e := newEnv(t, withClock(clk))
	d := newDeployment("web", 2)
	deadline := int32(60)
	d.Spec.ProgressDeadlineSeconds = &deadline
	e.create(d)
	e.completeRollout("web")
	reasons := e.watchProgressing("web")

	e.update("web", func(d *appsv1.Deployment) { d.Spec.Paused = true })
	e.settle()
	requireCondition(t, e.get("web"), appsv1.DeploymentProgressing, corev1.ConditionUnknown, deployment.PausedDeployReason)

	e.setImage("web", "nginx:1.26")
	e.update("web", func(d *appsv1.Deployment) { n := int32(4); d.Spec.Replicas = &n })
	e.settle()
	rss := e.replicaSetsOf("web")
	require.Len(t, rss, 1, "no rollout while paused")
	assert.Equal(t, int32(4), *rss[0].Spec.Replicas, "but scaling goes on")
	got := e.get("web")
	assert.Equal(t, got.Generation, got.Status.ObservedGeneration)
	assert.Equal(t, "1", got.Annotations[deployment.RevisionAnnotation])

	// A pause longer than the deadline is not a timeout.
	clk.Step(5 * time.Minute)
	e.completeRollout("web")
	e.update("web", func(d *appsv1.Deployment) { d.Spec.Paused = false })
	e.settle()
	require.NotNil(t, e.replicaSetFor("web", "nginx:1.26"), "resuming rolls the new template out")
	e.completeRollout("web")

	assert.Equal(t, []string{
		deployment.NewRSAvailableReason, deployment.PausedDeployReason, deployment.ResumedDeployReason,
		deployment.NewReplicaSetReason, deployment.ReplicaSetUpdatedReason, deployment.NewRSAvailableReason,
	}, reasons())
}

// TestDeletingDeploymentIsLeftToTheGarbageCollector: a Deployment being
// deleted (held by a finalizer here) gets no rollout: its ReplicaSets are
// neither replaced nor deleted by the controller.
func TestDeletingDeploymentIsLeftToTheGarbageCollector(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newDeployment("web", 2)
	d.Finalizers = []string{"example.com/hold"}
	e.create(d)
	e.completeRollout("web")
	before := e.replicaSetsOf("web")
	require.Len(t, before, 1)

	require.NoError(t, e.cs.Deployments(ns).Delete(e.ctx(), "web", metav1.DeleteOptions{}))
	e.setImage("web", "nginx:1.26")
	e.settle()
	after := e.replicaSetsOf("web")
	require.Len(t, after, 1, "no new ReplicaSet for a Deployment being deleted")
	assert.Equal(t, before[0].UID, after[0].UID)
	assert.Equal(t, int32(2), *after[0].Spec.Replicas)

	e.update("web", func(d *appsv1.Deployment) { d.Finalizers = nil })
	ctx := e.ctx()
	e.waitFor("deployment gone", func() bool {
		_, err := e.cs.Deployments(ns).Get(ctx, "web", client.GetOptions{})
		return err != nil
	})
}

package deployment_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controllerref"
	"github.com/minicp/minicp/controllers/deployment"
)

// recreate sets d's strategy to Recreate.
func recreate(d *appsv1.Deployment) *appsv1.Deployment {
	d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	return d
}

// createPodOf creates a pod of rs, as the replicaset controller would.
func (e *env) createPodOf(rs *appsv1.ReplicaSet, name string) {
	e.t.Helper()
	_, err := e.cs.Pods(ns).Create(e.ctx(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Labels: rs.Spec.Template.Labels,
			OwnerReferences: []metav1.OwnerReference{controllerref.NewControllerRef(&rs.ObjectMeta, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))},
		},
		Spec: rs.Spec.Template.Spec,
	}, client.WriteOptions{})
	require.NoError(e.t, err, "create pod %s", name)
}

// TestRecreateWaitsForOldPods: a Recreate rollout scales the old
// ReplicaSet to 0 and creates the new one only once the old pods are
// gone, whatever the old ReplicaSet's status says first.
func TestRecreateWaitsForOldPods(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(recreate(newDeployment("web", 2)))
	e.completeRollout("web")
	old := e.replicaSetFor("web", "nginx:1.25")
	e.createPodOf(old, "old-0")
	e.createPodOf(old, "old-1")

	e.setImage("web", "nginx:1.26")
	e.settle()
	old = e.replicaSetFor("web", "nginx:1.25")
	assert.Zero(t, *old.Spec.Replicas, "old scaled down at once")
	assert.Len(t, e.replicaSetsOf("web"), 1, "no new ReplicaSet while the old one reports pods")
	e.waitForEvent("web", "ScalingReplicaSet", fmt.Sprintf("Scaled down replica set %s from 2 to 0", old.Name))

	e.setRSStatus(old.Name, 0, 0)
	e.settle()
	assert.Len(t, e.replicaSetsOf("web"), 1, "no new ReplicaSet while old pods exist")

	zero := int64(0)
	require.NoError(t, e.cs.Pods(ns).Delete(e.ctx(), "old-0", metav1.DeleteOptions{GracePeriodSeconds: &zero}))
	e.settle()
	assert.Len(t, e.replicaSetsOf("web"), 1, "one old pod is left")

	require.NoError(t, e.cs.Pods(ns).Delete(e.ctx(), "old-1", metav1.DeleteOptions{GracePeriodSeconds: &zero}))
	e.settle()
	rs := e.replicaSetFor("web", "nginx:1.26")
	require.NotNil(t, rs, "the last old pod's deletion lets the new ReplicaSet come")
	assert.Equal(t, int32(2), *rs.Spec.Replicas, "all replicas at once")
	e.waitForEvent("web", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to 2", rs.Name))

	e.completeRollout("web")
	d := e.get("web")
	assert.Equal(t, int32(2), d.Status.UpdatedReplicas)
	assert.Equal(t, "2", d.Annotations[deployment.RevisionAnnotation])
}

// TestRecreateIgnoresFinishedPods: old pods that have finished (Failed or
// Succeeded) do not hold a Recreate rollout back.
func TestRecreateIgnoresFinishedPods(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(recreate(newDeployment("web", 1)))
	e.completeRollout("web")
	old := e.replicaSetFor("web", "nginx:1.25")
	e.createPodOf(old, "old-0")
	ctx := e.ctx()
	require.NoError(t, client.RetryOnConflict(ctx, retryNow, func() error {
		p, err := e.cs.Pods(ns).Get(ctx, "old-0", client.GetOptions{})
		if err != nil {
			return err
		}
		p.Status.Phase = corev1.PodFailed
		_, err = e.cs.Pods(ns).UpdateStatus(ctx, p, client.WriteOptions{})
		return err
	}))

	e.setImage("web", "nginx:1.26")
	e.settle()
	e.setRSStatus(old.Name, 0, 0)
	e.settle()
	assert.NotNil(t, e.replicaSetFor("web", "nginx:1.26"), "a failed pod is not running")
}

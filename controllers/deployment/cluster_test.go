package deployment_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/deployment"
	"github.com/minicp/minicp/controllers/replicaset"
)

// newClusterEnv runs the deployment and replicaset controllers (and no
// other) on a cluster whose scheduler and kubelets run the pods.
func newClusterEnv(t *testing.T) *env {
	t.Helper()
	if testing.Short() {
		t.Skip("scenario test: runs a cluster")
	}
	c := clustertest.New(t, clustertest.WithNodes(2), clustertest.WithControllers())
	return newEnv(t, withCluster(c), withController(replicaset.Add))
}

// waitRolledOut waits until the Deployment name has completed the rollout
// of its current generation, as kubectl rollout status waits.
func (e *env) waitRolledOut(name string) *appsv1.Deployment {
	e.t.Helper()
	var d *appsv1.Deployment
	e.waitFor("rollout of "+name, func() bool {
		d = e.get(name)
		c := condition(d, appsv1.DeploymentProgressing)
		n := *d.Spec.Replicas
		return d.Status.ObservedGeneration >= d.Generation && d.Status.UpdatedReplicas == n &&
			d.Status.Replicas == n && d.Status.AvailableReplicas == n &&
			c != nil && c.Reason == deployment.NewRSAvailableReason
	})
	return d
}

// podState classifies a pod of the test's view: running (neither being
// deleted nor finished) and available (running and Ready).
func podState(p *corev1.Pod) (running, available bool) {
	if p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
		return false, false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return true, c.Status == corev1.ConditionTrue
		}
	}
	return true, false
}

// TestClusterRollingUpdateStaysWithinBounds rolls a Deployment out on
// real kubelets, with the replicaset controller making the pods, and
// checks every state of the pods on the way: never more running than
// replicas + maxSurge, never fewer available than replicas -
// maxUnavailable.
func TestClusterRollingUpdateStaysWithinBounds(t *testing.T) {
	t.Parallel()
	e := newClusterEnv(t)
	const replicas, surge, unavailable = 6, 2, 1
	e.create(rolling(newDeployment("web", replicas), intstr.FromInt32(surge), intstr.FromInt32(unavailable)))
	e.waitRolledOut("web")

	stop := e.watchPods(func(pods map[string]*corev1.Pod) []string {
		var running, available int
		for _, p := range pods {
			r, a := podState(p)
			if r {
				running++
			}
			if a {
				available++
			}
		}
		var errs []string
		if running > replicas+surge {
			errs = append(errs, fmt.Sprintf("%d pods running > %d", running, replicas+surge))
		}
		if available < replicas-unavailable {
			errs = append(errs, fmt.Sprintf("%d pods available < %d", available, replicas-unavailable))
		}
		return errs
	})
	e.setImage("web", "nginx:1.26")
	d := e.waitRolledOut("web")
	e.settle()
	states, errs := stop().result()
	assert.Empty(t, errs, "states breaking the bounds:\n%s", joinErrs(errs))
	assert.Greater(t, states, 2*replicas, "the pods' changes were observed")

	newRS := e.replicaSetFor("web", "nginx:1.26")
	require.NotNil(t, newRS)
	pods, err := e.pods.ByNamespace(ns).List(nil)
	require.NoError(t, err)
	require.Len(t, pods, replicas, "the old pods are gone")
	for _, p := range pods {
		assert.Equal(t, hashOf(&newRS.ObjectMeta), hashOf(&p.ObjectMeta), "pod %s runs the new template", p.Name)
		assert.Equal(t, "nginx:1.26", p.Spec.Containers[0].Image)
	}
	assert.Zero(t, *e.replicaSetFor("web", "nginx:1.25").Spec.Replicas)
	requireCondition(t, d, appsv1.DeploymentAvailable, corev1.ConditionTrue, deployment.MinimumReplicasAvailable)
	assert.Equal(t, "2", d.Annotations[deployment.RevisionAnnotation])
	assert.Equal(t, int32(replicas), d.Status.ReadyReplicas)
}

// TestClusterRecreateNeverRunsOldAndNew: a Recreate rollout on real
// kubelets never has a pod of the old template and one of the new
// running at the same time.
func TestClusterRecreateNeverRunsOldAndNew(t *testing.T) {
	t.Parallel()
	e := newClusterEnv(t)
	d := recreate(newDeployment("web", 3))
	// A shell ignores SIGTERM: the old pods run on for their grace period
	// after their deletion, which the rollout must wait out.
	grace := int64(1)
	d.Spec.Template.Spec.TerminationGracePeriodSeconds = &grace
	d.Spec.Template.Spec.Containers[0].Image = "busybox:1.36"
	d.Spec.Template.Spec.Containers[0].Command = []string{"sh", "-c", "sleep 3600"}
	e.create(d)
	e.waitRolledOut("web")
	oldHash := hashOf(&e.replicaSetFor("web", "busybox:1.36").ObjectMeta)

	sawNew := false
	stop := e.watchPods(func(pods map[string]*corev1.Pod) []string {
		var oldPods, newPods int
		for _, p := range pods {
			// A pod being deleted still runs until the kubelet stops it.
			if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
				continue
			}
			if hashOf(&p.ObjectMeta) == oldHash {
				oldPods++
			} else {
				newPods++
			}
		}
		if newPods > 0 {
			sawNew = true
		}
		if oldPods > 0 && newPods > 0 {
			return []string{fmt.Sprintf("%d old and %d new pods", oldPods, newPods)}
		}
		return nil
	})
	e.setImage("web", "busybox:1.37")
	e.waitRolledOut("web")
	e.settle()
	_, errs := stop().result()
	assert.Empty(t, errs, "old and new pods ran together:\n%s", joinErrs(errs))
	assert.True(t, sawNew, "the new pods were observed")
	assert.Zero(t, *e.replicaSetFor("web", "busybox:1.36").Spec.Replicas)
	assert.Equal(t, int32(3), *e.replicaSetFor("web", "busybox:1.37").Spec.Replicas)
}

package deployment_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/deployment"
)

// TestCreateMakesTheNewReplicaSet: a new Deployment gets one ReplicaSet,
// named and labelled with the hash of its template, owned by it, with
// the revision and replicas annotations, and the event kubectl describe
// shows.
func TestCreateMakesTheNewReplicaSet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newDeployment("web", 3)
	d.Annotations = map[string]string{
		"team": "blue",
		"kubectl.kubernetes.io/last-applied-configuration": "{}",
	}
	d = e.create(d)
	e.settle()

	rss := e.replicaSetsOf("web")
	require.Len(t, rss, 1)
	rs := rss[0]
	hash := deployment.ComputeHash(&d.Spec.Template, nil)
	assert.Equal(t, "web-"+hash, rs.Name)
	assert.Equal(t, hash, rs.Labels[appsv1.DefaultDeploymentUniqueLabelKey], "labels")
	assert.Equal(t, hash, rs.Spec.Selector.MatchLabels[appsv1.DefaultDeploymentUniqueLabelKey], "selector")
	assert.Equal(t, hash, rs.Spec.Template.Labels[appsv1.DefaultDeploymentUniqueLabelKey], "template labels")
	assert.Equal(t, "web", rs.Spec.Template.Labels["app"])
	assert.Equal(t, int32(3), *rs.Spec.Replicas, "the first ReplicaSet takes every replica at once")
	assert.True(t, deployment.EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template))

	ref := rs.ControllerRef()
	require.NotNil(t, ref)
	assert.Equal(t, d.UID, ref.UID)
	assert.Equal(t, "Deployment", ref.Kind)
	assert.Equal(t, "apps/v1", ref.APIVersion)

	assert.Equal(t, "1", rs.Annotations[deployment.RevisionAnnotation])
	assert.Equal(t, "3", rs.Annotations[deployment.DesiredReplicasAnnotation])
	assert.Equal(t, "4", rs.Annotations[deployment.MaxReplicasAnnotation], "3 + 25%% of 3 rounded up")
	assert.Equal(t, "blue", rs.Annotations["team"], "the Deployment's annotations are copied")
	assert.NotContains(t, rs.Annotations, "kubectl.kubernetes.io/last-applied-configuration")
	assert.Equal(t, "1", e.get("web").Annotations[deployment.RevisionAnnotation])

	e.waitForEvent("web", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to 3", rs.Name))
}

// TestStatusAndConditions: the status follows the ReplicaSet's pods:
// counts, observedGeneration, Available and Progressing, as kubectl
// rollout status reads them.
func TestStatusAndConditions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := e.create(newDeployment("web", 3))
	e.settle()

	got := e.get("web")
	assert.Equal(t, d.Generation, got.Status.ObservedGeneration)
	assert.Zero(t, got.Status.Replicas, "no pods yet")
	assert.Equal(t, int32(3), got.Status.UnavailableReplicas)
	requireCondition(t, got, appsv1.DeploymentAvailable, corev1.ConditionFalse, deployment.MinimumReplicasUnavailable)
	rs := e.replicaSetsOf("web")[0]
	c := requireCondition(t, got, appsv1.DeploymentProgressing, corev1.ConditionTrue, deployment.NewReplicaSetReason)
	assert.Equal(t, fmt.Sprintf("Created new replica set %q", rs.Name), c.Message)

	// Two pods up, one available: progress, not yet available (25% of 3
	// rounds down to 0 unavailable allowed).
	e.setRSStatus(rs.Name, 2, 1)
	e.settle()
	got = e.get("web")
	assert.Equal(t, int32(2), got.Status.Replicas)
	assert.Equal(t, int32(2), got.Status.UpdatedReplicas)
	assert.Equal(t, int32(1), got.Status.ReadyReplicas)
	assert.Equal(t, int32(1), got.Status.AvailableReplicas)
	assert.Equal(t, int32(2), got.Status.UnavailableReplicas)
	requireCondition(t, got, appsv1.DeploymentAvailable, corev1.ConditionFalse, deployment.MinimumReplicasUnavailable)
	c = requireCondition(t, got, appsv1.DeploymentProgressing, corev1.ConditionTrue, deployment.ReplicaSetUpdatedReason)
	assert.Equal(t, fmt.Sprintf("ReplicaSet %q is progressing.", rs.Name), c.Message)

	e.setRSStatus(rs.Name, 3, 3)
	e.settle()
	got = e.get("web")
	assert.Equal(t, appsv1.DeploymentStatus{
		ObservedGeneration: d.Generation, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
		Conditions: got.Status.Conditions,
	}, got.Status)
	c = requireCondition(t, got, appsv1.DeploymentAvailable, corev1.ConditionTrue, deployment.MinimumReplicasAvailable)
	assert.Equal(t, "Deployment has minimum availability.", c.Message)
	c = requireCondition(t, got, appsv1.DeploymentProgressing, corev1.ConditionTrue, deployment.NewRSAvailableReason)
	assert.Equal(t, fmt.Sprintf("ReplicaSet %q has successfully progressed.", rs.Name), c.Message)

	// A spec change is observed even when it changes nothing to roll out.
	e.update("web", func(d *appsv1.Deployment) { d.Spec.MinReadySeconds = 5 })
	e.settle()
	got = e.get("web")
	assert.Equal(t, got.Generation, got.Status.ObservedGeneration)
	assert.Equal(t, int32(5), e.replicaSetsOf("web")[0].Spec.MinReadySeconds, "minReadySeconds goes to the new ReplicaSet")
}

// TestAdoptsAnOrphanWithItsTemplate: a ReplicaSet left by a deleted
// Deployment (orphaned) whose template is the new Deployment's is
// adopted as its new ReplicaSet instead of a second one being made.
func TestAdoptsAnOrphanWithItsTemplate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newDeployment("web", 2)
	hash := "orphan"
	tmpl := runtime.DeepCopy(d.Spec.Template)
	tmpl.Labels[appsv1.DefaultDeploymentUniqueLabelKey] = hash
	two := int32(2)
	orphan, err := e.cs.ReplicaSets(ns).Create(e.ctx(), &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web-orphan", Labels: tmpl.Labels},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &two,
			Selector: &metav1.LabelSelector{MatchLabels: tmpl.Labels},
			Template: tmpl,
		},
	}, client.WriteOptions{})
	require.NoError(t, err)
	e.settle() // the controller knows of the orphan when the Deployment comes

	d = e.create(d)
	e.settle()
	rss := e.replicaSetsOf("web")
	require.Len(t, rss, 1, "the orphan is adopted, nothing else is made")
	assert.Equal(t, orphan.UID, rss[0].UID)
	assert.Equal(t, d.UID, rss[0].ControllerRef().UID)
	assert.Equal(t, "1", rss[0].Annotations[deployment.RevisionAnnotation])

	sel, err := labels.FromLabelSelector(rss[0].Spec.Selector)
	require.NoError(t, err)
	assert.Equal(t, "app=web,pod-template-hash=orphan", sel.String(), "an adopted ReplicaSet keeps its selector")
}

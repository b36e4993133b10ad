package deployment_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/deployment"
)

// TestRevisionsAcrossUpdatesAndRollback: each template gets the next
// revision; rolling back to the first template (what kubectl rollout
// undo writes) makes its ReplicaSet the new one again, with the next
// revision and its old one in the history, and no ReplicaSet is added.
func TestRevisionsAcrossUpdatesAndRollback(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(newDeployment("web", 2))
	e.completeRollout("web")
	e.setImage("web", "nginx:1.26")
	e.completeRollout("web")
	e.setImage("web", "nginx:1.27")
	e.completeRollout("web")

	revisions := func() map[string]string {
		out := map[string]string{}
		for _, rs := range e.replicaSetsOf("web") {
			out[rs.Spec.Template.Spec.Containers[0].Image] = rs.Annotations[deployment.RevisionAnnotation]
		}
		return out
	}
	assert.Equal(t, map[string]string{"nginx:1.25": "1", "nginx:1.26": "2", "nginx:1.27": "3"}, revisions())
	assert.Equal(t, "3", e.get("web").Annotations[deployment.RevisionAnnotation])

	first := e.replicaSetFor("web", "nginx:1.25")
	e.setImage("web", "nginx:1.25")
	e.completeRollout("web")

	assert.Equal(t, map[string]string{"nginx:1.25": "4", "nginx:1.26": "2", "nginx:1.27": "3"}, revisions(),
		"the revision moves to the ReplicaSet rolled back to")
	back := e.replicaSetFor("web", "nginx:1.25")
	assert.Equal(t, first.UID, back.UID, "the first ReplicaSet is reused")
	assert.Equal(t, "1", back.Annotations[deployment.RevisionHistoryAnnotation])
	assert.Equal(t, int32(2), *back.Spec.Replicas)
	assert.Equal(t, "2", back.Annotations[deployment.DesiredReplicasAnnotation])
	assert.Equal(t, "3", back.Annotations[deployment.MaxReplicasAnnotation])
	for _, img := range []string{"nginx:1.26", "nginx:1.27"} {
		assert.Zero(t, *e.replicaSetFor("web", img).Spec.Replicas, "%s scaled down", img)
	}
	d := e.get("web")
	assert.Equal(t, "4", d.Annotations[deployment.RevisionAnnotation])
	assert.Equal(t, int32(2), d.Status.UpdatedReplicas)
}

// TestHashCollisionBumpsCollisionCount: when a ReplicaSet that is not the
// Deployment's already has the name its template hashes to, the
// Deployment counts a collision and takes the name of the next hash.
func TestHashCollisionBumpsCollisionCount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// The template as stored (defaulted): a dry run returns it.
	dry, err := e.cs.Deployments(ns).Create(e.ctx(), newDeployment("web", 1), client.WriteOptions{DryRun: true})
	require.NoError(t, err)
	taken := "web-" + deployment.ComputeHash(&dry.Spec.Template, nil)

	// A ReplicaSet of something else under that name: same containers,
	// other labels, so the Deployment does not select it.
	other := map[string]string{"app": "other"}
	one := int32(1)
	squatter := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: taken, Labels: other},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &one,
			Selector: &metav1.LabelSelector{MatchLabels: other},
			Template: dry.Spec.Template,
		},
	}
	squatter.Spec.Template.Labels = other
	squatter, err = e.cs.ReplicaSets(ns).Create(e.ctx(), squatter, client.WriteOptions{})
	require.NoError(t, err)

	e.create(newDeployment("web", 1))
	e.settle()

	d := e.get("web")
	require.NotNil(t, d.Status.CollisionCount)
	assert.Equal(t, int32(1), *d.Status.CollisionCount)
	rss := e.replicaSetsOf("web")
	require.Len(t, rss, 1)
	assert.Equal(t, "web-"+deployment.ComputeHash(&dry.Spec.Template, d.Status.CollisionCount), rss[0].Name)
	assert.NotEqual(t, taken, rss[0].Name)

	still, err := e.cs.ReplicaSets(ns).Get(e.ctx(), taken, client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, squatter.UID, still.UID, "the other ReplicaSet is left alone")
	assert.Nil(t, still.ControllerRef())
}

// TestRevisionHistoryLimit: once a rollout completes, old ReplicaSets
// scaled to 0 beyond revisionHistoryLimit are deleted, oldest revision
// first.
func TestRevisionHistoryLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newDeployment("web", 1)
	limit := int32(1)
	d.Spec.RevisionHistoryLimit = &limit
	e.create(d)
	e.completeRollout("web")
	for _, img := range []string{"nginx:1.26", "nginx:1.27", "nginx:1.28"} {
		e.setImage("web", img)
		e.completeRollout("web")
	}
	e.settle()

	var images []string
	for _, rs := range e.replicaSetsOf("web") {
		images = append(images, rs.Spec.Template.Spec.Containers[0].Image)
	}
	assert.ElementsMatch(t, []string{"nginx:1.27", "nginx:1.28"}, images, "the new ReplicaSet and one old one are kept")
}

// TestEditedAnnotationsDoNotStopRollouts: annotations edited by hand into
// nonsense neither crash the controller nor stop it from scaling and
// rolling out.
func TestEditedAnnotationsDoNotStopRollouts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(newDeployment("web", 2))
	e.completeRollout("web")
	old := e.replicaSetsOf("web")[0]
	ctx := e.ctx()
	require.NoError(t, client.RetryOnConflict(ctx, retryNow, func() error {
		rs, err := e.cs.ReplicaSets(ns).Get(ctx, old.Name, client.GetOptions{})
		if err != nil {
			return err
		}
		rs.Annotations[deployment.RevisionAnnotation] = "one"
		rs.Annotations[deployment.DesiredReplicasAnnotation] = "two"
		rs.Annotations[deployment.MaxReplicasAnnotation] = "-"
		_, err = e.cs.ReplicaSets(ns).Update(ctx, rs, client.WriteOptions{})
		return err
	}))

	e.update("web", func(d *appsv1.Deployment) { n := int32(3); d.Spec.Replicas = &n })
	e.completeRollout("web")
	assert.Equal(t, int32(3), *e.replicaSetsOf("web")[0].Spec.Replicas, "scaled")

	e.setImage("web", "nginx:1.26")
	e.completeRollout("web")
	rs := e.replicaSetFor("web", "nginx:1.26")
	require.NotNil(t, rs, "rolled out")
	assert.Equal(t, int32(3), *rs.Spec.Replicas)
	assert.Equal(t, "1", rs.Annotations[deployment.RevisionAnnotation], "the unreadable revision counts as none")
	assert.Zero(t, *e.replicaSetFor("web", "nginx:1.25").Spec.Replicas)
}

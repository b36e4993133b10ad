package controllerref_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/controllerref"
)

// fixture is an API server with a ReplicaSet "rs" selecting app=web.
type fixture struct {
	cs *client.Clientset
	rs *appsv1.ReplicaSet
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	cs, err := client.NewClientset(clustertest.InMemoryClient(t, apiservertest.New(t)))
	require.NoError(t, err)
	one := int32(1)
	labelsWeb := map[string]string{"app": "web"}
	rs, err := cs.ReplicaSets("default").Create(t.Context(), &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "rs"},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &one,
			Selector: &metav1.LabelSelector{MatchLabels: labelsWeb},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labelsWeb},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	}, client.WriteOptions{})
	require.NoError(t, err)
	return &fixture{cs: cs, rs: rs}
}

func (f *fixture) pod(t *testing.T, name string, lbls map[string]string, owners ...metav1.OwnerReference) *corev1.Pod {
	t.Helper()
	p, err := f.cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: lbls, OwnerReferences: owners},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	return p
}

func (f *fixture) manager(t *testing.T) *controllerref.RefManager {
	sel, err := labels.FromLabelSelector(f.rs.Spec.Selector)
	require.NoError(t, err)
	return controllerref.For(f.rs, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"), sel, f.cs.ReplicaSets(""), f.cs.Pods(""))
}

func (f *fixture) controllerOf(t *testing.T, name string) *metav1.OwnerReference {
	t.Helper()
	p, err := f.cs.Pods("default").Get(t.Context(), name, client.GetOptions{})
	require.NoError(t, err)
	return p.ControllerRef()
}

func names[T metav1.Object](objs []T) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.GetObjectMeta().Name)
	}
	return out
}

func TestClaimAdoptsReleasesAndLeavesOthersAlone(t *testing.T) {
	f := newFixture(t)
	web := map[string]string{"app": "web"}
	ours := controllerref.NewControllerRef(&f.rs.ObjectMeta, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))
	theirs := ours
	theirs.UID, theirs.Name = "someone-else", "other"

	pods := []*corev1.Pod{
		f.pod(t, "orphan-match", web),
		f.pod(t, "orphan-nomatch", map[string]string{"app": "db"}),
		f.pod(t, "owned-match", web, ours),
		f.pod(t, "owned-nomatch", map[string]string{"app": "db"}, ours),
		f.pod(t, "other-owner", web, theirs),
	}
	claimed, err := controllerref.Claim(t.Context(), f.manager(t), pods)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"orphan-match", "owned-match"}, names(claimed))

	ref := f.controllerOf(t, "orphan-match")
	require.NotNil(t, ref, "the matching orphan is adopted")
	assert.Equal(t, f.rs.UID, ref.UID)
	assert.Equal(t, "apps/v1", ref.APIVersion)
	assert.Equal(t, "ReplicaSet", ref.Kind)
	require.NotNil(t, ref.BlockOwnerDeletion)
	assert.True(t, *ref.BlockOwnerDeletion)
	assert.Nil(t, f.controllerOf(t, "owned-nomatch"), "the owned pod that no longer matches is released")
	assert.Nil(t, f.controllerOf(t, "orphan-nomatch"))
	assert.Equal(t, "someone-else", f.controllerOf(t, "other-owner").UID)
}

func TestClaimDoesNotAdoptForADeletedController(t *testing.T) {
	f := newFixture(t)
	orphan := f.pod(t, "orphan", map[string]string{"app": "web"})
	m := f.manager(t)
	require.NoError(t, f.cs.ReplicaSets("default").Delete(t.Context(), "rs", metav1.DeleteOptions{}))

	claimed, err := m.Claim(t.Context(), []metav1.Object{orphan})
	assert.Error(t, err, "the cached controller is stale: the fresh read finds it gone")
	assert.Empty(t, claimed)
	assert.Nil(t, f.controllerOf(t, "orphan"))
}

func TestClaimSkipsAnObjectGoneMeanwhile(t *testing.T) {
	f := newFixture(t)
	orphan := f.pod(t, "orphan", map[string]string{"app": "web"})
	require.NoError(t, f.cs.Pods("default").Delete(t.Context(), "orphan", metav1.DeleteOptions{GracePeriodSeconds: new(int64)}))

	claimed, err := f.manager(t).Claim(t.Context(), []metav1.Object{orphan})
	assert.NoError(t, err)
	assert.Empty(t, claimed)
}

func TestClaimDoesNotAdoptAReplacedObject(t *testing.T) {
	f := newFixture(t)
	stale := f.pod(t, "orphan", map[string]string{"app": "web"})
	require.NoError(t, f.cs.Pods("default").Delete(t.Context(), "orphan", metav1.DeleteOptions{GracePeriodSeconds: new(int64)}))
	f.pod(t, "orphan", map[string]string{"app": "web"}) // same name, new uid

	_, err := f.manager(t).Claim(t.Context(), []metav1.Object{stale})
	assert.Error(t, err, "the patch carries the stale uid, which is immutable")
	assert.Nil(t, f.controllerOf(t, "orphan"))
}

func TestClaimReturnsPatchErrorsWithWhatItClaimed(t *testing.T) {
	f := newFixture(t)
	web := map[string]string{"app": "web"}
	ours := controllerref.NewControllerRef(&f.rs.ObjectMeta, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))
	m := f.manager(t)
	boom := errors.New("boom")
	m.Patch = func(context.Context, string, []byte) error { return boom }

	claimed, err := m.Claim(t.Context(), []metav1.Object{f.pod(t, "owned", web, ours), f.pod(t, "orphan", web)})
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, []string{"owned"}, names(claimed))
}

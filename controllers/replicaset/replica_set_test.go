package replicaset_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// TestScaleUpAndDown: the controller creates pods from the template until
// spec.replicas match, and deletes the extra ones when scaled down,
// reporting each count in the status; at rest the count is exact.
func TestScaleUpAndDown(t *testing.T) {
	e := newAPIEnv(t, nil)
	rs := createRS(t, e.cs, newReplicaSet("web", 3))

	for _, n := range []int32{3, 5, 1, 0, 2} {
		if n != 3 {
			scale(t, e.cs, "web", n)
		}
		got := waitForRS(t, e.cs, "web", "status at the new scale", statusIs(n))
		waitCached(t, e.mgr, got, false)
		clustertest.WaitIdle(t, e.mgr)
		pods := listPods(t, e.cs)
		assert.Len(t, ownedBy(rs, pods), int(n), "scaled to %d:\n%s", n, describePods(pods))
		assert.Len(t, pods, int(n), "no pod but the ReplicaSet's: unassigned pods are deleted at once")
		assert.Equal(t, n, got.Status.FullyLabeledReplicas, "scaled to %d", n)
	}

	for _, p := range ownedBy(rs, listPods(t, e.cs)) {
		assert.True(t, strings.HasPrefix(p.Name, "web-"), "generateName: %s", p.Name)
		assert.Equal(t, "frontend", p.Labels["tier"], "template labels")
		assert.Equal(t, "from the template", p.Annotations["example.com/note"], "template annotations")
		ref := p.ControllerRef()
		require.NotNil(t, ref)
		assert.Equal(t, metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: rs.UID,
			Controller: ref.Controller, BlockOwnerDeletion: ref.BlockOwnerDeletion}, *ref)
		require.NotNil(t, ref.BlockOwnerDeletion)
		assert.True(t, *ref.BlockOwnerDeletion, "a foreground deletion of the ReplicaSet waits for its pods")
	}

	for reason, message := range map[string]string{"SuccessfulCreate": `^Created pod: web-\w+$`, "SuccessfulDelete": `^Deleted pod: web-\w+$`} {
		ev := waitForEvent(t, e.cs, reason)
		assert.Regexp(t, message, ev.Message)
		assert.Equal(t, corev1.EventTypeNormal, ev.Type)
		assert.Equal(t, "replicaset-controller", ev.Source.Component)
	}
}

// TestAdoptsMatchingOrphanAndReleasesMismatchedPod: a ReplicaSet adopts
// an orphan its selector matches instead of creating a pod for it, and
// releases an owned pod whose labels stop matching, replacing it.
func TestAdoptsMatchingOrphanAndReleasesMismatchedPod(t *testing.T) {
	var orphan *corev1.Pod
	e := newAPIEnvAfter(t, nil, func(cs *client.Clientset) {
		orphan = createPod(t, cs, "orphan", "", webLabels)
		createPod(t, cs, "stranger", "", map[string]string{"app": "db"})
	})
	rs := createRS(t, e.cs, newReplicaSet("web", 2))

	got := waitForRS(t, e.cs, "web", "two replicas", statusIs(2))
	assert.Equal(t, int32(1), got.Status.FullyLabeledReplicas, "the orphan lacks the template's tier label")
	pods := listPods(t, e.cs)
	owned := ownedBy(rs, pods)
	require.Len(t, owned, 2, "one adopted, one created:\n%s", describePods(pods))
	assert.Contains(t, []string{owned[0].Name, owned[1].Name}, "orphan", "the orphan is adopted")
	assert.Nil(t, pods["stranger"].ControllerRef(), "a pod the selector does not match is left alone")
	assert.Len(t, pods, 3, "only one pod was created")

	adopted := pods["orphan"]
	assert.Equal(t, orphan.UID, adopted.UID)
	adopted.Labels = map[string]string{"app": "other"}
	_, err := e.cs.Pods("default").Update(t.Context(), adopted, client.WriteOptions{})
	require.NoError(t, err, "relabel the adopted pod")

	pods = waitForPods(t, e.cs, "the relabelled pod released and replaced", func(pods map[string]*corev1.Pod) bool {
		p, ok := pods["orphan"]
		return ok && p.ControllerRef() == nil && len(active(ownedBy(rs, pods))) == 2
	})
	assert.Len(t, pods, 4, "released, not deleted:\n%s", describePods(pods))
}

// TestReplicaSetBeingDeletedAdoptsAndCreatesNothing: once a ReplicaSet
// has a deletionTimestamp it neither adopts orphans (the garbage
// collector would delete them with it) nor creates pods.
func TestReplicaSetBeingDeletedAdoptsAndCreatesNothing(t *testing.T) {
	e := newAPIEnv(t, nil)
	rs := newReplicaSet("web", 0)
	rs.Finalizers = []string{"example.com/hold"} // keeps it in deletion
	rs = createRS(t, e.cs, rs)
	waitForRS(t, e.cs, "web", "first sync", statusIs(0))
	require.NoError(t, e.cs.ReplicaSets("default").Delete(t.Context(), "web", metav1.DeleteOptions{}))
	deleting := scale(t, e.cs, "web", 2)
	require.NotNil(t, deleting.DeletionTimestamp, "held by its finalizer")
	orphan := createPod(t, e.cs, "orphan", "", webLabels)

	waitCached(t, e.mgr, deleting, false)
	waitCached(t, e.mgr, orphan, false)
	clustertest.WaitIdle(t, e.mgr)
	pods := listPods(t, e.cs)
	assert.Len(t, pods, 1, "no pod created:\n%s", describePods(pods))
	assert.Nil(t, pods["orphan"].ControllerRef(), "the orphan is not adopted")
	assert.Empty(t, ownedBy(rs, pods))
}

// TestGracefulDeletionDoesNotBlockTheReplicaSet: pods the controller
// deletes stay terminating for their grace period (nothing runs them
// here), yet they count as deleted at once: the ReplicaSet reports them
// as terminating and acts again right away, and their final deletion
// later changes nothing.
func TestGracefulDeletionDoesNotBlockTheReplicaSet(t *testing.T) {
	e := newAPIEnvAfter(t, nil, func(cs *client.Clientset) {
		// Assigned orphans: deleting a pod bound to a node is graceful.
		for _, name := range []string{"a", "b", "c"} {
			createPod(t, cs, name, "node-1", webLabels)
		}
	})
	rs := createRS(t, e.cs, newReplicaSet("web", 3))
	waitForRS(t, e.cs, "web", "three adopted", statusIs(3))

	scale(t, e.cs, "web", 1)
	waitForRS(t, e.cs, "web", "two terminating", func(rs *appsv1.ReplicaSet) bool {
		return statusIs(1)(rs) && terminating(rs) == 2
	})
	pods := listPods(t, e.cs)
	require.Len(t, pods, 3, "terminating pods stay until their grace period ends:\n%s", describePods(pods))

	// The deletions were observed through the deletionTimestamps: scaling
	// up again does not wait for the pods to go.
	scale(t, e.cs, "web", 2)
	pods = waitForPods(t, e.cs, "a new pod beside the terminating ones", func(pods map[string]*corev1.Pod) bool {
		return len(active(ownedBy(rs, pods))) == 2
	})
	require.Len(t, pods, 4, "%s", describePods(pods))

	zero := int64(0)
	var gone []*corev1.Pod
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			require.NoError(t, e.cs.Pods("default").Delete(t.Context(), p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero}))
			gone = append(gone, p)
		}
	}
	require.Len(t, gone, 2)
	for _, p := range gone {
		waitCached(t, e.mgr, p, true)
	}
	got := waitForRS(t, e.cs, "web", "nothing terminating", func(rs *appsv1.ReplicaSet) bool {
		return statusIs(2)(rs) && terminating(rs) == 0
	})
	waitCached(t, e.mgr, got, false)
	clustertest.WaitIdle(t, e.mgr)
	after := listPods(t, e.cs)
	assert.Len(t, after, 2, "the final deletes made the controller do nothing more:\n%s", describePods(after))
	for name := range after {
		assert.Contains(t, pods, name, "no pod created after the final deletes")
	}
}

// TestDeletedPodIsReplacedAtOnce: a pod deleted by a user is replaced.
func TestDeletedPodIsReplacedAtOnce(t *testing.T) {
	e := newAPIEnv(t, nil)
	rs := createRS(t, e.cs, newReplicaSet("web", 2))
	pods := waitForPods(t, e.cs, "two pods", func(pods map[string]*corev1.Pod) bool { return len(ownedBy(rs, pods)) == 2 })
	victim := ownedBy(rs, pods)[0]
	require.NoError(t, e.cs.Pods("default").Delete(t.Context(), victim.Name, metav1.DeleteOptions{}))

	pods = waitForPods(t, e.cs, "a replacement", func(pods map[string]*corev1.Pod) bool {
		_, stillThere := pods[victim.Name]
		return !stillThere && len(ownedBy(rs, pods)) == 2
	})
	assert.Len(t, pods, 2)
}

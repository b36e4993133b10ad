package replicaset_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
)

// setStatus writes phase and, unless ready is "", a Ready condition of
// that status since then into pod name's status, as a kubelet would.
func setStatus(t *testing.T, cs *client.Clientset, name string, phase corev1.PodPhase, ready corev1.ConditionStatus, since time.Time) {
	t.Helper()
	p, err := cs.Pods("default").Get(t.Context(), name, client.GetOptions{})
	require.NoError(t, err)
	p.Status.Phase = phase
	if ready != "" {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: ready, LastTransitionTime: metav1.NewTime(since)}}
	}
	_, err = cs.Pods("default").UpdateStatus(t.Context(), p, client.WriteOptions{})
	require.NoError(t, err, "status of %s", name)
}

// TestScaleDownDeletesLeastUsefulPodsFirst: on scale-down the controller
// deletes the pods earliest in their lifecycle first: unassigned, then
// Pending, then not ready, then the ones ready for the shortest time.
func TestScaleDownDeletesLeastUsefulPodsFirst(t *testing.T) {
	now := clock.Real.Now() // the Manager's clock
	e := newAPIEnvAfter(t, nil, func(cs *client.Clientset) {
		createPod(t, cs, "unassigned", "", webLabels)
		createPod(t, cs, "pending", "node-1", webLabels)
		createPod(t, cs, "not-ready", "node-1", webLabels)
		setStatus(t, cs, "not-ready", corev1.PodRunning, corev1.ConditionFalse, now.Add(-time.Hour))
		createPod(t, cs, "ready-new", "node-1", webLabels)
		setStatus(t, cs, "ready-new", corev1.PodRunning, corev1.ConditionTrue, now.Add(-10*time.Second))
		createPod(t, cs, "ready-old", "node-1", webLabels)
		setStatus(t, cs, "ready-old", corev1.PodRunning, corev1.ConditionTrue, now.Add(-time.Hour))
	})

	// Five orphans adopted, three too many.
	rs := createRS(t, e.cs, newReplicaSet("web", 2))
	got := waitForRS(t, e.cs, "web", "two left", statusIs(2))
	assert.Equal(t, int32(2), got.Status.ReadyReplicas)
	assert.Equal(t, int32(2), got.Status.AvailableReplicas, "minReadySeconds 0: ready is available")
	pods := listPods(t, e.cs)
	assert.ElementsMatch(t, []string{"ready-new", "ready-old"}, names(active(ownedBy(rs, pods))), "%s", describePods(pods))
	assert.NotContains(t, pods, "unassigned", "an unassigned pod is deleted at once")

	scale(t, e.cs, "web", 1)
	waitForRS(t, e.cs, "web", "one left", statusIs(1))
	pods = listPods(t, e.cs)
	assert.Equal(t, []string{"ready-old"}, names(active(ownedBy(rs, pods))), "the pod ready for longer stays:\n%s", describePods(pods))
}

// names returns the names of pods.
func names(pods []*corev1.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

package scoreplugin

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/scheduler"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/workshop/workshoptest"
)

// TestScore calls the plugin as the framework does, on one node at a
// time.
func TestScore(t *testing.T) {
	workshoptest.Require(t)
	tests := []struct {
		name   string
		labels map[string]string
		want   int64
	}{
		{name: "preferred", labels: map[string]string{PreferredLabel: "true"}, want: framework.MaxNodeScore},
		{name: "explicitly not preferred", labels: map[string]string{PreferredLabel: "false"}, want: framework.MinNodeScore},
		{name: "no labels", want: framework.MinNodeScore},
		{name: "other labels", labels: map[string]string{"disk": "ssd"}, want: framework.MinNodeScore},
	}
	pl, err := New()
	require.NoError(t, err, "New")
	score := pl.(framework.ScorePlugin)
	pod := st.MakePod().Name("p").Namespace("default").Obj()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := st.MakeNode().Name("n").Obj()
			node.Labels = tc.labels
			got, status := score.Score(t.Context(), framework.NewCycleState(), pod, framework.NewNodeInfo(node))
			workshoptest.Check(t, status.AsError(), fmt.Sprintf("Score(node with labels %v)", tc.labels))
			require.Equal(t, tc.want, got, "Score(node with labels %v)", tc.labels)
		})
	}
}

// TestPodsLandOnThePreferredNode runs a second scheduler with the plugin
// beside the cluster's own, and sees where its pods land.
func TestPodsLandOnThePreferredNode(t *testing.T) {
	workshoptest.Require(t)
	// A skeleton fails here, with its message, rather than after a wait.
	pl, err := New()
	require.NoError(t, err, "New")
	_, status := pl.(framework.ScorePlugin).Score(t.Context(), framework.NewCycleState(),
		st.MakePod().Name("p").Obj(), framework.NewNodeInfo(st.MakeNode().Name("n").Obj()))
	workshoptest.Check(t, status.AsError(), "Score")

	c := clustertest.New(t, clustertest.WithNodes(3), clustertest.WithControllers())
	cs := c.Clientset()
	ctx := t.Context()
	preferred := cluster.NodeName(1)
	node, err := cs.Nodes().Get(ctx, preferred, client.GetOptions{})
	require.NoError(t, err, "get node %s", preferred)
	node.Labels[PreferredLabel] = "true"
	_, err = cs.Nodes().Update(ctx, node, client.WriteOptions{})
	require.NoError(t, err, "label node %s", preferred)

	registry, err := Registry()
	require.NoError(t, err, "Registry")
	sched, err := scheduler.New(scheduler.Options{Clientset: cs, Config: Config(), Registry: registry})
	require.NoError(t, err, "scheduler.New with the exercise's Config")
	clustertest.Start(t, sched)
	clustertest.Receive(t, sched.Ready(), "the workshop scheduler's informers synced")

	const pods = 6
	for i := range pods {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-%d", i)},
			Spec: corev1.PodSpec{
				SchedulerName: SchedulerName,
				Containers:    []corev1.Container{{Name: "web", Image: "nginx"}},
			},
		}
		_, err := cs.Pods("default").Create(ctx, pod, client.WriteOptions{})
		require.NoError(t, err, "create pod %s", pod.Name)
	}
	for i := range pods {
		name := fmt.Sprintf("web-%d", i)
		pod := clustertest.WaitFor(t, cs.Pods("default"), name, "scheduled by "+SchedulerName,
			func(p *corev1.Pod, found bool) bool { return found && p.Spec.NodeName != "" })
		require.Equal(t, preferred, pod.Spec.NodeName, "pod %s: placed on %s, not on the preferred node", name, pod.Spec.NodeName)
	}
}

package tainttoleration_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/plugins/tainttoleration"
)

const (
	noSchedule       = corev1.TaintEffectNoSchedule
	noExecute        = corev1.TaintEffectNoExecute
	preferNoSchedule = corev1.TaintEffectPreferNoSchedule
	equal            = corev1.TolerationOpEqual
	exists           = corev1.TolerationOpExists
)

func TestFilter(t *testing.T) {
	tests := []struct {
		name       string
		pod        *corev1.Pod
		node       *corev1.Node
		wantReason string
	}{
		{name: "no taints", pod: st.MakePod().Obj(), node: st.MakeNode().Obj()},
		{
			name: "untolerated NoSchedule", pod: st.MakePod().Obj(),
			node:       st.MakeNode().Taint("dedicated", "gpu", noSchedule).Obj(),
			wantReason: "node(s) had untolerated taint {dedicated: gpu}",
		},
		{
			name: "untolerated NoExecute, empty value", pod: st.MakePod().Obj(),
			node:       st.MakeNode().Taint("node-role.kubernetes.io/control-plane", "", noExecute).Obj(),
			wantReason: "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }",
		},
		{
			name: "tolerated", pod: st.MakePod().Toleration("dedicated", equal, "gpu", noSchedule).Obj(),
			node: st.MakeNode().Taint("dedicated", "gpu", noSchedule).Obj(),
		},
		{
			name: "PreferNoSchedule is only scored", pod: st.MakePod().Obj(),
			node: st.MakeNode().Taint("dedicated", "gpu", preferNoSchedule).Obj(),
		},
		{
			name: "the first untolerated taint is named", pod: st.MakePod().Toleration("a", exists, "", "").Obj(),
			node:       st.MakeNode().Taint("a", "1", noSchedule).Taint("b", "2", noExecute).Taint("c", "3", noSchedule).Obj(),
			wantReason: "node(s) had untolerated taint {b: 2}",
		},
	}
	pl, err := tainttoleration.New()
	require.NoError(t, err)
	f := pl.(framework.FilterPlugin)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := f.Filter(t.Context(), framework.NewCycleState(), tc.pod, framework.NewNodeInfo(tc.node))
			if tc.wantReason == "" {
				assert.True(t, got.IsSuccess(), "Filter: %v", got)
				return
			}
			assert.Equal(t, framework.UnschedulableAndUnresolvable, got.Code())
			assert.Equal(t, []string{tc.wantReason}, got.Reasons())
		})
	}
}

func TestScore(t *testing.T) {
	nodes := []*framework.NodeInfo{
		framework.NewNodeInfo(st.MakeNode().Name("none").Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("one").Taint("a", "1", preferNoSchedule).Taint("x", "", noSchedule).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("two").Taint("a", "1", preferNoSchedule).Taint("b", "2", preferNoSchedule).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("tolerated").Taint("c", "3", preferNoSchedule).Taint("d", "4", preferNoSchedule).Obj()),
	}
	// "c" is tolerated for every effect, "d" only for NoSchedule, which
	// does not cover PreferNoSchedule.
	pod := st.MakePod().Toleration("c", exists, "", "").Toleration("d", exists, "", noSchedule).Obj()
	pl, err := tainttoleration.New()
	require.NoError(t, err)
	sp := pl.(framework.ScorePlugin)
	state := framework.NewCycleState()
	require.Nil(t, pl.(framework.PreScorePlugin).PreScore(t.Context(), state, pod, nodes))

	scores := make(framework.NodeScoreList, len(nodes))
	for i, n := range nodes {
		s, status := sp.Score(t.Context(), state, pod, n)
		require.Nil(t, status)
		scores[i] = framework.NodeScore{Name: n.Node().Name, Score: s}
	}
	assert.Equal(t, []int64{0, 1, 2, 1}, []int64{scores[0].Score, scores[1].Score, scores[2].Score, scores[3].Score}, "raw counts")
	require.Nil(t, sp.ScoreExtensions().NormalizeScore(t.Context(), state, pod, scores))
	assert.Equal(t, framework.NodeScoreList{{Name: "none", Score: 100}, {Name: "one", Score: 50}, {Name: "two", Score: 0}, {Name: "tolerated", Score: 50}}, scores,
		"fewer untolerated PreferNoSchedule taints score higher")

	s, _ := sp.Score(t.Context(), framework.NewCycleState(), pod, nodes[2])
	assert.Equal(t, int64(2), s, "Score without PreScore")
}

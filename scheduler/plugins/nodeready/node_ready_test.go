package nodeready_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/plugins/nodeready"
)

func TestFilter(t *testing.T) {
	notReady := framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) were not ready")
	tolerate := func(key string) *corev1.Pod {
		return st.MakePod().Toleration(key, corev1.TolerationOpExists, "", corev1.TaintEffectNoSchedule).Obj()
	}
	tests := []struct {
		name string
		pod  *corev1.Pod
		node *corev1.Node
		want *framework.Status
	}{
		{name: "ready", pod: st.MakePod().Obj(), node: st.MakeNode().Ready(corev1.ConditionTrue).Obj()},
		{name: "not ready", pod: st.MakePod().Obj(), node: st.MakeNode().Ready(corev1.ConditionFalse).Obj(), want: notReady},
		{name: "unknown", pod: st.MakePod().Obj(), node: st.MakeNode().Ready(corev1.ConditionUnknown).Obj(), want: notReady},
		{name: "no Ready condition yet", pod: st.MakePod().Obj(), node: st.MakeNode().Ready("").Obj(), want: notReady},
		{name: "not ready, tolerated", pod: tolerate(corev1.TaintNodeNotReady), node: st.MakeNode().Ready(corev1.ConditionFalse).Obj()},
		{name: "no condition, tolerated", pod: tolerate(corev1.TaintNodeNotReady), node: st.MakeNode().Ready("").Obj()},
		{name: "unknown, tolerated as unreachable", pod: tolerate(corev1.TaintNodeUnreachable), node: st.MakeNode().Ready(corev1.ConditionUnknown).Obj()},
		{name: "unknown is not not-ready", pod: tolerate(corev1.TaintNodeNotReady), node: st.MakeNode().Ready(corev1.ConditionUnknown).Obj(), want: notReady},
		{
			name: "other conditions do not matter",
			pod:  st.MakePod().Obj(),
			node: func() *corev1.Node {
				n := st.MakeNode().Obj()
				n.Status.Conditions = append([]corev1.NodeCondition{{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionTrue}}, n.Status.Conditions...)
				return n
			}(),
		},
	}
	pl, err := nodeready.New()
	require.NoError(t, err)
	for _, tc := range tests {
		got := pl.(framework.FilterPlugin).Filter(t.Context(), framework.NewCycleState(), tc.pod, framework.NewNodeInfo(tc.node))
		assert.Equal(t, tc.want, got, tc.name)
	}
}

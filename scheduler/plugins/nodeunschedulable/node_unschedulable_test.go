package nodeunschedulable_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/plugins/nodeunschedulable"
)

func TestFilter(t *testing.T) {
	tests := []struct {
		name string
		pod  *corev1.Pod
		node *corev1.Node
		want *framework.Status
	}{
		{name: "schedulable", pod: st.MakePod().Obj(), node: st.MakeNode().Obj()},
		{
			name: "cordoned", pod: st.MakePod().Obj(), node: st.MakeNode().Unschedulable(true).Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) were unschedulable"),
		},
		{
			name: "cordoned, tolerated",
			pod:  st.MakePod().Toleration(corev1.TaintNodeUnschedulable, corev1.TolerationOpExists, "", corev1.TaintEffectNoSchedule).Obj(),
			node: st.MakeNode().Unschedulable(true).Obj(),
		},
		{
			name: "cordoned, tolerated by a wildcard",
			pod:  st.MakePod().Toleration("", corev1.TolerationOpExists, "", "").Obj(),
			node: st.MakeNode().Unschedulable(true).Obj(),
		},
		{
			name: "cordoned, toleration of another effect",
			pod:  st.MakePod().Toleration(corev1.TaintNodeUnschedulable, corev1.TolerationOpExists, "", corev1.TaintEffectNoExecute).Obj(),
			node: st.MakeNode().Unschedulable(true).Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) were unschedulable"),
		},
	}
	pl, err := nodeunschedulable.New()
	require.NoError(t, err)
	for _, tc := range tests {
		got := pl.(framework.FilterPlugin).Filter(t.Context(), framework.NewCycleState(), tc.pod, framework.NewNodeInfo(tc.node))
		assert.Equal(t, tc.want, got, tc.name)
	}
}

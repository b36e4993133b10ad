package nodename_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/plugins/nodename"
)

func TestFilter(t *testing.T) {
	tests := []struct {
		name string
		pod  *corev1.Pod
		want *framework.Status
	}{
		{name: "no node name", pod: st.MakePod().Obj()},
		{name: "this node", pod: st.MakePod().Node("n1").Obj()},
		{name: "another node", pod: st.MakePod().Node("n2").Obj(),
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't match the requested node name")},
	}
	pl, err := nodename.New()
	require.NoError(t, err)
	nodeInfo := framework.NewNodeInfo(st.MakeNode().Name("n1").Obj())
	for _, tc := range tests {
		got := pl.(framework.FilterPlugin).Filter(t.Context(), framework.NewCycleState(), tc.pod, nodeInfo)
		assert.Equal(t, tc.want, got, tc.name)
	}
}

package scheduler

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/internal/queue"
)

func TestNodeSchedulingPropertiesChange(t *testing.T) {
	base := func() *corev1.Node {
		return st.MakeNode().Name("n").Label("zone", "a").
			Capacity(map[corev1.ResourceName]string{"cpu": "4", "memory": "8Gi"}).Obj()
	}
	tests := []struct {
		name   string
		change func(n *corev1.Node)
		want   queue.ActionType
	}{
		{"heartbeat", func(n *corev1.Node) {
			n.Status.Conditions[0].LastHeartbeatTime = metav1.NewTime(time.Unix(100, 0))
			n.ResourceVersion = "42"
		}, 0},
		{"annotation", func(n *corev1.Node) { n.Annotations = map[string]string{"note": "x"} }, 0},
		{"label", func(n *corev1.Node) { n.Labels["zone"] = "b" }, queue.UpdateNodeLabel},
		{"taint", func(n *corev1.Node) {
			n.Spec.Taints = []corev1.Taint{{Key: "k", Effect: corev1.TaintEffectNoSchedule}}
		}, queue.UpdateNodeTaint},
		{"cordon", func(n *corev1.Node) { n.Spec.Unschedulable = true }, queue.UpdateNodeTaint},
		{"allocatable", func(n *corev1.Node) { n.Status.Allocatable["cpu"] = resource.MustParse("3") }, queue.UpdateNodeAllocatable},
		{"same allocatable, other spelling", func(n *corev1.Node) { n.Status.Allocatable["cpu"] = resource.MustParse("4000m") }, 0},
		{"not ready", func(n *corev1.Node) { n.Status.Conditions[0].Status = corev1.ConditionFalse }, queue.UpdateNodeCondition},
		{"label and taint", func(n *corev1.Node) {
			n.Labels["zone"] = "b"
			n.Spec.Taints = []corev1.Taint{{Key: "k", Effect: corev1.TaintEffectNoSchedule}}
		}, queue.UpdateNodeLabel | queue.UpdateNodeTaint},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			old, updated := base(), base()
			tc.change(updated)
			assert.Equal(t, tc.want, nodeSchedulingPropertiesChange(updated, old), "change %s", tc.name)
		})
	}
}

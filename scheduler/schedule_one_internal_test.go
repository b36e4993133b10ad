package scheduler

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func TestSetPodScheduledFalse(t *testing.T) {
	t0, t1 := time.Unix(1000, 0), time.Unix(2000, 0)
	scheduled := func(status corev1.ConditionStatus, reason, msg string, at time.Time) corev1.PodCondition {
		return corev1.PodCondition{Type: corev1.PodScheduled, Status: status, Reason: reason, Message: msg,
			LastTransitionTime: metav1.NewTime(at)}
	}
	ready := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse}
	tests := []struct {
		name        string
		conditions  []corev1.PodCondition
		wantChanged bool
		want        []corev1.PodCondition
	}{
		{"none yet", nil, true,
			[]corev1.PodCondition{scheduled(corev1.ConditionFalse, "Unschedulable", "m", t1)}},
		{"same again: no write", []corev1.PodCondition{scheduled(corev1.ConditionFalse, "Unschedulable", "m", t0)}, false,
			[]corev1.PodCondition{scheduled(corev1.ConditionFalse, "Unschedulable", "m", t0)}},
		{"new message keeps the transition time", []corev1.PodCondition{ready, scheduled(corev1.ConditionFalse, "Unschedulable", "old", t0)}, true,
			[]corev1.PodCondition{ready, scheduled(corev1.ConditionFalse, "Unschedulable", "m", t0)}},
		{"from True is a transition", []corev1.PodCondition{scheduled(corev1.ConditionTrue, "", "", t0)}, true,
			[]corev1.PodCondition{scheduled(corev1.ConditionFalse, "Unschedulable", "m", t1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status := corev1.PodStatus{Conditions: tc.conditions}
			assert.Equal(t, tc.wantChanged, setPodScheduledFalse(&status, "Unschedulable", "m", t1))
			assert.Equal(t, tc.want, status.Conditions)
		})
	}
}

func TestTruncateMessage(t *testing.T) {
	short := strings.Repeat("x", noteLengthLimit)
	assert.Equal(t, short, truncateMessage(short))
	long := truncateMessage(strings.Repeat("y", noteLengthLimit+1))
	assert.Len(t, long, noteLengthLimit)
	assert.True(t, strings.HasSuffix(long, " ..."))
}

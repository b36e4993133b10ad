package v1_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

const (
	noSchedule = corev1.TaintEffectNoSchedule
	noExecute  = corev1.TaintEffectNoExecute
	equal      = corev1.TolerationOpEqual
	exists     = corev1.TolerationOpExists
)

func TestToleratesTaint(t *testing.T) {
	taint := corev1.Taint{Key: "dedicated", Value: "gpu", Effect: noSchedule}
	tests := []struct {
		name       string
		toleration corev1.Toleration
		want       bool
	}{
		{name: "equal", toleration: corev1.Toleration{Key: "dedicated", Operator: equal, Value: "gpu", Effect: noSchedule}, want: true},
		{name: "empty operator means Equal", toleration: corev1.Toleration{Key: "dedicated", Value: "gpu", Effect: noSchedule}, want: true},
		{name: "other value", toleration: corev1.Toleration{Key: "dedicated", Operator: equal, Value: "cpu", Effect: noSchedule}},
		{name: "exists ignores the value", toleration: corev1.Toleration{Key: "dedicated", Operator: exists, Effect: noSchedule}, want: true},
		{name: "empty effect matches every effect", toleration: corev1.Toleration{Key: "dedicated", Operator: exists}, want: true},
		{name: "other effect", toleration: corev1.Toleration{Key: "dedicated", Operator: exists, Effect: noExecute}},
		{name: "other key", toleration: corev1.Toleration{Key: "zone", Operator: exists}},
		{name: "empty key with Exists tolerates everything", toleration: corev1.Toleration{Operator: exists}, want: true},
		{name: "unknown operator", toleration: corev1.Toleration{Key: "dedicated", Operator: "Gt", Value: "gpu"}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tc.toleration.ToleratesTaint(&taint), tc.name)
	}
}

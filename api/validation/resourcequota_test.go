package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
)

func quantities(kv ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}

func TestValidateResourceQuota(t *testing.T) {
	tests := []struct {
		name string
		spec corev1.ResourceQuotaSpec
		want []string
	}{
		{name: "valid", spec: corev1.ResourceQuotaSpec{Hard: quantities("pods", "10", "requests.cpu", "1500m", "count/deployments.apps", "3")}, want: []string{}},
		{name: "negative", spec: corev1.ResourceQuotaSpec{Hard: quantities("requests.memory", "-1Gi")},
			want: []string{"FieldValueInvalid spec.hard[requests.memory]"}},
		{name: "fractional count", spec: corev1.ResourceQuotaSpec{Hard: quantities("pods", "1500m")},
			want: []string{"FieldValueInvalid spec.hard[pods]"}},
		{name: "bad name", spec: corev1.ResourceQuotaSpec{Hard: quantities("no such/thing/here", "1")},
			want: []string{"FieldValueInvalid spec.hard[no such/thing/here]"}},
		{name: "unknown scope", spec: corev1.ResourceQuotaSpec{Scopes: []corev1.ResourceQuotaScope{"Someday"}},
			want: []string{"FieldValueInvalid spec.scopes"}},
		{name: "conflicting scopes", spec: corev1.ResourceQuotaSpec{Scopes: []corev1.ResourceQuotaScope{"BestEffort", "NotBestEffort"}},
			want: []string{"FieldValueInvalid spec.scopes"}},
	}
	for _, tc := range tests {
		q := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "default"}, Spec: tc.spec}
		got := ValidateResourceQuota(q)
		assert.Equal(t, tc.want, summary(got), "ValidateResourceQuota(%s): %v", tc.name, got)
	}
}

func TestValidateLimitRange(t *testing.T) {
	tests := []struct {
		name string
		item corev1.LimitRangeItem
		want []string
		msg  string
	}{
		{name: "valid", item: corev1.LimitRangeItem{Type: corev1.LimitTypeContainer, Min: quantities("cpu", "10m"), DefaultRequest: quantities("cpu", "100m"),
			Default: quantities("cpu", "200m"), Max: quantities("cpu", "1"), MaxLimitRequestRatio: quantities("cpu", "4")}, want: []string{}},
		{name: "unknown type", item: corev1.LimitRangeItem{Type: "Node"}, want: []string{"FieldValueNotSupported spec.limits[0].type"}},
		{name: "min over max", item: corev1.LimitRangeItem{Type: corev1.LimitTypeContainer, Min: quantities("cpu", "2"), Max: quantities("cpu", "1")},
			want: []string{"FieldValueInvalid spec.limits[0].min[cpu]"}, msg: "spec.limits[0].min[cpu]: Invalid value: \"2\": min value 2 is greater than max value 1"},
		{name: "default over max", item: corev1.LimitRangeItem{Type: corev1.LimitTypeContainer, Default: quantities("cpu", "2"), Max: quantities("cpu", "1")},
			want: []string{"FieldValueInvalid spec.limits[0].default[cpu]"}},
		{name: "request over limit", item: corev1.LimitRangeItem{Type: corev1.LimitTypeContainer, Default: quantities("cpu", "1"), DefaultRequest: quantities("cpu", "2")},
			want: []string{"FieldValueInvalid spec.limits[0].defaultRequest[cpu]"}},
		{name: "pod default", item: corev1.LimitRangeItem{Type: corev1.LimitTypePod, Default: quantities("cpu", "1")},
			want: []string{"FieldValueForbidden spec.limits[0].default"}},
		{name: "ratio", item: corev1.LimitRangeItem{Type: corev1.LimitTypeContainer, MaxLimitRequestRatio: quantities("cpu", "500m")},
			want: []string{"FieldValueInvalid spec.limits[0].maxLimitRequestRatio[cpu]"}},
	}
	for _, tc := range tests {
		lr := &corev1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: "lr", Namespace: "default"},
			Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{tc.item}}}
		got := ValidateLimitRange(lr)
		assert.Equal(t, tc.want, summary(got), "ValidateLimitRange(%s): %v", tc.name, got)
		if tc.msg != "" {
			assert.EqualError(t, got, tc.msg, tc.name)
		}
	}
}

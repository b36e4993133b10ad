package protobuf

import (
	kcorev1 "k8s.io/api/core/v1"
	kpolicyv1 "k8s.io/api/policy/v1"
	kschedulingv1 "k8s.io/api/scheduling/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"

	corev1 "github.com/minicp/minicp/api/core/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	schedulingv1 "github.com/minicp/minicp/api/scheduling/v1"
)

// policyCases are PodDisruptionBudget, its list and the Eviction,
// ResourceQuota and LimitRange with their lists, and PriorityClass,
// filled: the kinds that bound what clients may do. They have no golden
// files.
func policyCases() []compatCase {
	return []compatCase{
		{name: "ResourceQuota-filled", minicp: withTypeMeta(fill(&corev1.ResourceQuota{}), "v1", "ResourceQuota"),
			k8s: func() kruntime.Object { return &kcorev1.ResourceQuota{} }, noGolden: true},
		{name: "ResourceQuotaList-filled", minicp: withTypeMeta(fill(&corev1.ResourceQuotaList{}), "v1", "ResourceQuotaList"),
			k8s: func() kruntime.Object { return &kcorev1.ResourceQuotaList{} }, noGolden: true},
		{name: "LimitRange-filled", minicp: withTypeMeta(fill(&corev1.LimitRange{}), "v1", "LimitRange"),
			k8s: func() kruntime.Object { return &kcorev1.LimitRange{} }, noGolden: true},
		{name: "LimitRangeList-filled", minicp: withTypeMeta(fill(&corev1.LimitRangeList{}), "v1", "LimitRangeList"),
			k8s: func() kruntime.Object { return &kcorev1.LimitRangeList{} }, noGolden: true},
		{name: "PodDisruptionBudget-filled", minicp: withTypeMeta(fill(&policyv1.PodDisruptionBudget{}), "policy/v1", "PodDisruptionBudget"),
			k8s: func() kruntime.Object { return &kpolicyv1.PodDisruptionBudget{} }, noGolden: true},
		{name: "PodDisruptionBudgetList-filled", minicp: withTypeMeta(fill(&policyv1.PodDisruptionBudgetList{}), "policy/v1", "PodDisruptionBudgetList"),
			k8s: func() kruntime.Object { return &kpolicyv1.PodDisruptionBudgetList{} }, noGolden: true},
		{name: "Eviction-filled", minicp: withTypeMeta(fill(&policyv1.Eviction{}), "policy/v1", "Eviction"),
			k8s: func() kruntime.Object { return &kpolicyv1.Eviction{} }, noGolden: true},
		{name: "PriorityClass-filled", minicp: withTypeMeta(fill(&schedulingv1.PriorityClass{}), "scheduling.k8s.io/v1", "PriorityClass"),
			k8s: func() kruntime.Object { return &kschedulingv1.PriorityClass{} }, noGolden: true},
		{name: "PriorityClassList-filled", minicp: withTypeMeta(fill(&schedulingv1.PriorityClassList{}), "scheduling.k8s.io/v1", "PriorityClassList"),
			k8s: func() kruntime.Object { return &kschedulingv1.PriorityClassList{} }, noGolden: true},
	}
}

package protobuf

import (
	kappsv1 "k8s.io/api/apps/v1"
	kautoscalingv1 "k8s.io/api/autoscaling/v1"
	kautoscalingv2 "k8s.io/api/autoscaling/v2"
	kcertificatesv1 "k8s.io/api/certificates/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	certificatesv1 "github.com/minicp/minicp/api/certificates/v1"
)

// autoscalingCertificatesCases are StatefulSet, HorizontalPodAutoscaler
// at autoscaling/v1 and v2, and CertificateSigningRequest, filled. They
// have no golden files: the main module has no protobuf test of its own
// for them.
func autoscalingCertificatesCases() []compatCase {
	const hpa = "HorizontalPodAutoscaler"
	return []compatCase{
		{name: "StatefulSet-filled", minicp: withTypeMeta(fill(&appsv1.StatefulSet{}), "apps/v1", "StatefulSet"),
			k8s: func() kruntime.Object { return &kappsv1.StatefulSet{} }, noGolden: true},
		{name: "StatefulSetList-filled", minicp: withTypeMeta(fill(&appsv1.StatefulSetList{}), "apps/v1", "StatefulSetList"),
			k8s: func() kruntime.Object { return &kappsv1.StatefulSetList{} }, noGolden: true},
		{name: "HorizontalPodAutoscalerV1-filled", minicp: withTypeMeta(fill(&autoscalingv1.HorizontalPodAutoscaler{}), "autoscaling/v1", hpa),
			k8s: func() kruntime.Object { return &kautoscalingv1.HorizontalPodAutoscaler{} }, noGolden: true},
		{name: "HorizontalPodAutoscalerV1List-filled", minicp: withTypeMeta(fill(&autoscalingv1.HorizontalPodAutoscalerList{}), "autoscaling/v1", hpa+"List"),
			k8s: func() kruntime.Object { return &kautoscalingv1.HorizontalPodAutoscalerList{} }, noGolden: true},
		{name: "HorizontalPodAutoscalerV2-filled", minicp: withTypeMeta(fill(&autoscalingv2.HorizontalPodAutoscaler{}), "autoscaling/v2", hpa),
			k8s: func() kruntime.Object { return &kautoscalingv2.HorizontalPodAutoscaler{} }, noGolden: true},
		{name: "HorizontalPodAutoscalerV2List-filled", minicp: withTypeMeta(fill(&autoscalingv2.HorizontalPodAutoscalerList{}), "autoscaling/v2", hpa+"List"),
			k8s: func() kruntime.Object { return &kautoscalingv2.HorizontalPodAutoscalerList{} }, noGolden: true},
		{name: "CertificateSigningRequest-filled", minicp: withTypeMeta(fill(&certificatesv1.CertificateSigningRequest{}), "certificates.k8s.io/v1", "CertificateSigningRequest"),
			k8s: func() kruntime.Object { return &kcertificatesv1.CertificateSigningRequest{} }, noGolden: true},
		{name: "CertificateSigningRequestList-filled", minicp: withTypeMeta(fill(&certificatesv1.CertificateSigningRequestList{}), "certificates.k8s.io/v1", "CertificateSigningRequestList"),
			k8s: func() kruntime.Object { return &kcertificatesv1.CertificateSigningRequestList{} }, noGolden: true},
	}
}

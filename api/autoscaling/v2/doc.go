// Package v2 holds the autoscaling/v2 HorizontalPodAutoscaler: its types,
// defaults (SetDefaults) and registration (AddToScheme).
//
// Import it as autoscalingv2. autoscaling/v2 is the version a
// HorizontalPodAutoscaler is stored at; autoscaling/v1 serves the same
// objects with a CPU target only and keeps the rest in annotations (see
// autoscalingv1.ConvertToV2). minicp serves the API only: no controller
// scales anything. Field names, JSON spellings and protobuf field numbers
// match upstream.
//
// Upstream: k8s.io/api/autoscaling/v2.
package v2

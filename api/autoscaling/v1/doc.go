// Package v1 holds the autoscaling/v1 kinds: Scale, the view of a
// workload (a Deployment, a ReplicaSet, a StatefulSet, a custom resource)
// that its scale subresource serves, through which `kubectl scale` and
// autoscalers read and write replica counts without knowing the
// workload's kind; and HorizontalPodAutoscaler, the v1 form of the
// autoscalers stored at autoscaling/v2 (ConvertToV2 and ConvertFromV2
// convert between the two as kube-apiserver does).
//
// Import it as autoscalingv1. Field names, JSON spellings and protobuf
// field numbers match k8s.io/api/autoscaling/v1.
//
// Upstream: k8s.io/api/autoscaling/v1.
package v1

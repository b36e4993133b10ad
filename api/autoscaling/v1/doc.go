// Package v1 holds the autoscaling/v1 Scale: the view of a workload
// (a Deployment, a ReplicaSet, later a custom resource) that its scale
// subresource serves, /apis/apps/v1/namespaces/{ns}/deployments/{name}/scale.
// `kubectl scale` and autoscalers read and write replica counts through it
// without knowing the workload's kind.
//
// Scale is a kind, not a resource: discovery lists it only as the kind of
// the <resource>/scale subresources, and autoscaling/v1 has no resources of
// its own in minicp (upstream's are HorizontalPodAutoscalers, which minicp
// does not serve), so the group does not appear under /apis.
//
// Import it as autoscalingv1. Field names, JSON spellings and protobuf
// field numbers match k8s.io/api/autoscaling/v1.
//
// Upstream: k8s.io/api/autoscaling/v1.
package v1

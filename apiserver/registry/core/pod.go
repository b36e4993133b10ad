package core

import (
	"context"
	"strconv"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/fields"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/registry"
)

// PodStrategy is the rules of the pods resource.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod (podStrategy).
type PodStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy: a new pod is Pending with
// a QoS class, whatever status the client sent.
func (PodStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	pod := obj.(*corev1.Pod)
	pod.Status = corev1.PodStatus{Phase: corev1.PodPending, QOSClass: qosClass(&pod.Spec)}
}

// PrepareForUpdate implements registry.Strategy: the main resource cannot
// change status.
func (PodStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*corev1.Pod).Status = old.(*corev1.Pod).Status
}

// Validate implements registry.Strategy.
func (PodStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidatePod(obj.(*corev1.Pod))
}

// ValidateUpdate implements registry.Strategy.
func (PodStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidatePodUpdate(obj.(*corev1.Pod), old.(*corev1.Pod))
}

// TracksGeneration implements registry.GenerationStrategy: pods have kept
// one since Kubernetes 1.33, for status.observedGeneration.
func (PodStrategy) TracksGeneration() bool { return true }

// SelectableFields implements registry.Strategy with the pod fields
// Kubernetes lets clients select on.
func (PodStrategy) SelectableFields(obj runtime.Object) fields.Set {
	pod := obj.(*corev1.Pod)
	return fields.Set{
		"spec.nodeName":            pod.Spec.NodeName,
		"spec.restartPolicy":       string(pod.Spec.RestartPolicy),
		"spec.schedulerName":       pod.Spec.SchedulerName,
		"spec.serviceAccountName":  pod.Spec.ServiceAccountName,
		"spec.hostNetwork":         strconv.FormatBool(pod.Spec.HostNetwork),
		"status.phase":             string(pod.Status.Phase),
		"status.podIP":             pod.Status.PodIP,
		"status.nominatedNodeName": pod.Status.NominatedNodeName,
	}
}

// CheckGracefulDelete implements registry.GracefulDeleteStrategy: a pod
// bound to a node is deleted gracefully, so its kubelet can stop the
// containers; an unscheduled or finished pod goes at once.
func (PodStrategy) CheckGracefulDelete(_ context.Context, obj runtime.Object, opts *metav1.DeleteOptions) bool {
	pod := obj.(*corev1.Pod)
	grace := int64(corev1.DefaultTerminationGracePeriodSeconds)
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		grace = *pod.Spec.TerminationGracePeriodSeconds
	}
	if opts.GracePeriodSeconds != nil {
		grace = *opts.GracePeriodSeconds
	}
	if pod.Spec.NodeName == "" || pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		grace = 0
	}
	opts.GracePeriodSeconds = &grace
	return true
}

// PodStatusStrategy is the rules of pods/status: only status changes.
type PodStatusStrategy struct{ PodStrategy }

// PrepareForUpdate implements registry.Strategy: a status write cannot
// change the spec.
func (PodStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*corev1.Pod).Spec = old.(*corev1.Pod).Spec
}

// ValidateUpdate implements registry.Strategy.
func (PodStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidatePodStatusUpdate(obj.(*corev1.Pod), old.(*corev1.Pod))
}

// qosClass computes a pod's quality-of-service class from its containers'
// requests and limits.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/helper/qos (GetPodQOS).
func qosClass(spec *corev1.PodSpec) corev1.PodQOSClass {
	any, guaranteed := false, true
	for _, c := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		if len(c.Resources.Requests) > 0 || len(c.Resources.Limits) > 0 {
			any = true
		}
		for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			limit, hasLimit := c.Resources.Limits[name]
			req, hasReq := c.Resources.Requests[name]
			if !hasLimit || (hasReq && req.Cmp(limit) != 0) {
				guaranteed = false
			}
		}
	}
	switch {
	case !any:
		return corev1.PodQOSBestEffort
	case guaranteed:
		return corev1.PodQOSGuaranteed
	default:
		return corev1.PodQOSBurstable
	}
}

package endpoints

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/informer"
)

// This file is what the EndpointSlice controller shares with this one:
// which pods are endpoints of a Service, and with which ports, is the
// same question for Endpoints and for EndpointSlices.
//
// Upstream: k8s.io/endpointslice/util, which both controllers import.

// PodHandler enqueues the Services a pod change may affect (see
// podHandler): the pod event handler of both controllers.
func PodHandler(services *informer.Lister[*corev1.Service]) handler.EventHandler {
	return podHandler(services)
}

// ShouldPodBeInEndpoints reports whether pod belongs in any endpoints: it
// has an IP and is not terminal, and it is not terminating unless
// includeTerminating.
func ShouldPodBeInEndpoints(pod *corev1.Pod, includeTerminating bool) bool {
	return shouldPodBeInEndpoints(pod, includeTerminating)
}

// IsPodReady reports whether pod's Ready condition is True.
func IsPodReady(pod *corev1.Pod) bool { return isPodReady(pod) }

// FindPort resolves Service port sp's targetPort in pod: by number, or
// by the name of a container port; an error when pod has no such port.
func FindPort(pod *corev1.Pod, sp *corev1.ServicePort) (int32, error) { return findPort(pod, sp) }

// ServiceIPFamily is the address family of svc's endpoints (see
// serviceIPFamily).
func ServiceIPFamily(svc *corev1.Service, pod *corev1.Pod) corev1.IPFamily {
	return serviceIPFamily(svc, pod)
}

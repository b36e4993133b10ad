package endpoints

import (
	"math"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// maxCapacity is the most addresses an Endpoints object holds: upstream's
// limit, past which EndpointSlices are the API to use. The controller
// keeps the first maxCapacity and says so in the over-capacity
// annotation.
const maxCapacity = 1000

// capacityAnnotationSetCorrectly reports whether the over-capacity
// annotation is as it should be for subsets that were written: absent,
// with no more than maxCapacity addresses. Subsets over capacity always
// need a (truncating) write.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint
// (capacityAnnotationSetCorrectly).
func capacityAnnotationSetCorrectly(annotations map[string]string, subsets []corev1.EndpointSubset) bool {
	n := 0
	for _, s := range subsets {
		n += len(s.Addresses) + len(s.NotReadyAddresses)
	}
	if n > maxCapacity {
		return false
	}
	_, ok := annotations[AnnotationOverCapacity]
	return !ok
}

// truncateEndpoints cuts ep down to maxCapacity addresses, keeping ready
// ones before not-ready ones and sharing the cut among the subsets in
// proportion to their sizes. It reports whether it cut anything.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint (truncateEndpoints).
func truncateEndpoints(ep *corev1.Endpoints) bool {
	ready, notReady := 0, 0
	for _, s := range ep.Subsets {
		ready += len(s.Addresses)
		notReady += len(s.NotReadyAddresses)
	}
	if ready+notReady <= maxCapacity {
		return false
	}
	truncateReady := ready > maxCapacity
	budget, total := maxCapacity-ready, notReady
	if truncateReady {
		budget, total = maxCapacity, ready
	}
	left := budget
	for i := range ep.Subsets {
		s := &ep.Subsets[i]
		n := len(s.NotReadyAddresses)
		if truncateReady {
			n = len(s.Addresses)
		}
		// Round each share up; the last subsets get what is left.
		share := min(int(math.Ceil(float64(n)/float64(total)*float64(budget))), left)
		if truncateReady {
			s.Addresses = s.Addresses[:min(len(s.Addresses), share)]
			s.NotReadyAddresses = nil
			left -= len(s.Addresses)
		} else {
			s.NotReadyAddresses = s.NotReadyAddresses[:min(len(s.NotReadyAddresses), share)]
			left -= len(s.NotReadyAddresses)
		}
	}
	return true
}

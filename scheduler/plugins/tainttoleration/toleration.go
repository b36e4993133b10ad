package tainttoleration

import corev1 "github.com/minicp/minicp/api/core/v1"

// TolerationsTolerateTaint reports whether any of tolerations tolerates
// taint.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/v1/helper
// (TolerationsTolerateTaint).
func TolerationsTolerateTaint(tolerations []corev1.Toleration, taint *corev1.Taint) bool {
	for i := range tolerations {
		if tolerations[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

// FindMatchingUntoleratedTaint returns the first of taints that include
// selects and tolerations do not tolerate.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/v1/helper
// (FindMatchingUntoleratedTaint).
func FindMatchingUntoleratedTaint(taints []corev1.Taint, tolerations []corev1.Toleration, include func(*corev1.Taint) bool) (corev1.Taint, bool) {
	for i := range taints {
		if include != nil && !include(&taints[i]) {
			continue
		}
		if !TolerationsTolerateTaint(tolerations, &taints[i]) {
			return taints[i], true
		}
	}
	return corev1.Taint{}, false
}

package tainttoleration

import corev1 "github.com/minicp/minicp/api/core/v1"

// ToleratesTaint reports whether t tolerates taint: the effects match (an
// empty toleration effect matches all), the keys match (an empty
// toleration key matches all, with operator Exists), and the values match
// for operator Equal (the default) or anything goes for Exists.
//
// Upstream: k8s.io/api/core/v1 (Toleration.ToleratesTaint); it belongs
// with the API types, which minicp's api package does not have yet.
func ToleratesTaint(t *corev1.Toleration, taint *corev1.Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", corev1.TolerationOpEqual:
		return t.Value == taint.Value
	case corev1.TolerationOpExists:
		return true
	}
	return false
}

// TolerationsTolerateTaint reports whether any of tolerations tolerates
// taint.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/v1/helper
// (TolerationsTolerateTaint).
func TolerationsTolerateTaint(tolerations []corev1.Toleration, taint *corev1.Taint) bool {
	for i := range tolerations {
		if ToleratesTaint(&tolerations[i], taint) {
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

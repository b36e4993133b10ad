package nodelifecycle

import (
	"math"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// matchingTolerations reports whether tolerations tolerate every taint,
// and if so returns, for each taint, the tolerations that tolerate it.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/v1/helper
// (GetMatchingTolerations).
func matchingTolerations(taints []corev1.Taint, tolerations []corev1.Toleration) (bool, []corev1.Toleration) {
	var used []corev1.Toleration
	for i := range taints {
		tolerated := false
		for j := range tolerations {
			if tolerations[j].ToleratesTaint(&taints[i]) {
				used = append(used, tolerations[j])
				tolerated = true
				break
			}
		}
		if !tolerated {
			return false, nil
		}
	}
	return true, used
}

// minTolerationTime returns the shortest tolerationSeconds of
// tolerations: zero for none at all or any not positive (evict at once),
// and -1 when none has a limit (tolerated forever).
//
// Upstream: k8s.io/kubernetes/pkg/controller/tainteviction
// (getMinTolerationTime).
func minTolerationTime(tolerations []corev1.Toleration) time.Duration {
	if len(tolerations) == 0 {
		return 0
	}
	shortest, limited := int64(math.MaxInt64), false
	for _, t := range tolerations {
		if t.TolerationSeconds == nil {
			continue
		}
		if *t.TolerationSeconds <= 0 {
			return 0
		}
		shortest, limited = min(shortest, *t.TolerationSeconds), true
	}
	if !limited {
		return -1
	}
	// Bound the product: a huge tolerationSeconds must not overflow into
	// a negative (forever) or tiny duration.
	if shortest > int64(math.MaxInt64/time.Second) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(shortest) * time.Second
}

// noExecuteTaints returns the NoExecute taints of taints.
func noExecuteTaints(taints []corev1.Taint) []corev1.Taint {
	var out []corev1.Taint
	for _, t := range taints {
		if t.Effect == corev1.TaintEffectNoExecute {
			out = append(out, t)
		}
	}
	return out
}

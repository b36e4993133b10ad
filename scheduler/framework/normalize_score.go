package framework

// DefaultNormalizeScore scales scores in place so the highest becomes
// maxPriority and the others keep their proportion to it (integer
// division, so rounding down). With reverse, each is then replaced by
// maxPriority minus itself, so the lowest raw score wins. If every score is
// 0 they stay 0, or all become maxPriority with reverse. Plugins whose raw
// score is a count (matching terms, untolerated taints) use it as their
// NormalizeScore.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/plugins/helper
// (DefaultNormalizeScore).
func DefaultNormalizeScore(maxPriority int64, reverse bool, scores NodeScoreList) *Status {
	var maxCount int64
	for i := range scores {
		maxCount = max(maxCount, scores[i].Score)
	}
	if maxCount == 0 {
		if reverse {
			for i := range scores {
				scores[i].Score = maxPriority
			}
		}
		return nil
	}
	for i := range scores {
		s := maxPriority * scores[i].Score / maxCount
		if reverse {
			s = maxPriority - s
		}
		scores[i].Score = s
	}
	return nil
}

package v1

// ToleratesTaint reports whether t tolerates taint: the effects match (an
// empty toleration effect matches all), the keys match (an empty
// toleration key matches all, with operator Exists), and the values match
// for operator Equal (the default), or anything goes for Exists.
//
// Upstream: k8s.io/api/core/v1 (Toleration.ToleratesTaint).
func (t *Toleration) ToleratesTaint(taint *Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", TolerationOpEqual:
		return t.Value == taint.Value
	case TolerationOpExists:
		return true
	}
	return false
}

package v1

import (
	"slices"
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// UpdateDisruptionAllowedCondition sets pdb's DisruptionAllowed condition
// from status.disruptionsAllowed: True with SufficientPods while it is
// above 0, else False with InsufficientPods. now is the transition time
// when the status changes.
//
// Upstream: k8s.io/component-helpers/apps/poddisruptionbudget
// (UpdateDisruptionAllowedCondition).
func UpdateDisruptionAllowedCondition(pdb *PodDisruptionBudget, now time.Time) {
	c := metav1.Condition{
		Type: DisruptionAllowedCondition, Status: metav1.ConditionFalse, Reason: InsufficientPodsReason,
		ObservedGeneration: pdb.Status.ObservedGeneration,
	}
	if pdb.Status.DisruptionsAllowed > 0 {
		c.Status, c.Reason = metav1.ConditionTrue, SufficientPodsReason
	}
	SetCondition(&pdb.Status.Conditions, c, now)
}

// ConditionsAreUpToDate reports whether pdb's DisruptionAllowed condition
// agrees with its status and the status with its generation.
//
// Upstream: k8s.io/component-helpers/apps/poddisruptionbudget (ConditionsAreUpToDate).
func ConditionsAreUpToDate(pdb *PodDisruptionBudget) bool {
	i := slices.IndexFunc(pdb.Status.Conditions, func(c metav1.Condition) bool { return c.Type == DisruptionAllowedCondition })
	if i < 0 || pdb.Status.ObservedGeneration != pdb.Generation {
		return false
	}
	c := pdb.Status.Conditions[i]
	if pdb.Status.DisruptionsAllowed > 0 {
		return c.Status == metav1.ConditionTrue && c.Reason == SufficientPodsReason
	}
	return c.Status == metav1.ConditionFalse && c.Reason == InsufficientPodsReason
}

// SetCondition sets c in conditions, replacing the one of its type. The
// transition time is now when the status changes (or c is new), and is
// kept otherwise.
//
// Upstream: k8s.io/apimachinery/pkg/api/meta (SetStatusCondition).
func SetCondition(conditions *[]metav1.Condition, c metav1.Condition, now time.Time) {
	i := slices.IndexFunc(*conditions, func(old metav1.Condition) bool { return old.Type == c.Type })
	if i < 0 {
		if c.LastTransitionTime.IsZero() {
			c.LastTransitionTime = metav1.NewTime(now)
		}
		*conditions = append(*conditions, c)
		return
	}
	old := (*conditions)[i]
	switch {
	case old.Status != c.Status && c.LastTransitionTime.IsZero():
		c.LastTransitionTime = metav1.NewTime(now)
	case old.Status == c.Status:
		c.LastTransitionTime = old.LastTransitionTime
	}
	(*conditions)[i] = c
}

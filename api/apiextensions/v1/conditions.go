package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// The reasons the CRD controllers give their conditions. Upstream spells
// them as literals in each controller; they are constants here so that
// minicp's controllers and their tests agree on them.
const (
	// ReasonNoConflicts: NamesAccepted is True.
	ReasonNoConflicts = "NoConflicts"
	// ReasonNotAccepted: Established is False because the names are not
	// (yet) accepted.
	ReasonNotAccepted = "NotAccepted"
	// ReasonInstalling: the names are accepted and the resource is about
	// to be served.
	ReasonInstalling = "Installing"
	// ReasonInitialNamesAccepted: Established is True.
	ReasonInitialNamesAccepted = "InitialNamesAccepted"
	// ReasonInstanceDeletionInProgress and ReasonInstanceDeletionCompleted
	// are the Terminating condition's reasons while the cleanup finalizer
	// deletes the custom resources, and when it is done.
	ReasonInstanceDeletionInProgress = "InstanceDeletionInProgress"
	ReasonInstanceDeletionCompleted  = "InstanceDeletionCompleted"
	// ReasonViolations: NonStructuralSchema is True.
	ReasonViolations = "Violations"
)

// FindCRDCondition returns the condition of type t, or nil. The pointer
// aliases crd.Status.Conditions.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apihelpers (FindCRDCondition).
func FindCRDCondition(crd *CustomResourceDefinition, t CustomResourceDefinitionConditionType) *CustomResourceDefinitionCondition {
	for i := range crd.Status.Conditions {
		if crd.Status.Conditions[i].Type == t {
			return &crd.Status.Conditions[i]
		}
	}
	return nil
}

// IsCRDConditionTrue reports whether the condition of type t is True.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apihelpers (IsCRDConditionTrue).
func IsCRDConditionTrue(crd *CustomResourceDefinition, t CustomResourceDefinitionConditionType) bool {
	c := FindCRDCondition(crd, t)
	return c != nil && c.Status == ConditionTrue
}

// SetCRDCondition adds or replaces the condition of newCondition's type.
// The last transition time becomes now when the status changes (or was
// never set) and is kept otherwise. now is a parameter, where upstream
// calls time.Now, because time comes from the caller's clock.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apihelpers (SetCRDCondition).
func SetCRDCondition(crd *CustomResourceDefinition, newCondition CustomResourceDefinitionCondition, now metav1.Time) {
	newCondition.LastTransitionTime = now
	existing := FindCRDCondition(crd, newCondition.Type)
	if existing == nil {
		crd.Status.Conditions = append(crd.Status.Conditions, newCondition)
		return
	}
	if existing.Status != newCondition.Status || existing.LastTransitionTime.IsZero() {
		existing.LastTransitionTime = newCondition.LastTransitionTime
	}
	existing.Status = newCondition.Status
	existing.Reason = newCondition.Reason
	existing.Message = newCondition.Message
	existing.ObservedGeneration = newCondition.ObservedGeneration
}

// RemoveCRDCondition removes the condition of type t, if any. It leaves
// an empty, non-nil list (written as [], not null), as upstream does.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apihelpers (RemoveCRDCondition).
func RemoveCRDCondition(crd *CustomResourceDefinition, t CustomResourceDefinitionConditionType) {
	kept := []CustomResourceDefinitionCondition{}
	for _, c := range crd.Status.Conditions {
		if c.Type != t {
			kept = append(kept, c)
		}
	}
	crd.Status.Conditions = kept
}

package validation

import (
	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
)

// ValidateReplicaSet checks a defaulted ReplicaSet being created: a
// namespaced object named by a DNS subdomain, and its spec.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidateReplicaSet).
func ValidateReplicaSet(rs *appsv1.ReplicaSet) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&rs.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	return append(errs, validateReplicaSetSpec(&rs.Spec, path("spec"))...)
}

// validateReplicaSetSpec checks replicas, minReadySeconds, the selector
// (required, non-empty, selecting the template) and the template.
func validateReplicaSetSpec(spec *appsv1.ReplicaSetSpec, fldPath path) apierrors.FieldErrors {
	errs := validateNonnegativePtr(spec.Replicas, fldPath.child("replicas"))
	errs = append(errs, validateNonnegative(int64(spec.MinReadySeconds), fldPath.child("minReadySeconds"))...)
	errs = append(errs, validateWorkloadSelector(spec.Selector, &spec.Template, fldPath.child("selector"))...)
	return append(errs, validateReplicaSetTemplate(&spec.Template, fldPath.child("template"))...)
}

// ValidateReplicaSetUpdate checks an update of a ReplicaSet: the metadata
// update rules, the new spec, and an unchanged selector.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidateReplicaSetUpdate)
// and the selector check of the replicaset strategy's ValidateUpdate.
func ValidateReplicaSetUpdate(rs, old *appsv1.ReplicaSet) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, "metadata")
	errs = append(errs, validateReplicaSetSpec(&rs.Spec, path("spec"))...)
	return append(errs, ValidateImmutableField(rs.Spec.Selector, old.Spec.Selector, "spec.selector")...)
}

// ValidateReplicaSetStatusUpdate checks a write of a ReplicaSet's status:
// non-negative counts, none above status.replicas, available not above
// ready.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidateReplicaSetStatusUpdate).
func ValidateReplicaSetStatusUpdate(rs, old *appsv1.ReplicaSet) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, "metadata")
	s, p := &rs.Status, path("status")
	for _, f := range []struct {
		name  string
		value int32
	}{
		{"replicas", s.Replicas}, {"fullyLabeledReplicas", s.FullyLabeledReplicas},
		{"readyReplicas", s.ReadyReplicas}, {"availableReplicas", s.AvailableReplicas},
	} {
		errs = append(errs, validateNonnegative(int64(f.value), p.child(f.name))...)
	}
	errs = append(errs, validateNonnegativePtr(s.TerminatingReplicas, p.child("terminatingReplicas"))...)
	errs = append(errs, validateNonnegative(s.ObservedGeneration, p.child("observedGeneration"))...)
	const msg = "cannot be greater than status.replicas"
	if s.FullyLabeledReplicas > s.Replicas {
		errs = append(errs, apierrors.Invalid(p.child("fullyLabeledReplicas").String(), s.FullyLabeledReplicas, msg))
	}
	if s.ReadyReplicas > s.Replicas {
		errs = append(errs, apierrors.Invalid(p.child("readyReplicas").String(), s.ReadyReplicas, msg))
	}
	if s.AvailableReplicas > s.Replicas {
		errs = append(errs, apierrors.Invalid(p.child("availableReplicas").String(), s.AvailableReplicas, msg))
	}
	if s.AvailableReplicas > s.ReadyReplicas {
		errs = append(errs, apierrors.Invalid(p.child("availableReplicas").String(), s.AvailableReplicas, "cannot be greater than readyReplicas"))
	}
	return errs
}

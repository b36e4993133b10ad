package validation

import (
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// ValidateStatefulSet checks a defaulted StatefulSet being created: a
// namespaced object named by a DNS subdomain, and its spec.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidateStatefulSet).
func ValidateStatefulSet(ss *appsv1.StatefulSet) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&ss.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	return append(errs, validateStatefulSetSpec(&ss.Spec, path("spec"))...)
}

// validateStatefulSetSpec checks the pod management policy, the update
// strategy, the claim retention policy, the counts, the selector
// (required, non-empty, selecting the template) and the template
// (restartPolicy Always, no deadline).
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidateStatefulSetSpec).
func validateStatefulSetSpec(spec *appsv1.StatefulSetSpec, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	switch spec.PodManagementPolicy {
	case "":
		errs = append(errs, apierrors.Required(fldPath.child("podManagementPolicy").String(), ""))
	case appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement:
	default:
		errs = append(errs, apierrors.Invalid(fldPath.child("podManagementPolicy").String(), spec.PodManagementPolicy,
			fmt.Sprintf("must be '%s' or '%s'", appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement)))
	}
	errs = append(errs, validateStatefulSetUpdateStrategy(&spec.UpdateStrategy, fldPath.child("updateStrategy"))...)
	if p := spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		valid := []string{string(appsv1.RetainPersistentVolumeClaimRetentionPolicyType), string(appsv1.DeletePersistentVolumeClaimRetentionPolicyType)}
		pp := fldPath.child("persistentVolumeClaimRetentionPolicy")
		for _, f := range []struct {
			name  string
			value appsv1.PersistentVolumeClaimRetentionPolicyType
		}{{"whenDeleted", p.WhenDeleted}, {"whenScaled", p.WhenScaled}} {
			if f.value != appsv1.RetainPersistentVolumeClaimRetentionPolicyType && f.value != appsv1.DeletePersistentVolumeClaimRetentionPolicyType {
				errs = append(errs, apierrors.NotSupported(pp.child(f.name).String(), f.value, valid))
			}
		}
	}
	errs = append(errs, validateNonnegativePtr(spec.Replicas, fldPath.child("replicas"))...)
	if spec.Ordinals != nil {
		errs = append(errs, validateNonnegative(int64(spec.Ordinals.Start), fldPath.child("ordinals", "start"))...)
	}
	errs = append(errs, validateNonnegative(int64(spec.MinReadySeconds), fldPath.child("minReadySeconds"))...)
	if spec.Selector == nil {
		errs = append(errs, apierrors.Required(fldPath.child("selector").String(), ""))
	} else {
		errs = append(errs, ValidateLabelSelector(spec.Selector, fldPath.child("selector").String())...)
		if len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
			errs = append(errs, apierrors.Invalid(fldPath.child("selector").String(), spec.Selector, "empty selector is invalid for statefulset"))
		}
		errs = append(errs, validateSelectorMatchesTemplate(spec.Selector, &spec.Template, fldPath.child("selector").String(),
			fldPath.child("template", "metadata", "labels").String())...)
	}
	tp := fldPath.child("template")
	errs = append(errs, ValidatePodTemplateSpec(&spec.Template, tp.String())...)
	if spec.Template.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		errs = append(errs, apierrors.NotSupported(tp.child("spec", "restartPolicy").String(), spec.Template.Spec.RestartPolicy,
			[]string{string(corev1.RestartPolicyAlways)}))
	}
	if spec.Template.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, apierrors.Forbidden(tp.child("spec", "activeDeadlineSeconds").String(), "activeDeadlineSeconds in StatefulSet is not Supported"))
	}
	return errs
}

func validateStatefulSetUpdateStrategy(s *appsv1.StatefulSetUpdateStrategy, fldPath path) apierrors.FieldErrors {
	switch s.Type {
	case "":
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), "")}
	case appsv1.OnDeleteStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			return apierrors.FieldErrors{apierrors.Invalid(fldPath.child("rollingUpdate").String(), s.RollingUpdate,
				fmt.Sprintf("only allowed for updateStrategy '%s'", appsv1.RollingUpdateStatefulSetStrategyType))}
		}
	case appsv1.RollingUpdateStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			return validateNonnegativePtr(s.RollingUpdate.Partition, fldPath.child("rollingUpdate", "partition"))
		}
	default:
		return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), s,
			fmt.Sprintf("must be '%s' or '%s'", appsv1.RollingUpdateStatefulSetStrategyType, appsv1.OnDeleteStatefulSetStrategyType))}
	}
	return nil
}

// ValidateStatefulSetUpdate checks an update of a StatefulSet: the
// metadata update rules, the new spec, and that only replicas, ordinals,
// template, updateStrategy, revisionHistoryLimit,
// persistentVolumeClaimRetentionPolicy and minReadySeconds changed.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidateStatefulSetUpdate).
func ValidateStatefulSetUpdate(ss, old *appsv1.StatefulSet) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, "metadata")
	errs = append(errs, validateStatefulSetSpec(&ss.Spec, path("spec"))...)
	// The fields that may change are copied from the new spec into the
	// old one: what differs after that is a change to a field that may
	// not.
	restricted := old.Spec
	restricted.Replicas = ss.Spec.Replicas
	restricted.Ordinals = ss.Spec.Ordinals
	restricted.Template = ss.Spec.Template
	restricted.UpdateStrategy = ss.Spec.UpdateStrategy
	restricted.RevisionHistoryLimit = ss.Spec.RevisionHistoryLimit
	restricted.PersistentVolumeClaimRetentionPolicy = ss.Spec.PersistentVolumeClaimRetentionPolicy
	restricted.MinReadySeconds = ss.Spec.MinReadySeconds
	if !semanticEqual(restricted, ss.Spec) {
		errs = append(errs, apierrors.Forbidden("spec", "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"))
	}
	return errs
}

// ValidateStatefulSetStatusUpdate checks a write of a StatefulSet's
// status: non-negative counts, none above status.replicas, available not
// above ready.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/validation (ValidateStatefulSetStatusUpdate).
func ValidateStatefulSetStatusUpdate(ss, old *appsv1.StatefulSet) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, "metadata")
	s, p := &ss.Status, path("status")
	for _, f := range []struct {
		name  string
		value int32
	}{
		{"replicas", s.Replicas}, {"readyReplicas", s.ReadyReplicas}, {"currentReplicas", s.CurrentReplicas},
		{"updatedReplicas", s.UpdatedReplicas}, {"availableReplicas", s.AvailableReplicas},
	} {
		errs = append(errs, validateNonnegative(int64(f.value), p.child(f.name))...)
	}
	errs = append(errs, validateNonnegative(s.ObservedGeneration, p.child("observedGeneration"))...)
	errs = append(errs, validateNonnegativePtr(s.CollisionCount, p.child("collisionCount"))...)
	const msg = "cannot be greater than status.replicas"
	for _, f := range []struct {
		name  string
		value int32
	}{{"readyReplicas", s.ReadyReplicas}, {"currentReplicas", s.CurrentReplicas}, {"updatedReplicas", s.UpdatedReplicas}} {
		if f.value > s.Replicas {
			errs = append(errs, apierrors.Invalid(p.child(f.name).String(), f.value, msg))
		}
	}
	if s.AvailableReplicas > s.ReadyReplicas {
		errs = append(errs, apierrors.Invalid(p.child("availableReplicas").String(), s.AvailableReplicas, "cannot be greater than status.readyReplicas"))
	}
	if old.Status.CollisionCount != nil && (s.CollisionCount == nil || *s.CollisionCount < *old.Status.CollisionCount) {
		errs = append(errs, apierrors.Invalid(p.child("collisionCount").String(), s.CollisionCount, "cannot be decremented"))
	}
	return errs
}

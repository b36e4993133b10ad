package validation

import (
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// maxParallelismForIndexedJob bounds the parallelism of an Indexed Job,
// whose controller tracks every index in memory.
const maxParallelismForIndexedJob = 100_000

// ValidateJob checks a defaulted Job being created, after the API server
// generated its selector: a namespaced object named by a DNS subdomain,
// the generated selector and template labels (unless manualSelector), and
// the spec.
//
// Upstream: k8s.io/kubernetes/pkg/apis/batch/validation (ValidateJob).
func ValidateJob(job *batchv1.Job) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&job.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	errs = append(errs, validateGeneratedSelector(job)...)
	return append(errs, validateJobSpec(&job.Spec, path("spec"))...)
}

// validateGeneratedSelector checks that a Job without manualSelector
// carries what the API server generates: the controller-uid and job-name
// labels (prefixed and legacy) on its template, and a selector on the
// controller uid, so no other Job's pods can match.
func validateGeneratedSelector(job *batchv1.Job) apierrors.FieldErrors {
	if job.Spec.ManualSelector != nil && *job.Spec.ManualSelector {
		return nil
	}
	var errs apierrors.FieldErrors
	// An empty uid would make the selector "controller-uid=", which
	// matches the pods of every other such Job.
	if job.UID == "" {
		errs = append(errs, apierrors.Required("metadata.uid", ""))
	}
	meta := path("spec").child("template", "metadata")
	for _, l := range []struct{ key, value string }{
		{batchv1.LegacyControllerUidLabel, job.UID}, {batchv1.LegacyJobNameLabel, job.Name},
		{batchv1.ControllerUidLabel, job.UID}, {batchv1.JobNameLabel, job.Name},
	} {
		errs = append(errs, validateHasLabel(job.Spec.Template.Labels, meta, l.key, l.value)...)
	}
	if job.Spec.Selector != nil {
		want := map[string]string{batchv1.ControllerUidLabel: job.UID}
		if ok, err := selectorMatches(job.Spec.Selector, want); err == nil && !ok {
			errs = append(errs, apierrors.Invalid("spec.selector", job.Spec.Selector, "`selector` not auto-generated"))
		}
	}
	return errs
}

// validateHasLabel requires labels[key] == value, at <fldPath>.labels[key].
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateHasLabel).
func validateHasLabel(labels map[string]string, fldPath path, key, value string) apierrors.FieldErrors {
	p := fldPath.child("labels").key(key).String()
	got, ok := labels[key]
	switch {
	case !ok:
		return apierrors.FieldErrors{apierrors.Required(p, fmt.Sprintf("must be '%s'", value))}
	case got != value:
		return apierrors.FieldErrors{apierrors.Invalid(p, labels, fmt.Sprintf("must be '%s'", value))}
	}
	return nil
}

// validateJobSpec checks the counts and durations (non-negative), the
// completion mode, the pod failure and replacement policies, the selector
// (required, selecting the template), and the template, whose
// restartPolicy must be OnFailure or Never: a Job counts exits, which
// Always would hide.
func validateJobSpec(spec *batchv1.JobSpec, fldPath path) apierrors.FieldErrors {
	errs := validateNonnegativePtr(spec.Parallelism, fldPath.child("parallelism"))
	errs = append(errs, validateNonnegativePtr(spec.Completions, fldPath.child("completions"))...)
	errs = append(errs, validateNonnegativePtr(spec.ActiveDeadlineSeconds, fldPath.child("activeDeadlineSeconds"))...)
	errs = append(errs, validateNonnegativePtr(spec.BackoffLimit, fldPath.child("backoffLimit"))...)
	errs = append(errs, validateNonnegativePtr(spec.BackoffLimitPerIndex, fldPath.child("backoffLimitPerIndex"))...)
	errs = append(errs, validateNonnegativePtr(spec.MaxFailedIndexes, fldPath.child("maxFailedIndexes"))...)
	errs = append(errs, validateNonnegativePtr(spec.TTLSecondsAfterFinished, fldPath.child("ttlSecondsAfterFinished"))...)
	if mode := spec.CompletionMode; mode != nil {
		switch *mode {
		case batchv1.NonIndexedCompletion:
		case batchv1.IndexedCompletion:
			if spec.Completions == nil {
				errs = append(errs, apierrors.Required(fldPath.child("completions").String(), fmt.Sprintf("when completion mode is %s", batchv1.IndexedCompletion)))
			}
			if spec.Parallelism != nil && *spec.Parallelism > maxParallelismForIndexedJob {
				errs = append(errs, apierrors.Invalid(fldPath.child("parallelism").String(), *spec.Parallelism,
					fmt.Sprintf("must be less than or equal to %d when completion mode is %s", maxParallelismForIndexedJob, batchv1.IndexedCompletion)))
			}
		default:
			errs = append(errs, apierrors.NotSupported(fldPath.child("completionMode").String(), *mode,
				[]string{string(batchv1.NonIndexedCompletion), string(batchv1.IndexedCompletion)}))
		}
	}
	if spec.BackoffLimitPerIndex != nil && (spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion) {
		errs = append(errs, apierrors.Invalid(fldPath.child("backoffLimitPerIndex").String(), *spec.BackoffLimitPerIndex,
			"requires indexed completion mode"))
	}
	errs = append(errs, validatePodFailurePolicy(spec.PodFailurePolicy, fldPath.child("podFailurePolicy"))...)
	if p := spec.PodReplacementPolicy; p != nil {
		switch *p {
		case batchv1.TerminatingOrFailed:
			if spec.PodFailurePolicy != nil {
				errs = append(errs, apierrors.NotSupported(fldPath.child("podReplacementPolicy").String(), *p,
					[]string{string(batchv1.Failed)}))
			}
		case batchv1.Failed:
		default:
			errs = append(errs, apierrors.NotSupported(fldPath.child("podReplacementPolicy").String(), *p,
				[]string{string(batchv1.Failed), string(batchv1.TerminatingOrFailed)}))
		}
	}
	if spec.Selector == nil {
		errs = append(errs, apierrors.Required(fldPath.child("selector").String(), ""))
	} else {
		errs = append(errs, ValidateLabelSelector(spec.Selector, fldPath.child("selector").String())...)
		errs = append(errs, validateSelectorMatchesTemplate(spec.Selector, &spec.Template,
			fldPath.child("selector").String(), fldPath.child("template", "metadata", "labels").String())...)
	}
	errs = append(errs, ValidatePodTemplateSpec(&spec.Template, fldPath.child("template").String())...)
	restartPath := fldPath.child("template", "spec", "restartPolicy").String()
	switch spec.Template.Spec.RestartPolicy {
	case corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
	case corev1.RestartPolicyAlways, "":
		// Defaulting turned a missing restartPolicy into Always: the
		// client must choose.
		errs = append(errs, apierrors.Required(restartPath,
			fmt.Sprintf("valid values: %q, %q", corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever)))
	default:
		errs = append(errs, apierrors.NotSupported(restartPath, spec.Template.Spec.RestartPolicy,
			[]string{string(corev1.RestartPolicyOnFailure), string(corev1.RestartPolicyNever)}))
	}
	return errs
}

// maxPodFailurePolicyRules and maxPodFailurePolicyOnExitCodesValues bound
// a pod failure policy, as upstream does, so evaluating it stays cheap.
const (
	maxPodFailurePolicyRules             = 20
	maxPodFailurePolicyOnExitCodesValues = 255
)

func validatePodFailurePolicy(policy *batchv1.PodFailurePolicy, fldPath path) apierrors.FieldErrors {
	if policy == nil {
		return nil
	}
	var errs apierrors.FieldErrors
	rulesPath := fldPath.child("rules")
	if len(policy.Rules) > maxPodFailurePolicyRules {
		errs = append(errs, apierrors.TooLong(rulesPath.String(), policy.Rules, maxPodFailurePolicyRules))
	}
	for i, rule := range policy.Rules {
		rulePath := rulesPath.index(i)
		switch rule.Action {
		case batchv1.PodFailurePolicyActionFailJob, batchv1.PodFailurePolicyActionFailIndex,
			batchv1.PodFailurePolicyActionIgnore, batchv1.PodFailurePolicyActionCount:
		default:
			errs = append(errs, apierrors.NotSupported(rulePath.child("action").String(), rule.Action, []string{
				string(batchv1.PodFailurePolicyActionCount), string(batchv1.PodFailurePolicyActionFailIndex),
				string(batchv1.PodFailurePolicyActionFailJob), string(batchv1.PodFailurePolicyActionIgnore)}))
		}
		switch {
		case rule.OnExitCodes != nil && len(rule.OnPodConditions) > 0:
			errs = append(errs, apierrors.Invalid(rulePath.String(), "", "specifying both OnExitCodes and OnPodConditions is not supported"))
		case rule.OnExitCodes == nil && len(rule.OnPodConditions) == 0:
			errs = append(errs, apierrors.Invalid(rulePath.String(), "", "specifying one of OnExitCodes and OnPodConditions is required"))
		}
		if req := rule.OnExitCodes; req != nil {
			errs = append(errs, validateOnExitCodes(req, rulePath.child("onExitCodes"))...)
		}
		for j, pattern := range rule.OnPodConditions {
			patternPath := rulePath.child("onPodConditions").index(j)
			switch pattern.Status {
			case corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown:
			default:
				errs = append(errs, apierrors.NotSupported(patternPath.child("status").String(), pattern.Status,
					[]string{string(corev1.ConditionFalse), string(corev1.ConditionTrue), string(corev1.ConditionUnknown)}))
			}
			errs = append(errs, validateQualifiedNameField(string(pattern.Type), patternPath.child("type"))...)
		}
	}
	return errs
}

func validateOnExitCodes(req *batchv1.PodFailurePolicyOnExitCodesRequirement, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	switch req.Operator {
	case batchv1.PodFailurePolicyOnExitCodesOpIn, batchv1.PodFailurePolicyOnExitCodesOpNotIn:
	default:
		errs = append(errs, apierrors.NotSupported(fldPath.child("operator").String(), req.Operator,
			[]string{string(batchv1.PodFailurePolicyOnExitCodesOpIn), string(batchv1.PodFailurePolicyOnExitCodesOpNotIn)}))
	}
	valuesPath := fldPath.child("values")
	switch n := len(req.Values); {
	case n == 0:
		errs = append(errs, apierrors.Invalid(valuesPath.String(), req.Values, "at least one value is required"))
	case n > maxPodFailurePolicyOnExitCodesValues:
		errs = append(errs, apierrors.TooLong(valuesPath.String(), req.Values, maxPodFailurePolicyOnExitCodesValues))
	}
	for i, v := range req.Values {
		// Exit code 0 is success: a policy about failures cannot match it
		// with In.
		if req.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn && v == 0 {
			errs = append(errs, apierrors.Invalid(valuesPath.index(i).String(), v, "must not be 0 for the In operator"))
		}
		if i > 0 && req.Values[i-1] == v {
			errs = append(errs, apierrors.Duplicate(valuesPath.index(i).String(), v))
		} else if i > 0 && req.Values[i-1] > v {
			errs = append(errs, apierrors.Invalid(valuesPath.index(i).String(), v, "must be ordered"))
		}
	}
	return errs
}

// ValidateJobUpdate checks an update of a Job: the metadata update rules,
// the new spec, and the fields that may not change: completions,
// selector, completionMode, podFailurePolicy, successPolicy,
// backoffLimitPerIndex, managedBy and the template. The template's
// scheduling directives (nodeSelector, tolerations, affinity) and its
// labels and annotations may change while the Job is suspended and has
// never started, so a queueing controller can place it.
//
// Upstream: k8s.io/kubernetes/pkg/apis/batch/validation (ValidateJobUpdate).
func ValidateJobUpdate(job, old *batchv1.Job) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, "metadata")
	errs = append(errs, validateGeneratedSelector(job)...)
	errs = append(errs, validateJobSpec(&job.Spec, path("spec"))...)
	spec, oldSpec := &job.Spec, &old.Spec
	errs = append(errs, ValidateImmutableField(spec.Completions, oldSpec.Completions, "spec.completions")...)
	errs = append(errs, ValidateImmutableField(spec.Selector, oldSpec.Selector, "spec.selector")...)
	errs = append(errs, ValidateImmutableField(spec.CompletionMode, oldSpec.CompletionMode, "spec.completionMode")...)
	errs = append(errs, ValidateImmutableField(spec.PodFailurePolicy, oldSpec.PodFailurePolicy, "spec.podFailurePolicy")...)
	errs = append(errs, ValidateImmutableField(spec.SuccessPolicy, oldSpec.SuccessPolicy, "spec.successPolicy")...)
	errs = append(errs, ValidateImmutableField(spec.BackoffLimitPerIndex, oldSpec.BackoffLimitPerIndex, "spec.backoffLimitPerIndex")...)
	errs = append(errs, ValidateImmutableField(spec.ManagedBy, oldSpec.ManagedBy, "spec.managedBy")...)
	oldTemplate := oldSpec.Template
	suspendedNeverStarted := oldSpec.Suspend != nil && *oldSpec.Suspend && old.Status.StartTime == nil
	if suspendedNeverStarted {
		oldTemplate = runtime.DeepCopy(oldSpec.Template)
		oldTemplate.Spec.NodeSelector = spec.Template.Spec.NodeSelector
		oldTemplate.Spec.Tolerations = spec.Template.Spec.Tolerations
		oldTemplate.Spec.Affinity = spec.Template.Spec.Affinity
		oldTemplate.Labels = spec.Template.Labels
		oldTemplate.Annotations = spec.Template.Annotations
	}
	return append(errs, ValidateImmutableField(spec.Template, oldTemplate, "spec.template")...)
}

// ValidateJobStatusUpdate checks a write of a Job's status: non-negative
// counts.
//
// Upstream: k8s.io/kubernetes/pkg/apis/batch/validation (ValidateJobUpdateStatus).
func ValidateJobStatusUpdate(job, old *batchv1.Job) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, "metadata")
	s, p := &job.Status, path("status")
	errs = append(errs, validateNonnegative(int64(s.Active), p.child("active"))...)
	errs = append(errs, validateNonnegative(int64(s.Succeeded), p.child("succeeded"))...)
	errs = append(errs, validateNonnegative(int64(s.Failed), p.child("failed"))...)
	errs = append(errs, validateNonnegativePtr(s.Ready, p.child("ready"))...)
	errs = append(errs, validateNonnegativePtr(s.Terminating, p.child("terminating"))...)
	return errs
}

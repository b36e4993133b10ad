package v1

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// Job runs pods until a number of them succeed (spec.completions), or
// until too many fail (spec.backoffLimit).
type Job struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              JobSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            JobStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// JobList is a list of Jobs.
type JobList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Job `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// JobSpec is the desired state of a Job.
type JobSpec struct {
	// Parallelism is how many pods may run at once. Defaults to 1.
	Parallelism *int32 `json:"parallelism,omitempty" protobuf:"varint,1,opt,name=parallelism"`
	// Completions is how many pods must succeed. Defaults to 1 when
	// neither it nor Parallelism is set; nil means any one success (after
	// which no new pods start) completes the Job.
	Completions *int32 `json:"completions,omitempty" protobuf:"varint,2,opt,name=completions"`
	// ActiveDeadlineSeconds bounds the Job's run time from its start;
	// past it the Job fails with reason DeadlineExceeded.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,3,opt,name=activeDeadlineSeconds"`
	// PodFailurePolicy decides, from a failed pod's exit codes and
	// conditions, whether it fails the Job, is ignored or counts towards
	// backoffLimit.
	PodFailurePolicy *PodFailurePolicy `json:"podFailurePolicy,omitempty" protobuf:"bytes,11,opt,name=podFailurePolicy"`
	// SuccessPolicy lets an Indexed Job succeed before every index has.
	SuccessPolicy *SuccessPolicy `json:"successPolicy,omitempty" protobuf:"bytes,16,opt,name=successPolicy"`
	// BackoffLimit is how many pod failures the Job tolerates before it
	// fails with reason BackoffLimitExceeded. Defaults to 6.
	BackoffLimit *int32 `json:"backoffLimit,omitempty" protobuf:"varint,7,opt,name=backoffLimit"`
	// BackoffLimitPerIndex and MaxFailedIndexes bound failures per index
	// of an Indexed Job.
	BackoffLimitPerIndex *int32 `json:"backoffLimitPerIndex,omitempty" protobuf:"varint,12,opt,name=backoffLimitPerIndex"`
	MaxFailedIndexes     *int32 `json:"maxFailedIndexes,omitempty" protobuf:"varint,13,opt,name=maxFailedIndexes"`
	// Selector picks the Job's pods. The API server generates it (and the
	// template labels it matches) unless ManualSelector is true.
	Selector *metav1.LabelSelector `json:"selector,omitempty" protobuf:"bytes,4,opt,name=selector"`
	// ManualSelector lets the client choose Selector; rarely right.
	ManualSelector *bool `json:"manualSelector,omitempty" protobuf:"varint,5,opt,name=manualSelector"`
	// Template is the pod the Job runs; its restartPolicy must be
	// OnFailure or Never.
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,6,opt,name=template"`
	// TTLSecondsAfterFinished deletes the Job this long after it
	// completes or fails.
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty" protobuf:"varint,8,opt,name=ttlSecondsAfterFinished"`
	// CompletionMode is NonIndexed or Indexed. Defaults to NonIndexed.
	CompletionMode *CompletionMode `json:"completionMode,omitempty" protobuf:"bytes,9,opt,name=completionMode,casttype=CompletionMode"`
	// Suspend stops the Job from creating pods (and deletes running ones).
	// Defaults to false.
	Suspend *bool `json:"suspend,omitempty" protobuf:"varint,10,opt,name=suspend"`
	// PodReplacementPolicy says when a failed pod is replaced. Defaults to
	// TerminatingOrFailed, or Failed with a PodFailurePolicy.
	PodReplacementPolicy *PodReplacementPolicy `json:"podReplacementPolicy,omitempty" protobuf:"bytes,14,opt,name=podReplacementPolicy,casttype=podReplacementPolicy"`
	// ManagedBy names the controller that owns the Job; other values than
	// JobControllerName make the built-in job controller leave it alone.
	ManagedBy *string `json:"managedBy,omitempty" protobuf:"bytes,15,opt,name=managedBy"`
}

// The labels the API server puts on a Job's pod template and selector, so
// a Job's pods are its own. The unprefixed ones are kept for clients that
// predate the prefixed ones.
const (
	ControllerUidLabel       = "batch.kubernetes.io/controller-uid"
	JobNameLabel             = "batch.kubernetes.io/job-name"
	LegacyControllerUidLabel = "controller-uid"
	LegacyJobNameLabel       = "job-name"
)

// JobTrackingFinalizer is the finalizer the job controller puts on each
// pod it creates, so a pod is counted before it is deleted.
const JobTrackingFinalizer = "batch.kubernetes.io/job-tracking"

// JobCompletionIndexAnnotation (and the label of the same name) holds the
// completion index of a pod of an Indexed Job, from 0 to completions-1.
const JobCompletionIndexAnnotation = "batch.kubernetes.io/job-completion-index"

// JobControllerName is the ManagedBy value of Jobs the built-in controller
// reconciles.
const JobControllerName = "kubernetes.io/job-controller"

// CompletionMode says how a Job's pods complete it.
type CompletionMode string

// The completion modes.
const (
	// NonIndexedCompletion: the Job completes after spec.completions
	// successful pods, whichever they are.
	NonIndexedCompletion CompletionMode = "NonIndexed"
	// IndexedCompletion: each pod gets an index from 0 to completions-1,
	// and the Job completes once every index has succeeded.
	IndexedCompletion CompletionMode = "Indexed"
)

// PodReplacementPolicy says when the job controller replaces a pod.
type PodReplacementPolicy string

// The pod replacement policies.
const (
	// TerminatingOrFailed replaces a pod as soon as it is terminating.
	TerminatingOrFailed PodReplacementPolicy = "TerminatingOrFailed"
	// Failed waits until the pod has fully terminated.
	Failed PodReplacementPolicy = "Failed"
)

// PodFailurePolicy is an ordered list of rules; the first that matches a
// failed pod decides.
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `json:"rules" protobuf:"bytes,1,opt,name=rules"`
}

// PodFailurePolicyAction is what a matching rule does.
type PodFailurePolicyAction string

// The pod failure policy actions.
const (
	PodFailurePolicyActionFailJob   PodFailurePolicyAction = "FailJob"
	PodFailurePolicyActionFailIndex PodFailurePolicyAction = "FailIndex"
	PodFailurePolicyActionIgnore    PodFailurePolicyAction = "Ignore"
	PodFailurePolicyActionCount     PodFailurePolicyAction = "Count"
)

// PodFailurePolicyRule matches a failed pod by exit codes or by pod
// conditions (exactly one of the two).
type PodFailurePolicyRule struct {
	Action          PodFailurePolicyAction                   `json:"action" protobuf:"bytes,1,req,name=action"`
	OnExitCodes     *PodFailurePolicyOnExitCodesRequirement  `json:"onExitCodes,omitempty" protobuf:"bytes,2,opt,name=onExitCodes"`
	OnPodConditions []PodFailurePolicyOnPodConditionsPattern `json:"onPodConditions,omitempty" protobuf:"bytes,3,opt,name=onPodConditions"`
}

// PodFailurePolicyOnExitCodesOperator is In or NotIn.
type PodFailurePolicyOnExitCodesOperator string

// The exit code operators.
const (
	PodFailurePolicyOnExitCodesOpIn    PodFailurePolicyOnExitCodesOperator = "In"
	PodFailurePolicyOnExitCodesOpNotIn PodFailurePolicyOnExitCodesOperator = "NotIn"
)

// PodFailurePolicyOnExitCodesRequirement matches terminated containers'
// exit codes (of one container, or of any).
type PodFailurePolicyOnExitCodesRequirement struct {
	ContainerName *string                             `json:"containerName,omitempty" protobuf:"bytes,1,opt,name=containerName"`
	Operator      PodFailurePolicyOnExitCodesOperator `json:"operator" protobuf:"bytes,2,req,name=operator"`
	Values        []int32                             `json:"values" protobuf:"varint,3,rep,name=values"`
}

// PodFailurePolicyOnPodConditionsPattern matches a pod condition.
type PodFailurePolicyOnPodConditionsPattern struct {
	Type corev1.PodConditionType `json:"type" protobuf:"bytes,1,req,name=type"`
	// Status defaults to True.
	Status corev1.ConditionStatus `json:"status" protobuf:"bytes,2,req,name=status"`
}

// SuccessPolicy is a list of rules, any of which makes an Indexed Job
// succeed.
type SuccessPolicy struct {
	Rules []SuccessPolicyRule `json:"rules" protobuf:"bytes,1,opt,name=rules"`
}

// SuccessPolicyRule is met when the given indexes, or the given number of
// them, have succeeded.
type SuccessPolicyRule struct {
	SucceededIndexes *string `json:"succeededIndexes,omitempty" protobuf:"bytes,1,opt,name=succeededIndexes"`
	SucceededCount   *int32  `json:"succeededCount,omitempty" protobuf:"varint,2,opt,name=succeededCount"`
}

// JobStatus is the observed state of a Job, written by the job controller
// through the status subresource.
type JobStatus struct {
	// Conditions are Complete or Failed once the Job has finished, and
	// Suspended, FailureTarget or SuccessCriteriaMet on the way.
	Conditions []JobCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
	// StartTime is when the controller first acted on the Job (or last
	// resumed it); CompletionTime when it completed.
	StartTime      *metav1.Time `json:"startTime,omitempty" protobuf:"bytes,2,opt,name=startTime"`
	CompletionTime *metav1.Time `json:"completionTime,omitempty" protobuf:"bytes,3,opt,name=completionTime"`
	// Active, Succeeded and Failed count the Job's pods that are running
	// (pending or running), that exited 0, and that failed.
	Active    int32 `json:"active,omitempty" protobuf:"varint,4,opt,name=active"`
	Succeeded int32 `json:"succeeded,omitempty" protobuf:"varint,5,opt,name=succeeded"`
	Failed    int32 `json:"failed,omitempty" protobuf:"varint,6,opt,name=failed"`
	// Terminating counts pods being deleted.
	Terminating *int32 `json:"terminating,omitempty" protobuf:"varint,11,opt,name=terminating"`
	// CompletedIndexes and FailedIndexes list an Indexed Job's indexes in
	// interval form, "1,3-5".
	CompletedIndexes string  `json:"completedIndexes,omitempty" protobuf:"bytes,7,opt,name=completedIndexes"`
	FailedIndexes    *string `json:"failedIndexes,omitempty" protobuf:"bytes,10,opt,name=failedIndexes"`
	// UncountedTerminatedPods are pods that finished but are not yet in
	// Succeeded or Failed: the controller counts them, then removes their
	// JobTrackingFinalizer.
	UncountedTerminatedPods *UncountedTerminatedPods `json:"uncountedTerminatedPods,omitempty" protobuf:"bytes,8,opt,name=uncountedTerminatedPods"`
	// Ready counts the active pods with a Ready condition.
	Ready *int32 `json:"ready,omitempty" protobuf:"varint,9,opt,name=ready"`
}

// UncountedTerminatedPods holds the UIDs of finished pods not yet counted.
type UncountedTerminatedPods struct {
	Succeeded []string `json:"succeeded,omitempty" protobuf:"bytes,1,rep,name=succeeded,casttype=k8s.io/apimachinery/pkg/types.UID"`
	Failed    []string `json:"failed,omitempty" protobuf:"bytes,2,rep,name=failed,casttype=k8s.io/apimachinery/pkg/types.UID"`
}

// JobConditionType names a job condition.
type JobConditionType string

// The job conditions.
const (
	// JobSuspended is True while spec.suspend is.
	JobSuspended JobConditionType = "Suspended"
	// JobComplete is True once the Job has succeeded.
	JobComplete JobConditionType = "Complete"
	// JobFailed is True once the Job has failed.
	JobFailed JobConditionType = "Failed"
	// JobFailureTarget is set when the Job is going to fail, before its
	// pods are all gone and Failed is set.
	JobFailureTarget JobConditionType = "FailureTarget"
	// JobSuccessCriteriaMet is set when the Job is going to succeed,
	// before Complete is set.
	JobSuccessCriteriaMet JobConditionType = "SuccessCriteriaMet"
)

// The reasons of the Failed and Complete conditions.
const (
	JobReasonPodFailurePolicy         = "PodFailurePolicy"
	JobReasonBackoffLimitExceeded     = "BackoffLimitExceeded"
	JobReasonDeadlineExceeded         = "DeadlineExceeded"
	JobReasonMaxFailedIndexesExceeded = "MaxFailedIndexesExceeded"
	JobReasonFailedIndexes            = "FailedIndexes"
	JobReasonSuccessPolicy            = "SuccessPolicy"
	JobReasonCompletionsReached       = "CompletionsReached"
)

// JobCondition is one observation about a Job.
type JobCondition struct {
	Type               JobConditionType       `json:"type" protobuf:"bytes,1,opt,name=type,casttype=JobConditionType"`
	Status             corev1.ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	LastProbeTime      metav1.Time            `json:"lastProbeTime,omitempty" protobuf:"bytes,3,opt,name=lastProbeTime"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string                 `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	Message            string                 `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

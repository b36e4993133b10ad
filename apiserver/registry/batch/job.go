package batch

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/fields"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// JobStrategy is the rules of the jobs resource: the API server generates
// a Job's selector, the spec is otherwise the client's, and the status the
// job controller's.
//
// Upstream: k8s.io/kubernetes/pkg/registry/batch/job (jobStrategy).
type JobStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy: a new Job has no status
// and, unless spec.manualSelector is true, a generated selector on its uid
// with the labels it selects added to the template (see
// GenerateSelector).
func (JobStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	job := obj.(*batchv1.Job)
	job.Status = batchv1.JobStatus{}
	// Defaulting gave a Job without labels its template's. Upstream shares
	// one map between the two, so the generated labels land on the Job
	// too; copying them keeps that result.
	labelsFromTemplate := len(job.Labels) == 0 || maps.Equal(job.Labels, job.Spec.Template.Labels)
	if job.Spec.ManualSelector == nil || !*job.Spec.ManualSelector {
		GenerateSelector(job)
	}
	if labelsFromTemplate && len(job.Spec.Template.Labels) > 0 {
		job.Labels = maps.Clone(job.Spec.Template.Labels)
	}
}

// GenerateSelector adds to job's template the labels that make its pods
// its own, controller-uid=<uid> and job-name=<name> (prefixed with
// batch.kubernetes.io/ and not), keeping values the client set, and
// selects them by the prefixed controller-uid. A conflicting value the
// client set fails validation. The uid must already be set.
//
// Upstream: k8s.io/kubernetes/pkg/registry/batch/job (generateSelector).
func GenerateSelector(job *batchv1.Job) {
	if job.Spec.Template.Labels == nil {
		job.Spec.Template.Labels = map[string]string{}
	}
	for _, l := range []struct{ key, value string }{
		{batchv1.LegacyJobNameLabel, job.Name}, {batchv1.JobNameLabel, job.Name},
		{batchv1.LegacyControllerUidLabel, job.UID}, {batchv1.ControllerUidLabel, job.UID},
	} {
		if _, ok := job.Spec.Template.Labels[l.key]; !ok {
			job.Spec.Template.Labels[l.key] = l.value
		}
	}
	if job.Spec.Selector == nil {
		job.Spec.Selector = &metav1.LabelSelector{}
	}
	if job.Spec.Selector.MatchLabels == nil {
		job.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := job.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel]; !ok {
		job.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel] = job.UID
	}
}

// PrepareForUpdate implements registry.Strategy: the main resource cannot
// change status.
func (JobStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*batchv1.Job).Status = old.(*batchv1.Job).Status
}

// Validate implements registry.Strategy.
func (JobStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateJob(obj.(*batchv1.Job))
}

// ValidateUpdate implements registry.Strategy.
func (JobStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateJobUpdate(obj.(*batchv1.Job), old.(*batchv1.Job))
}

// TracksGeneration implements registry.GenerationStrategy: as upstream's
// job strategy.
func (JobStrategy) TracksGeneration() bool { return true }

// SelectableFields implements registry.Strategy with status.successful,
// as upstream.
func (JobStrategy) SelectableFields(obj runtime.Object) fields.Set {
	return fields.Set{"status.successful": strconv.Itoa(int(obj.(*batchv1.Job).Status.Succeeded))}
}

// JobStatusStrategy is the rules of jobs/status: only status changes.
type JobStatusStrategy struct{ JobStrategy }

// PrepareForUpdate implements registry.Strategy.
func (JobStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*batchv1.Job).Spec = old.(*batchv1.Job).Spec
}

// ValidateUpdate implements registry.Strategy.
func (JobStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateJobStatusUpdate(obj.(*batchv1.Job), old.(*batchv1.Job))
}

// JobTable prints jobs as `kubectl get jobs` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printJob).
var JobTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Status", Type: "string", Description: "Status of the job."},
		{Name: "Completions", Type: "string", Description: "The number of pods which reached phase Succeeded."},
		{Name: "Duration", Type: "string", Description: "Time required to complete the job."},
		printers.AgeColumn,
		{Name: "Containers", Type: "string", Priority: 1, Description: "Names of each container in the template."},
		{Name: "Images", Type: "string", Priority: 1, Description: "Images referenced by each container in the template."},
		{Name: "Selector", Type: "string", Priority: 1, Description: "A label query over pods that should match the pod count."},
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		job := obj.(*batchv1.Job)
		names, images := printers.ContainerCells(job.Spec.Template.Spec.Containers)
		selector := ""
		if job.Spec.Selector != nil {
			selector = printers.SelectorCell(job.Spec.Selector)
		}
		return []any{job.Name, JobStatusCell(job), completions(job), duration(job, now), printers.Age(obj, now),
			names, images, selector}
	},
}

// JobStatusCell is the STATUS column of `kubectl get jobs`: the first of
// Complete, Failed, Terminating, Suspended, FailureTarget and
// SuccessCriteriaMet that holds, else Running.
func JobStatusCell(job *batchv1.Job) string {
	has := func(t batchv1.JobConditionType) bool {
		for _, c := range job.Status.Conditions {
			if c.Type == t && c.Status == corev1.ConditionTrue {
				return true
			}
		}
		return false
	}
	switch {
	case has(batchv1.JobComplete):
		return "Complete"
	case has(batchv1.JobFailed):
		return "Failed"
	case job.DeletionTimestamp != nil:
		return "Terminating"
	case has(batchv1.JobSuspended):
		return "Suspended"
	case has(batchv1.JobFailureTarget):
		return "FailureTarget"
	case has(batchv1.JobSuccessCriteriaMet):
		return "SuccessCriteriaMet"
	}
	return "Running"
}

// completions is "succeeded/completions", or for a Job without
// completions "succeeded/1", with " of <parallelism>" when several pods
// run at once.
func completions(job *batchv1.Job) string {
	if c := job.Spec.Completions; c != nil {
		return fmt.Sprintf("%d/%d", job.Status.Succeeded, *c)
	}
	if p := job.Spec.Parallelism; p != nil && *p > 1 {
		return fmt.Sprintf("%d/1 of %d", job.Status.Succeeded, *p)
	}
	return fmt.Sprintf("%d/1", job.Status.Succeeded)
}

// duration is how long the Job ran: to its completion, or to now while it
// runs; empty before it starts.
func duration(job *batchv1.Job, now time.Time) string {
	switch start := job.Status.StartTime; {
	case start == nil:
		return ""
	case job.Status.CompletionTime == nil:
		return printers.HumanDuration(now.Sub(start.Time))
	default:
		return printers.HumanDuration(job.Status.CompletionTime.Sub(start.Time))
	}
}

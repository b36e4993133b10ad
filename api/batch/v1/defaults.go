package v1

import (
	"math"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// DefaultBackoffLimit is how many pod failures a Job tolerates when it
// does not say.
const DefaultBackoffLimit int32 = 6

// SetDefaults fills the fields the API server defaults when it decodes a
// request body, in place. It is idempotent. Kinds of other packages are
// left alone; lists default each item.
//
//   - Job: completions and parallelism 1 when both are unset, else
//     parallelism 1 when unset; backoffLimit 6 (MaxInt32 with
//     backoffLimitPerIndex); completionMode NonIndexed; suspend false;
//     podReplacementPolicy TerminatingOrFailed (Failed with a
//     podFailurePolicy); status True for onPodConditions patterns without
//     one; the Job's labels copied from the template's when it has none;
//     the pod template's spec as corev1.SetDefaultsPodSpec. The selector
//     and the template labels it matches are generated on create by the
//     API server's job strategy, not here.
//
// Upstream: k8s.io/kubernetes/pkg/apis/batch/v1/defaults.go.
func SetDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *Job:
		setDefaultsJob(o)
	case *JobList:
		for i := range o.Items {
			setDefaultsJob(&o.Items[i])
		}
	}
}

func setDefaultsJob(job *Job) {
	spec := &job.Spec
	// A Job that says neither runs one pod to one success.
	if spec.Completions == nil && spec.Parallelism == nil {
		spec.Completions = ptrTo(int32(1))
		spec.Parallelism = ptrTo(int32(1))
	}
	if spec.Parallelism == nil {
		spec.Parallelism = ptrTo(int32(1))
	}
	if spec.BackoffLimit == nil {
		// With a per-index limit the global one must not get in its way.
		if spec.BackoffLimitPerIndex != nil {
			spec.BackoffLimit = ptrTo(int32(math.MaxInt32))
		} else {
			spec.BackoffLimit = ptrTo(DefaultBackoffLimit)
		}
	}
	if labels := spec.Template.Labels; labels != nil && len(job.Labels) == 0 {
		job.Labels = make(map[string]string, len(labels))
		for k, v := range labels {
			job.Labels[k] = v
		}
	}
	if spec.CompletionMode == nil {
		spec.CompletionMode = ptrTo(NonIndexedCompletion)
	}
	if spec.Suspend == nil {
		spec.Suspend = ptrTo(false)
	}
	if p := spec.PodFailurePolicy; p != nil {
		for i := range p.Rules {
			for j := range p.Rules[i].OnPodConditions {
				if c := &p.Rules[i].OnPodConditions[j]; c.Status == "" {
					c.Status = corev1.ConditionTrue
				}
			}
		}
	}
	if spec.PodReplacementPolicy == nil {
		policy := TerminatingOrFailed
		if spec.PodFailurePolicy != nil {
			policy = Failed
		}
		spec.PodReplacementPolicy = &policy
	}
	corev1.SetDefaultsPodSpec(&spec.Template.Spec)
}

func ptrTo[T any](v T) *T { return &v }

package core

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/wait"
)

// maxDisruptedPodSize bounds status.disruptedPods: that many evictions
// approved but not yet seen by the disruption controller means it is
// behind, and evicting more would trust a stale budget.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod/storage (MaxDisruptedPodSize).
const maxDisruptedPodSize = 2000

// evictionRetry bounds the attempts of an eviction whose pod or budget
// changes under it, as upstream's EvictionsRetry does (20 steps). The
// attempts follow each other at once: a conflict means another write just
// landed, and reading again is the whole remedy.
var evictionRetry = wait.Backoff{Steps: 20}

// Eviction serves pods/{name}/eviction: a policy/v1 (or v1beta1)
// Eviction deletes the pod if no PodDisruptionBudget forbids it. The
// budget's disruptionsAllowed goes down by one, and the pod is recorded in
// its disruptedPods, in one optimistic write of the budget's status before
// the pod is deleted; a budget that allows nothing answers 429. Pods that
// are not running (pending, finished, or already being deleted) go
// without looking at budgets. The pod gets the DisruptionTarget condition
// before it is deleted with the Eviction's deleteOptions.
//
// pods is the pods' store, pdbStatus the store of
// poddisruptionbudgets/status.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod/storage (EvictionREST).
func Eviction(clk clock.Clock, pods, pdbStatus *registry.Store) registry.NamedCreater {
	e := &eviction{clock: clk, pods: pods, pdbs: pdbStatus}
	return registry.NamedCreater{
		New:              func() runtime.Object { return &policyv1.Eviction{} },
		Create:           e.create,
		Kind:             policyv1.EvictionGVK,
		AcceptedVersions: []runtime.GroupVersion{policyv1.SchemeGroupVersionV1beta1},
	}
}

type eviction struct {
	clock clock.Clock
	pods  *registry.Store
	pdbs  *registry.Store
}

func (e *eviction) create(ctx context.Context, ns, name string, body runtime.Object, opts registry.CreateOptions) (runtime.Object, error) {
	ev := body.(*policyv1.Eviction)
	if ev.Name != name {
		return nil, apierrors.NewBadRequest("name in URL does not match name in Eviction object")
	}
	deleteOptions, err := propagateDryRun(ev, opts)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	if err := validateDeleteOptions(deleteOptions); err != nil {
		return nil, err
	}

	// A pod that is not running has disrupted nothing, or already has:
	// delete it without asking its budget.
	var pod *corev1.Pod
	deleted := false
	err = wait.OnError(ctx, evictionRetry, func(err error) bool {
		// A resourceVersion the client set is its own to retry.
		return apierrors.IsConflict(err) && rvUnset(deleteOptions)
	}, func() (err error) {
		pod, deleted, err = e.deleteIfIgnoresBudget(ctx, ns, name, deleteOptions)
		return err
	})
	switch {
	case err != nil:
		return nil, err
	case deleted:
		return success(), nil
	}

	pdbs, err := e.budgetsOf(ctx, pod)
	if err != nil {
		return nil, err
	}
	if len(pdbs) > 1 {
		return &metav1.Status{
			Status:  metav1.StatusFailure,
			Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
			Code:    500,
		}, nil
	}
	// pinned: the pod is deleted only at the resourceVersion it was judged
	// at, so it cannot turn healthy between the check and the delete.
	pinned := false
	pdbName := ""
	if len(pdbs) == 1 {
		pdb := &pdbs[0]
		pdbName = pdb.Name
		switch {
		case !isPodReady(pod) && pdb.Spec.UnhealthyPodEvictionPolicy != nil && *pdb.Spec.UnhealthyPodEvictionPolicy == policyv1.AlwaysAllow:
			// An unhealthy pod counts for nothing in the budget.
			pinned = true
		case !isPodReady(pod) && pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0:
			// The application is whole without it: deleting it disrupts
			// nothing.
			pinned = true
		default:
			if err := e.checkAndDecrement(ctx, pod, pdb, len(deleteOptions.DryRun) > 0); err != nil {
				return nil, err
			}
		}
	}

	podDelete := deleteOptions
	if pinned {
		podDelete = withResourceVersion(deleteOptions, pod.ResourceVersion)
	}
	if err := e.addConditionAndDelete(ctx, ns, name, podDelete); err != nil {
		if apierrors.IsConflict(err) && pinned && rvUnset(deleteOptions) {
			// The pod changed since it was judged: the client should
			// simply try again.
			return nil, budgetBeingProcessed(pdbName)
		}
		return nil, err
	}
	return success(), nil
}

// deleteIfIgnoresBudget reads the pod and, if its budget need not be
// asked (see canIgnoreBudget), deletes it. It returns the pod read and
// whether it deleted it.
func (e *eviction) deleteIfIgnoresBudget(ctx context.Context, ns, name string, opts *metav1.DeleteOptions) (*corev1.Pod, bool, error) {
	obj, err := e.pods.Get(ctx, ns, name)
	if err != nil {
		return nil, false, err
	}
	pod := obj.(*corev1.Pod)
	if !canIgnoreBudget(pod) {
		return pod, false, nil
	}
	if mustPinResourceVersion(pod) && rvUnset(opts) {
		// Do not race whatever else might be disrupting the pod.
		opts = withResourceVersion(opts, pod.ResourceVersion)
	}
	if err := e.addConditionAndDelete(ctx, ns, name, opts); err != nil {
		return nil, false, err
	}
	return pod, true, nil
}

// checkAndDecrement takes one disruption from pdb for pod: one write of
// the budget's status that lowers disruptionsAllowed and records the pod
// in disruptedPods, refused (429) when the budget allows none. The write
// is optimistic on the budget read; each conflict reads it again and
// decides again.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod/storage
// (EvictionREST.checkAndDecrement).
func (e *eviction) checkAndDecrement(ctx context.Context, pod *corev1.Pod, pdb *policyv1.PodDisruptionBudget, dryRun bool) error {
	reread := false
	return wait.OnError(ctx, evictionRetry, apierrors.IsConflict, func() error {
		if reread {
			obj, err := e.pdbs.Get(ctx, pdb.Namespace, pdb.Name)
			if err != nil {
				return err
			}
			pdb = obj.(*policyv1.PodDisruptionBudget)
		}
		reread = true
		updated, err := e.decremented(pdb, pod.Name)
		if err != nil || dryRun {
			return err
		}
		_, _, err = e.pdbs.Update(ctx, pdb.Namespace, pdb.Name, func(context.Context, runtime.Object) (runtime.Object, error) {
			// The budget as read, changed: a resourceVersion that is no
			// longer the stored one makes the write a conflict.
			return updated.DeepCopy(), nil
		}, nil, nil, registry.UpdateOptions{})
		return err
	})
}

// decremented returns pdb with one disruption taken for podName, or the
// error that refuses it.
func (e *eviction) decremented(pdb *policyv1.PodDisruptionBudget, podName string) (*policyv1.PodDisruptionBudget, error) {
	gr := runtime.GroupResource{Group: policyv1.GroupName, Resource: "poddisruptionbudget"}
	switch {
	case pdb.Status.ObservedGeneration < pdb.Generation:
		return nil, budgetBeingProcessed(pdb.Name)
	case pdb.Status.DisruptionsAllowed < 0:
		return nil, apierrors.NewForbidden(gr, pdb.Name, errors.New("pdb disruptions allowed is negative"))
	case len(pdb.Status.DisruptedPods) > maxDisruptedPodSize:
		return nil, apierrors.NewForbidden(gr, pdb.Name, errors.New("DisruptedPods map too big - too many evictions not confirmed by PDB controller"))
	case pdb.Status.DisruptionsAllowed == 0:
		err := apierrors.NewTooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0)
		err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes, metav1.StatusCause{
			Type:    policyv1.DisruptionBudgetCause,
			Message: fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", pdb.Name, pdb.Status.DesiredHealthy, pdb.Status.CurrentHealthy),
		})
		return nil, err
	}
	out := pdb.DeepCopy()
	out.Status.DisruptionsAllowed--
	if out.Status.DisruptionsAllowed == 0 {
		policyv1.UpdateDisruptionAllowedCondition(out, e.clock.Now())
	}
	if out.Status.DisruptedPods == nil {
		out.Status.DisruptedPods = map[string]metav1.Time{}
	}
	// The disruption controller stops counting the pod as healthy now,
	// and forgets the entry if the pod is not deleted within its timeout.
	out.Status.DisruptedPods[podName] = metav1.NewTime(e.clock.Now())
	return out, nil
}

// budgetsOf returns the budgets of pod's namespace whose selector matches
// it. A budget with an invalid selector matches nothing.
func (e *eviction) budgetsOf(ctx context.Context, pod *corev1.Pod) ([]policyv1.PodDisruptionBudget, error) {
	obj, err := e.pdbs.List(ctx, pod.Namespace, registry.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []policyv1.PodDisruptionBudget
	for _, pdb := range obj.(*policyv1.PodDisruptionBudgetList).Items {
		sel, err := labels.FromLabelSelector(pdb.Spec.Selector)
		if err != nil || !sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		out = append(out, pdb)
	}
	return out, nil
}

// addConditionAndDelete marks the pod with the DisruptionTarget condition
// and deletes it with opts. The condition is written first, against the
// latest pod; a resourceVersion precondition then moves on to the version
// that write made, since it is ours.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod/storage (addConditionAndDeletePod).
func (e *eviction) addConditionAndDelete(ctx context.Context, ns, name string, opts *metav1.DeleteOptions) error {
	if len(opts.DryRun) == 0 {
		gr := runtime.GroupResource{Resource: "Pod"}
		out, err := e.pods.UpdateUnchecked(ctx, ns, name, func(current runtime.Object) (runtime.Object, error) {
			pod := current.(*corev1.Pod)
			if p := opts.Preconditions; p != nil {
				if uid := p.UID; uid != nil && *uid != "" && *uid != pod.UID {
					return nil, apierrors.NewConflict(gr, name, fmt.Errorf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", *uid, pod.UID))
				}
				if rv := p.ResourceVersion; rv != nil && *rv != "" && *rv != pod.ResourceVersion {
					return nil, apierrors.NewConflict(gr, name, fmt.Errorf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", *rv, pod.ResourceVersion))
				}
			}
			setDisruptionTarget(&pod.Status, e.clock.Now())
			return pod, nil
		})
		if err != nil {
			return err
		}
		if !rvUnset(opts) {
			opts = withResourceVersion(opts, metav1.MustAccessor(out).ResourceVersion)
		}
	}
	_, _, err := e.pods.Delete(ctx, ns, name, nil, opts)
	return err
}

// setDisruptionTarget sets the DisruptionTarget condition an eviction
// gives a pod, keeping its transition time if it was already True.
func setDisruptionTarget(status *corev1.PodStatus, now time.Time) {
	c := corev1.PodCondition{
		Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
		Reason: "EvictionByEvictionAPI", Message: "Eviction API: evicting",
		LastTransitionTime: metav1.NewTime(now),
	}
	i := slices.IndexFunc(status.Conditions, func(c corev1.PodCondition) bool { return c.Type == corev1.DisruptionTarget })
	if i >= 0 && status.Conditions[i].Status == c.Status {
		c.LastTransitionTime = status.Conditions[i].LastTransitionTime
	}
	setCondition(status, c)
}

// propagateDryRun returns the options of the pod's deletion: the
// Eviction's deleteOptions with the request's ?dryRun, which must agree
// with theirs when both are given.
func propagateDryRun(ev *policyv1.Eviction, opts registry.CreateOptions) (*metav1.DeleteOptions, error) {
	var dryRun []string
	if opts.DryRun {
		dryRun = []string{"All"}
	}
	switch {
	case ev.DeleteOptions == nil:
		return &metav1.DeleteOptions{DryRun: dryRun}, nil
	case len(ev.DeleteOptions.DryRun) == 0:
		ev.DeleteOptions.DryRun = dryRun
		return ev.DeleteOptions, nil
	case len(dryRun) == 0:
		return ev.DeleteOptions, nil
	case !slices.Equal(dryRun, ev.DeleteOptions.DryRun):
		return nil, fmt.Errorf("Non-matching dry-run options in request and content: %v and %v", dryRun, ev.DeleteOptions.DryRun)
	}
	return ev.DeleteOptions, nil
}

// validateDeleteOptions refuses what a DELETE would refuse, before any
// budget is spent.
func validateDeleteOptions(opts *metav1.DeleteOptions) error {
	for _, v := range opts.DryRun {
		if v != "All" {
			return apierrors.NewBadRequest(fmt.Sprintf("dryRun: unsupported value %q; supported values: \"All\"", v))
		}
	}
	return nil
}

// canIgnoreBudget reports whether the pod may go without asking its
// budget: it is pending, finished or already being deleted.
func canIgnoreBudget(pod *corev1.Pod) bool {
	switch pod.Status.Phase {
	case corev1.PodSucceeded, corev1.PodFailed, corev1.PodPending:
		return true
	}
	return pod.DeletionTimestamp != nil
}

// mustPinResourceVersion reports whether a pod deleted without asking its
// budget must be deleted at the version judged: a pending pod may start
// and turn healthy meanwhile, a finished or terminating one cannot.
func mustPinResourceVersion(pod *corev1.Pod) bool {
	return pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed && pod.DeletionTimestamp == nil
}

func rvUnset(opts *metav1.DeleteOptions) bool {
	return opts.Preconditions == nil || opts.Preconditions.ResourceVersion == nil
}

// withResourceVersion returns a copy of opts with a resourceVersion
// precondition of rv; opts, the client's, is not modified.
func withResourceVersion(opts *metav1.DeleteOptions, rv string) *metav1.DeleteOptions {
	out := runtime.DeepCopy(opts)
	if out.Preconditions == nil {
		out.Preconditions = &metav1.Preconditions{}
	}
	out.Preconditions.ResourceVersion = &rv
	return out
}

func isPodReady(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// budgetBeingProcessed is the 429 of an eviction whose budget's status
// does not describe its spec yet, or whose pod changed under it.
func budgetBeingProcessed(name string) error {
	err := apierrors.NewTooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10)
	err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes, metav1.StatusCause{
		Type: policyv1.DisruptionBudgetCause, Message: fmt.Sprintf("The disruption budget %s is still being processed by the server.", name),
	})
	return err
}

func success() *metav1.Status { return &metav1.Status{Status: metav1.StatusSuccess} }

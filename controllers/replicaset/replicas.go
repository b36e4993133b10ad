package replicaset

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controllerref"
	"github.com/minicp/minicp/logging"
)

// slowStartInitialBatchSize is the size of the first batch of creates:
// one pod, so a template the API server refuses costs one request.
//
// Upstream: k8s.io/kubernetes/pkg/controller (SlowStartInitialBatchSize).
const slowStartInitialBatchSize = 1

// namespaceTerminatingCause is the Status cause of a create refused
// because the namespace is being deleted (admission.NamespaceLifecycle).
//
// Upstream: k8s.io/api/core/v1 (NamespaceTerminatingCause).
const namespaceTerminatingCause metav1.CauseType = "NamespaceTerminating"

// The reasons of the controller's events, as upstream's.
const (
	reasonSuccessfulCreate = "SuccessfulCreate"
	reasonFailedCreate     = "FailedCreate"
	reasonSuccessfulDelete = "SuccessfulDelete"
	reasonFailedDelete     = "FailedDelete"
)

// manageReplicas creates or deletes pods so rs has spec.replicas active
// ones, at most r.burst in one call, recording what it expects to see in
// the expectations first. active are rs's active pods; they are not
// modified. It returns the first error of a create or delete.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset
// (ReplicaSetController.manageReplicas).
func (r *Reconciler) manageReplicas(ctx context.Context, active []*corev1.Pod, rs *appsv1.ReplicaSet) error {
	key := keyFor(rs)
	log := logging.FromContext(ctx)
	diff := len(active) - int(specReplicas(rs))
	switch {
	case diff < 0:
		n := min(-diff, r.burst)
		// Expected before the first create, so the informer's event for it
		// always finds the expectation to lower.
		r.expectations.ExpectCreations(key, n)
		log.DebugContext(ctx, "too few replicas", "namespace", rs.Namespace, "name", rs.Name, "need", specReplicas(rs), "creating", n)
		ref := controllerref.NewControllerRef(&rs.ObjectMeta, replicaSetKind)
		created, err := slowStartBatch(n, slowStartInitialBatchSize, func() error {
			err := r.createPod(ctx, rs, ref)
			if hasStatusCause(err, namespaceTerminatingCause) {
				// Every create will fail the same way, and the namespace
				// controller is deleting the ReplicaSet anyway.
				return nil
			}
			return err
		})
		// The pods that failed or were never tried will not be observed.
		for range n - created {
			r.expectations.CreationObserved(key)
		}
		return err
	case diff > 0:
		n := min(diff, r.burst)
		log.DebugContext(ctx, "too many replicas", "namespace", rs.Namespace, "name", rs.Name, "need", specReplicas(rs), "deleting", n)
		victims := podsToDelete(active, r.relatedPods(rs), n, r.clock.Now())
		uids := make([]string, len(victims))
		for i, pod := range victims {
			uids[i] = pod.UID
		}
		// By UID, so the graceful delete (a deletionTimestamp) and the
		// final one count once between them.
		r.expectations.ExpectDeletions(key, uids)
		errs := make([]error, len(victims))
		var wg sync.WaitGroup
		for i, pod := range victims {
			wg.Go(func() {
				err := r.deletePod(ctx, rs, pod)
				if err == nil {
					return
				}
				// No event will come for a delete that failed, nor for a
				// pod that was gone already.
				r.expectations.DeletionObserved(key, pod.UID)
				if !apierrors.IsNotFound(err) {
					errs[i] = err
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				// They are likely all the same; each was an event already.
				return err
			}
		}
	}
	return nil
}

// slowStartBatch calls fn count times, in batches of initialBatchSize,
// then twice as many while every call of a batch succeeds; the calls of a
// batch run concurrently. After a batch with a failure it stops, and
// returns the number of calls that succeeded and one of the errors. A
// quota or a bad template thus costs a few requests and events, not
// count of them.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset (slowStartBatch).
func slowStartBatch(count, initialBatchSize int, fn func() error) (int, error) {
	remaining := count
	successes := 0
	for batchSize := min(remaining, initialBatchSize); batchSize > 0; batchSize = min(2*batchSize, remaining) {
		errCh := make(chan error, batchSize)
		var wg sync.WaitGroup
		for range batchSize {
			wg.Go(func() {
				if err := fn(); err != nil {
					errCh <- err
				}
			})
		}
		wg.Wait()
		successes += batchSize - len(errCh)
		if len(errCh) > 0 {
			return successes, <-errCh
		}
		remaining -= batchSize
	}
	return successes, nil
}

// createPod creates one pod from rs's template, controlled by ref, and
// records an event either way (but not for a terminating namespace).
//
// Upstream: k8s.io/kubernetes/pkg/controller (RealPodControl.createPods).
func (r *Reconciler) createPod(ctx context.Context, rs *appsv1.ReplicaSet, ref metav1.OwnerReference) error {
	pod := podFromTemplate(rs, ref)
	if len(pod.Labels) == 0 {
		// A pod without labels could never be selected, and the ReplicaSet
		// would create pods forever; validation prevents it.
		return errors.New("unable to create pods, no labels")
	}
	created, err := r.clientset.Pods(rs.Namespace).Create(ctx, pod, client.WriteOptions{})
	if err != nil {
		if !hasStatusCause(err, namespaceTerminatingCause) {
			r.recorder.Eventf(eventObject(rs), corev1.EventTypeWarning, reasonFailedCreate, "Error creating: %v", err)
		}
		return err
	}
	r.recorder.Eventf(eventObject(rs), corev1.EventTypeNormal, reasonSuccessfulCreate, "Created pod: %v", created.Name)
	return nil
}

// deletePod deletes pod (gracefully, by the pod's own grace period) and
// records an event, except when it was gone already (a NotFound error).
//
// Upstream: k8s.io/kubernetes/pkg/controller (RealPodControl.DeletePod).
func (r *Reconciler) deletePod(ctx context.Context, rs *appsv1.ReplicaSet, pod *corev1.Pod) error {
	err := r.clientset.Pods(rs.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return err
	}
	if err != nil {
		r.recorder.Eventf(eventObject(rs), corev1.EventTypeWarning, reasonFailedDelete, "Error deleting: %v", err)
		return fmt.Errorf("unable to delete pods: %w", err)
	}
	r.recorder.Eventf(eventObject(rs), corev1.EventTypeNormal, reasonSuccessfulDelete, "Deleted pod: %v", pod.Name)
	return nil
}

// podFromTemplate is the pod rs creates: the template's labels,
// annotations, finalizers and spec (copied), named "<rs-name>-<random>"
// by the API server, controlled by ref.
//
// Upstream: k8s.io/kubernetes/pkg/controller (GetPodFromTemplate).
func podFromTemplate(rs *appsv1.ReplicaSet, ref metav1.OwnerReference) *corev1.Pod {
	t := &rs.Spec.Template
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       rs.Namespace,
			GenerateName:    podNamePrefix(rs.Name),
			Labels:          runtime.DeepCopy(t.Labels),
			Annotations:     runtime.DeepCopy(t.Annotations),
			Finalizers:      runtime.DeepCopy(t.Finalizers),
			OwnerReferences: []metav1.OwnerReference{ref},
		},
		Spec: runtime.DeepCopy(t.Spec),
	}
}

// podNamePrefix is the generateName of the pods of the ReplicaSet name:
// "name-", or name alone when the dash would make it too long.
//
// Upstream: k8s.io/kubernetes/pkg/controller (getPodsPrefix).
func podNamePrefix(name string) string {
	// A generateName may end in "-": check it as upstream does, with the
	// dash masked.
	if len(validation.IsDNS1123Subdomain(name+"a")) != 0 {
		return name
	}
	return name + "-"
}

// podsToDelete returns the n pods of active to delete first: the ones
// earliest in their lifecycle (see activePodsWithRanks), ranked by how
// many of related (the pods of every ReplicaSet with the same controller)
// share their node. active is not modified.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset (getPodsToDelete,
// getPodsRankedByRelatedPodsOnSameNode).
func podsToDelete(active, related []*corev1.Pod, n int, now time.Time) []*corev1.Pod {
	pods := append([]*corev1.Pod(nil), active...)
	if n >= len(pods) {
		return pods
	}
	onNode := map[string]int{}
	for _, pod := range related {
		if isPodActive(pod) {
			onNode[pod.Spec.NodeName]++
		}
	}
	ranks := make([]int, len(pods))
	for i, pod := range pods {
		ranks[i] = onNode[pod.Spec.NodeName]
	}
	sort.Sort(activePodsWithRanks{Pods: pods, Rank: ranks, Now: now})
	return pods[:n]
}

// relatedPods returns the pods of every ReplicaSet that has the same
// controller as rs (the ReplicaSets of one Deployment), each once; none
// when rs has no controller.
//
// Upstream: k8s.io/kubernetes/pkg/controller/replicaset
// (getIndirectlyRelatedPods, getReplicaSetsWithSameController).
func (r *Reconciler) relatedPods(rs *appsv1.ReplicaSet) []*corev1.Pod {
	ref := rs.ControllerRef()
	if ref == nil {
		return nil
	}
	// An ownerReference never crosses namespaces, so the siblings are all
	// in rs's namespace.
	siblings, err := r.rsLister.ByNamespace(rs.Namespace).List(nil)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var related []*corev1.Pod
	for _, sibling := range siblings {
		if sref := sibling.ControllerRef(); sref == nil || sref.UID != ref.UID {
			continue
		}
		selector, err := labels.FromLabelSelector(sibling.Spec.Selector)
		if err != nil {
			continue // matches no pod
		}
		pods, err := r.podLister.ByNamespace(rs.Namespace).List(selector)
		if err != nil {
			continue
		}
		for _, pod := range pods {
			if !seen[pod.UID] {
				seen[pod.UID] = true
				related = append(related, pod)
			}
		}
	}
	return related
}

// specReplicas is rs's spec.replicas, 1 when unset as defaulting makes it.
func specReplicas(rs *appsv1.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

// eventObject is what the controller's events are about: rs, with the
// kind and apiVersion that a copy from a list lacks.
func eventObject(rs *appsv1.ReplicaSet) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{
		TypeMeta: metav1.TypeMeta{Kind: replicaSetKind.Kind, APIVersion: replicaSetKind.GroupVersion().String()},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: rs.Namespace, Name: rs.Name, UID: rs.UID, ResourceVersion: rs.ResourceVersion,
		},
	}
}

// hasStatusCause reports whether err is a Status error with a cause of
// type t.
//
// Upstream: k8s.io/apimachinery/pkg/api/errors (HasStatusCause).
func hasStatusCause(err error, t metav1.CauseType) bool {
	var se *apierrors.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Details == nil {
		return false
	}
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type == t {
			return true
		}
	}
	return false
}

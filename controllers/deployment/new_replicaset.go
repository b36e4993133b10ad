package deployment

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controllerref"
	"github.com/minicp/minicp/logging"
)

// getAllReplicaSetsAndSyncRevision splits rsList into the new ReplicaSet
// (the one with d's template) and the old ones, bringing the new one's
// revision and annotations, and d's revision, up to date. With
// createIfNotExisted it creates the new ReplicaSet when there is none;
// otherwise newRS may be nil.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.getAllReplicaSetsAndSyncRevision).
func (r *reconciler) getAllReplicaSetsAndSyncRevision(ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet, createIfNotExisted bool) (*appsv1.ReplicaSet, []*appsv1.ReplicaSet, error) {
	oldRSs := findOldReplicaSets(findNewReplicaSet(d, rsList), rsList)
	newRS, err := r.getNewReplicaSet(ctx, d, rsList, oldRSs, createIfNotExisted)
	if err != nil {
		return nil, nil, err
	}
	return newRS, oldRSs, nil
}

// getNewReplicaSet returns d's new ReplicaSet, after updating it: d's
// annotations, a revision one above the old ReplicaSets' (an old template
// that comes back, a rollback, takes the next revision and keeps its old
// one in its history), minReadySeconds. d gets the new revision, and a
// Progressing condition if it has none.
//
// Without a new ReplicaSet, and with createIfNotExisted, it creates one:
// d's template with the pod-template-hash label added to its labels and
// selector, named "<deployment>-<hash>", owned by d, with as many replicas
// as the strategy allows now. A ReplicaSet already there under that name
// is d's new one if d owns it and its template is d's; otherwise the hash
// collides, and d's status.collisionCount is bumped so the next sync
// tries another name.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment
// (DeploymentController.getNewReplicaSet).
func (r *reconciler) getNewReplicaSet(ctx context.Context, d *appsv1.Deployment, rsList, oldRSs []*appsv1.ReplicaSet, createIfNotExisted bool) (*appsv1.ReplicaSet, error) {
	log := logging.FromContext(ctx)
	existing := findNewReplicaSet(d, rsList)
	newRevision := strconv.FormatInt(maxRevision(log, oldRSs)+1, 10)

	if existing != nil {
		rsCopy := existing.DeepCopy()
		annotationsUpdated := setNewReplicaSetAnnotations(log, d, rsCopy, newRevision, true)
		if annotationsUpdated || rsCopy.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
			rsCopy.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			// The Deployment's revision follows on the next sync, which
			// this update triggers.
			return r.client.ReplicaSets(rsCopy.Namespace).Update(ctx, rsCopy, client.WriteOptions{})
		}
		// The ReplicaSet's revision is the one to follow: newRevision is
		// lower if old ReplicaSets were deleted since it was set.
		needsUpdate := setDeploymentRevision(d, rsCopy.Annotations[RevisionAnnotation])
		if hasProgressDeadline(d) && getDeploymentCondition(&d.Status, appsv1.DeploymentProgressing) == nil {
			setDeploymentCondition(&d.Status, newDeploymentCondition(r.clock.Now(), appsv1.DeploymentProgressing,
				corev1.ConditionTrue, FoundNewRSReason, fmt.Sprintf("Found new replica set %q", rsCopy.Name)))
			needsUpdate = true
		}
		if needsUpdate {
			if err := r.updateStatus(ctx, d); err != nil {
				return nil, err
			}
		}
		return rsCopy, nil
	}
	if !createIfNotExisted {
		return nil, nil
	}

	newRS := newReplicaSetFor(d)
	newReplicas, err := newRSNewReplicas(d, withNew(oldRSs, newRS), newRS)
	if err != nil {
		return nil, err
	}
	newRS.Spec.Replicas = &newReplicas
	setNewReplicaSetAnnotations(log, d, newRS, newRevision, false)

	created, err := r.client.ReplicaSets(d.Namespace).Create(ctx, newRS, client.WriteOptions{})
	alreadyExists := false
	switch {
	case apierrors.IsAlreadyExists(err):
		// Usually the cache is behind: it is d's own ReplicaSet.
		alreadyExists = true
		rs, getErr := r.liveReplicaSet(ctx, d.Namespace, newRS.Name)
		if getErr != nil {
			return nil, getErr
		}
		if ref := rs.ControllerRef(); ref != nil && ref.UID == d.UID && EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			created, err = rs, nil
			break
		}
		// A hash collision: another template, or another owner, has the
		// name. Bump collisionCount and retry with the next hash.
		if d.Status.CollisionCount == nil {
			d.Status.CollisionCount = new(int32)
		}
		*d.Status.CollisionCount++
		if updErr := r.updateStatus(ctx, d); updErr == nil {
			log.Info("pod-template-hash collision, collisionCount bumped", "rs", newRS.Name, "collisionCount", *d.Status.CollisionCount)
		}
		return nil, err
	case err != nil:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", newRS.Name, err)
		if hasProgressDeadline(d) {
			setDeploymentCondition(&d.Status, newDeploymentCondition(r.clock.Now(), appsv1.DeploymentProgressing,
				corev1.ConditionFalse, FailedRSCreateReason, msg))
			// The create error is the one to report; the status is best
			// effort.
			_ = r.updateStatus(ctx, d)
		}
		r.recorder.Event(d, corev1.EventTypeWarning, FailedRSCreateReason, msg)
		return nil, err
	}
	if !alreadyExists && newReplicas > 0 {
		r.recorder.Eventf(d, corev1.EventTypeNormal, "ScalingReplicaSet", "Scaled up replica set %s from 0 to %d", created.Name, newReplicas)
	}
	needsUpdate := setDeploymentRevision(d, newRevision)
	if !alreadyExists && hasProgressDeadline(d) {
		setDeploymentCondition(&d.Status, newDeploymentCondition(r.clock.Now(), appsv1.DeploymentProgressing,
			corev1.ConditionTrue, NewReplicaSetReason, fmt.Sprintf("Created new replica set %q", created.Name)))
		needsUpdate = true
	}
	if needsUpdate {
		if err := r.updateStatus(ctx, d); err != nil {
			return nil, err
		}
	}
	return created, nil
}

// newReplicaSetFor returns d's new ReplicaSet, to be created, with no
// replicas yet: d's template with the pod-template-hash label in its
// labels and selector, named after d and the hash so that creating it
// twice fails instead of making two.
func newReplicaSetFor(d *appsv1.Deployment) *appsv1.ReplicaSet {
	template := runtime.DeepCopy(d.Spec.Template)
	hash := ComputeHash(&template, d.Status.CollisionCount)
	template.Labels = withLabel(template.Labels, appsv1.DefaultDeploymentUniqueLabelKey, hash)
	selector := runtime.DeepCopy(d.Spec.Selector)
	selector.MatchLabels = withLabel(selector.MatchLabels, appsv1.DefaultDeploymentUniqueLabelKey, hash)
	zero := int32(0)
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name:            d.Name + "-" + hash,
			Namespace:       d.Namespace,
			Labels:          maps.Clone(template.Labels),
			OwnerReferences: []metav1.OwnerReference{controllerref.NewControllerRef(&d.ObjectMeta, controllerKind)},
		},
		Spec: appsv1.ReplicaSetSpec{
			Replicas:        &zero,
			MinReadySeconds: d.Spec.MinReadySeconds,
			Selector:        selector,
			Template:        template,
		},
	}
}

// liveReplicaSet returns the ReplicaSet ns/name from the cache or, when
// the cache does not have it yet, from the API server.
func (r *reconciler) liveReplicaSet(ctx context.Context, ns, name string) (*appsv1.ReplicaSet, error) {
	rs, err := r.replicaSets.Get(ns, name)
	if apierrors.IsNotFound(err) {
		return r.client.ReplicaSets(ns).Get(ctx, name, client.GetOptions{})
	}
	return rs, err
}

// withNew returns a new slice of oldRSs and newRS, which may be nil:
// every ReplicaSet of a Deployment.
func withNew(oldRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	return append(slices.Clone(oldRSs), newRS)
}

// withLabel returns a copy of labels with key=value.
func withLabel(labels map[string]string, key, value string) map[string]string {
	out := maps.Clone(labels)
	if out == nil {
		out = map[string]string{}
	}
	out[key] = value
	return out
}

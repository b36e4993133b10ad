package main

import (
	"context"
	"fmt"
	"strings"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/examples/internal/flowtrace"
)

// revisionAnnotation is the deployment controller's rollout number on a
// Deployment and its ReplicaSets.
const revisionAnnotation = "deployment.kubernetes.io/revision"

// watched are the resources the example watches, so it knows what
// their writes wrote.
var watched = map[string]bool{"deployments": true, "replicasets": true, "pods": true}

// describe says what write w changed, from the object at its revision
// and the version before; "" for a write a learner need not see (a
// ReplicaSet's status, a pod's status with no news).
func (p *player) describe(ctx context.Context, w flowtrace.Write) (string, error) {
	resource, _, _ := strings.Cut(w.Resource(), "/")
	if !watched[resource] || flowtrace.Attr(w.Request, "namespace") != "default" {
		return "", nil // a controller's own ServiceAccount, an Event, ...
	}
	v, err := p.writes.At(ctx, w.Rev)
	if err != nil {
		return "", err
	}
	prev, seen := p.writes.Before(v)
	switch obj := v.Object.(type) {
	case *appsv1.Deployment:
		var old *appsv1.Deployment
		if seen {
			old = prev.Object.(*appsv1.Deployment)
		}
		return describeDeployment(w, v.Type, obj, old), nil
	case *appsv1.ReplicaSet:
		var old *appsv1.ReplicaSet
		if seen {
			old = prev.Object.(*appsv1.ReplicaSet)
		}
		return describeReplicaSet(v.Type, obj, old), nil
	case *corev1.Pod:
		var old *corev1.Pod
		if seen {
			old = prev.Object.(*corev1.Pod)
		}
		return describePod(v.Type, obj, old), nil
	}
	return "", nil
}

func describeDeployment(w flowtrace.Write, typ watch.EventType, d, old *appsv1.Deployment) string {
	switch {
	case typ == watch.Deleted:
		return fmt.Sprintf("deployment %s deleted: its last finalizer removed once nothing it owns remains", d.Name)
	case old == nil:
		return fmt.Sprintf("%s deployment %s: %d replicas of %s, generation %d (%s)", w.Verb(), d.Name, replicas(d.Spec.Replicas),
			d.Spec.Template.Spec.Containers[0].Image, d.Generation, flowtrace.Attr(w.Request, "path"))
	case d.DeletionTimestamp != nil && old.DeletionTimestamp == nil:
		return fmt.Sprintf("%s deployment %s: deletionTimestamp set, finalizers %v; it stays until its dependents are gone", w.Verb(), d.Name, d.Finalizers)
	case d.Generation != old.Generation:
		return fmt.Sprintf("%s deployment %s: %d replicas of %s, generation %d", w.Verb(), d.Name, replicas(d.Spec.Replicas),
			d.Spec.Template.Spec.Containers[0].Image, d.Generation)
	case d.Annotations[revisionAnnotation] != old.Annotations[revisionAnnotation]:
		return fmt.Sprintf("deployment %s: revision annotation %s", d.Name, d.Annotations[revisionAnnotation])
	case d.Status.ObservedGeneration != old.Status.ObservedGeneration || d.Status.UpdatedReplicas != old.Status.UpdatedReplicas ||
		d.Status.AvailableReplicas != old.Status.AvailableReplicas:
		return fmt.Sprintf("deployment %s status: generation %d observed, %d updated, %d available, revision %s",
			d.Name, d.Status.ObservedGeneration, d.Status.UpdatedReplicas, d.Status.AvailableReplicas, d.Annotations[revisionAnnotation])
	}
	return ""
}

func describeReplicaSet(typ watch.EventType, rs, old *appsv1.ReplicaSet) string {
	switch {
	case typ == watch.Deleted:
		return fmt.Sprintf("replicaset %s deleted", rs.Name)
	case old == nil:
		return fmt.Sprintf("replicaset %s created by the deployment controller: revision %s, %d replicas",
			rs.Name, rs.Annotations[revisionAnnotation], replicas(rs.Spec.Replicas))
	case rs.DeletionTimestamp != nil && old.DeletionTimestamp == nil:
		return fmt.Sprintf("replicaset %s: deletionTimestamp set, finalizers %v", rs.Name, rs.Finalizers)
	case replicas(rs.Spec.Replicas) != replicas(old.Spec.Replicas):
		return fmt.Sprintf("replicaset %s scaled %d → %d by the deployment controller", rs.Name, replicas(old.Spec.Replicas), replicas(rs.Spec.Replicas))
	}
	return ""
}

func describePod(typ watch.EventType, pod, old *corev1.Pod) string {
	owner := "?"
	if ref := pod.ControllerRef(); ref != nil {
		owner = ref.Name
	}
	switch {
	case typ == watch.Deleted:
		return fmt.Sprintf("pod %s deleted", pod.Name)
	case old == nil:
		return fmt.Sprintf("pod %s created by replicaset %s", pod.Name, owner)
	case pod.DeletionTimestamp != nil && old.DeletionTimestamp == nil:
		return fmt.Sprintf("pod %s terminating (replicaset %s)", pod.Name, owner)
	case pod.Spec.NodeName != "" && old.Spec.NodeName == "":
		return fmt.Sprintf("pod %s bound to %s", pod.Name, pod.Spec.NodeName)
	case ready(pod) && !ready(old):
		return fmt.Sprintf("pod %s ready on %s", pod.Name, pod.Spec.NodeName)
	}
	return ""
}

func replicas(n *int32) int32 {
	if n == nil {
		return 1
	}
	return *n
}

func ready(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

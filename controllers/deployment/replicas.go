package deployment

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	"github.com/minicp/minicp/api/intstr"
)

// isRollingUpdate reports whether d rolls out with RollingUpdate.
func isRollingUpdate(d *appsv1.Deployment) bool {
	return d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType
}

// resolveFenceposts turns maxSurge and maxUnavailable into pod counts out
// of desired: surge rounds up, unavailable down. If both come out 0
// (validation forbids writing both as 0, but 25% of 1 rounds down to 0),
// maxUnavailable becomes 1: a rollout must be able to move, and surge may
// be blocked by quota.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (ResolveFenceposts).
func resolveFenceposts(surgeValue, unavailableValue *intstr.IntOrString, desired int32) (surge, unavailable int32, err error) {
	zero := intstr.FromInt32(0)
	if surgeValue == nil {
		surgeValue = &zero
	}
	if unavailableValue == nil {
		unavailableValue = &zero
	}
	s, err := intstr.GetScaledValueFromIntOrPercent(surgeValue, int(desired), true)
	if err != nil {
		return 0, 0, err
	}
	u, err := intstr.GetScaledValueFromIntOrPercent(unavailableValue, int(desired), false)
	if err != nil {
		return 0, 0, err
	}
	if s == 0 && u == 0 {
		u = 1
	}
	return clampInt32(s), clampInt32(u), nil
}

// fenceposts resolves d's rolling update bounds. Validation rejects bad
// values, so an error here resolves to the safest bounds: no surge and
// one unavailable pod.
func fenceposts(d *appsv1.Deployment) (surge, unavailable int32) {
	var s, u *intstr.IntOrString
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		s, u = ru.MaxSurge, ru.MaxUnavailable
	}
	surge, unavailable, err := resolveFenceposts(s, u, *d.Spec.Replicas)
	if err != nil {
		return 0, 1
	}
	return max(surge, 0), max(unavailable, 0)
}

// maxSurge is how many pods above spec.replicas d may run during a
// rolling update; 0 for Recreate.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (MaxSurge).
func maxSurge(d *appsv1.Deployment) int32 {
	if !isRollingUpdate(d) {
		return 0
	}
	surge, _ := fenceposts(d)
	return surge
}

// maxUnavailable is how many of spec.replicas may be unavailable during a
// rolling update, at most spec.replicas; 0 for Recreate or no replicas.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (MaxUnavailable).
func maxUnavailable(d *appsv1.Deployment) int32 {
	if !isRollingUpdate(d) || *d.Spec.Replicas == 0 {
		return 0
	}
	_, unavailable := fenceposts(d)
	return min(unavailable, *d.Spec.Replicas)
}

// newRSNewReplicas is how far the new ReplicaSet may be scaled up now:
// for a rolling update, until the pods of all ReplicaSets reach
// spec.replicas + maxSurge, and never past spec.replicas; for Recreate,
// spec.replicas at once.
//
// Upstream counts each ReplicaSet's spec.replicas. An old ReplicaSet just
// scaled down still has its extra pods until the replicaset controller
// deletes them, and status.replicas says so: counting the larger of the
// two keeps the running pods within the surge at every moment, instead of
// racing the scale-up against those deletions.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (NewRSNewReplicas).
func newRSNewReplicas(d *appsv1.Deployment, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) (int32, error) {
	switch d.Spec.Strategy.Type {
	case appsv1.RollingUpdateDeploymentStrategyType:
		var current int32
		for _, rs := range allRSs {
			if rs != nil {
				current += max(*rs.Spec.Replicas, rs.Status.Replicas)
			}
		}
		maxTotal := *d.Spec.Replicas + maxSurge(d)
		if current >= maxTotal {
			return *newRS.Spec.Replicas, nil
		}
		scaleUp := min(maxTotal-current, *d.Spec.Replicas-*newRS.Spec.Replicas)
		return *newRS.Spec.Replicas + scaleUp, nil
	case appsv1.RecreateDeploymentStrategyType:
		return *d.Spec.Replicas, nil
	}
	return 0, fmt.Errorf("deployment strategy %q is not supported", d.Spec.Strategy.Type)
}

// replicaCount sums spec.replicas.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (GetReplicaCountForReplicaSets).
func replicaCount(rss []*appsv1.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += *rs.Spec.Replicas
		}
	}
	return n
}

// actualReplicaCount sums status.replicas.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (GetActualReplicaCountForReplicaSets).
func actualReplicaCount(rss []*appsv1.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rs.Status.Replicas
		}
	}
	return n
}

// readyReplicaCount sums status.readyReplicas.
func readyReplicaCount(rss []*appsv1.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rs.Status.ReadyReplicas
		}
	}
	return n
}

// availableReplicaCount sums status.availableReplicas.
func availableReplicaCount(rss []*appsv1.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rs.Status.AvailableReplicas
		}
	}
	return n
}

// terminatingReplicaCount sums status.terminatingReplicas, nil when no
// ReplicaSet reports it.
func terminatingReplicaCount(rss []*appsv1.ReplicaSet) *int32 {
	var n *int32
	for _, rs := range rss {
		if rs == nil || rs.Status.TerminatingReplicas == nil {
			continue
		}
		if n == nil {
			n = new(int32)
		}
		*n += *rs.Status.TerminatingReplicas
	}
	return n
}

// safeAvailable is the pods of rs that are available and stay so: its
// status.availableReplicas, but no more than spec.replicas. Scaling
// decisions use it. Right after a scale-down the status still counts the
// pods about to be deleted; trusting it would scale down again, past
// maxUnavailable.
func safeAvailable(rs *appsv1.ReplicaSet) int32 {
	return min(rs.Status.AvailableReplicas, *rs.Spec.Replicas)
}

// filterActiveReplicaSets returns the ReplicaSets with spec.replicas > 0.
//
// Upstream: k8s.io/kubernetes/pkg/controller (FilterActiveReplicaSets).
func filterActiveReplicaSets(rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	var active []*appsv1.ReplicaSet
	for _, rs := range rss {
		if rs != nil && *rs.Spec.Replicas > 0 {
			active = append(active, rs)
		}
	}
	return active
}

// byCreationTimestamp orders ReplicaSets oldest first, by name among
// equals.
//
// Upstream: k8s.io/kubernetes/pkg/controller (ReplicaSetsByCreationTimestamp).
func byCreationTimestamp(a, b *appsv1.ReplicaSet) int {
	if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

// bySizeNewer orders ReplicaSets largest first, newer first among equals:
// the order a scale-up hands out replicas in.
//
// Upstream: k8s.io/kubernetes/pkg/controller (ReplicaSetsBySizeNewer).
func bySizeNewer(a, b *appsv1.ReplicaSet) int {
	if c := cmp.Compare(*b.Spec.Replicas, *a.Spec.Replicas); c != 0 {
		return c
	}
	return byCreationTimestamp(b, a)
}

// bySizeOlder orders ReplicaSets largest first, older first among equals:
// the order a scale-down takes replicas in.
//
// Upstream: k8s.io/kubernetes/pkg/controller (ReplicaSetsBySizeOlder).
func bySizeOlder(a, b *appsv1.ReplicaSet) int {
	if c := cmp.Compare(*b.Spec.Replicas, *a.Spec.Replicas); c != 0 {
		return c
	}
	return byCreationTimestamp(a, b)
}

// byRevision orders ReplicaSets by revision, then by creation.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (ReplicaSetsByRevision).
func byRevision(a, b *appsv1.ReplicaSet) int {
	ra, errA := revision(a)
	rb, errB := revision(b)
	if errA != nil || errB != nil || ra == rb {
		return byCreationTimestamp(a, b)
	}
	return cmp.Compare(ra, rb)
}

// findNewReplicaSet returns the ReplicaSet whose template is d's, the
// oldest if several are (see upstream issue 40415), or nil. It sorts rss.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (FindNewReplicaSet).
func findNewReplicaSet(d *appsv1.Deployment, rss []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	slices.SortFunc(rss, byCreationTimestamp)
	for _, rs := range rss {
		if EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			return rs
		}
	}
	return nil
}

// findOldReplicaSets returns every ReplicaSet of rss but newRS.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (FindOldReplicaSets).
func findOldReplicaSets(newRS *appsv1.ReplicaSet, rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	var old []*appsv1.ReplicaSet
	for _, rs := range rss {
		if newRS == nil || rs.UID != newRS.UID {
			old = append(old, rs)
		}
	}
	return old
}

// findActiveOrLatest returns the only active ReplicaSet; with none
// active, the new one, or else the newest old one; with several active,
// nil.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (FindActiveOrLatest).
func findActiveOrLatest(newRS *appsv1.ReplicaSet, oldRSs []*appsv1.ReplicaSet) *appsv1.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	slices.SortFunc(oldRSs, func(a, b *appsv1.ReplicaSet) int { return byCreationTimestamp(b, a) })
	active := filterActiveReplicaSets(append(slices.Clone(oldRSs), newRS))
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return oldRSs[0]
	case 1:
		return active[0]
	}
	return nil
}

// isSaturated reports whether rs runs all of d's replicas, available,
// scaled for d's current size.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (IsSaturated).
func isSaturated(d *appsv1.Deployment, rs *appsv1.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, ok := intAnnotation(rs, DesiredReplicasAnnotation)
	return ok && desired == *d.Spec.Replicas && *rs.Spec.Replicas == *d.Spec.Replicas &&
		rs.Status.AvailableReplicas == *d.Spec.Replicas
}

// replicaSetProportion is how many of the replicas to add (negative: to
// remove) go to rs: its share of the Deployment's new size, bounded by
// what is still to hand out.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (GetReplicaSetProportion).
func replicaSetProportion(rs *appsv1.ReplicaSet, d *appsv1.Deployment, toAdd, added int32) int32 {
	if rs == nil || *rs.Spec.Replicas == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := replicaSetFraction(rs, d)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

// replicaSetFraction is rs's size scaled from the Deployment's previous
// maximum (its max-replicas annotation) to the current one, minus its
// size.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (getReplicaSetFraction).
func replicaSetFraction(rs *appsv1.ReplicaSet, d *appsv1.Deployment) int32 {
	if *d.Spec.Replicas == 0 {
		return -*rs.Spec.Replicas
	}
	newMax := *d.Spec.Replicas + maxSurge(d)
	oldMax, ok := intAnnotation(rs, MaxReplicasAnnotation)
	if !ok || oldMax == 0 {
		// Edited by hand: fall back to the current size, which keeps the
		// result within bounds if not exact.
		oldMax = d.Status.Replicas
	}
	if oldMax <= 0 {
		// Nothing to scale from: the leftover goes to the largest
		// ReplicaSet instead.
		return 0
	}
	size := float64(*rs.Spec.Replicas) * float64(newMax) / float64(oldMax)
	return clampInt32(int(math.Round(size))) - *rs.Spec.Replicas
}

// clampInt32 converts n, saturating at the int32 bounds.
func clampInt32(n int) int32 {
	return int32(max(min(n, math.MaxInt32), math.MinInt32))
}

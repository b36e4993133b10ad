package deployment

import (
	"log/slog"
	"strconv"
	"strings"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
)

// The annotations the controller keeps on Deployments and their
// ReplicaSets. kubectl rollout history and undo read the revisions.
const (
	// RevisionAnnotation is the rollout sequence number of a ReplicaSet:
	// one more than the highest of its siblings when it became the new
	// one. A Deployment carries its new ReplicaSet's.
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	// RevisionHistoryAnnotation lists, comma-separated, the revisions a
	// ReplicaSet had before a rollback made it the new one again.
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	// DesiredReplicasAnnotation is the Deployment's spec.replicas when the
	// ReplicaSet was last scaled: a different value now means the
	// Deployment was scaled, not rolled out.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// MaxReplicasAnnotation is spec.replicas + maxSurge at that time: the
	// base of proportional scaling.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"

	// lastAppliedConfigAnnotation is kubectl apply's; it describes the
	// Deployment, not the ReplicaSet, so it is not copied.
	lastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
	// maxRevHistoryLengthInChars bounds RevisionHistoryAnnotation, as
	// upstream's default: annotations are limited in size in total.
	maxRevHistoryLengthInChars = 2000
)

// skipCopyAnnotation reports whether a Deployment's annotation key stays
// off its ReplicaSets: the controller's own, which it writes per
// ReplicaSet, and kubectl apply's.
func skipCopyAnnotation(key string) bool {
	switch key {
	case lastAppliedConfigAnnotation, RevisionAnnotation, RevisionHistoryAnnotation,
		DesiredReplicasAnnotation, MaxReplicasAnnotation:
		return true
	}
	return false
}

// copyDeploymentAnnotationsToReplicaSet copies d's annotations, but the
// skipped ones, to rs, and reports whether rs changed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util
// (copyDeploymentAnnotationsToReplicaSet).
func copyDeploymentAnnotationsToReplicaSet(d *appsv1.Deployment, rs *appsv1.ReplicaSet) bool {
	changed := false
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	for k, v := range d.Annotations {
		if old, ok := rs.Annotations[k]; skipCopyAnnotation(k) || ok && old == v {
			continue
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}

// setNewReplicaSetAnnotations brings the new ReplicaSet's annotations up
// to date: d's annotations, the revision newRevision unless rs has a
// higher one already (its old revision then goes into the history: this
// is a rollback to it), and, for a ReplicaSet about to be created
// (exists false), the replicas annotations. It reports whether rs
// changed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util
// (SetNewReplicaSetAnnotations).
func setNewReplicaSetAnnotations(log *slog.Logger, d *appsv1.Deployment, rs *appsv1.ReplicaSet, newRevision string, exists bool) bool {
	changed := copyDeploymentAnnotationsToReplicaSet(d, rs)
	oldRevision, had := rs.Annotations[RevisionAnnotation]
	oldRevisionInt, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			log.Warn("replica set revision is not a number", "name", rs.Name, "revision", oldRevision)
			return false
		}
		oldRevisionInt = 0
	}
	newRevisionInt, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldRevisionInt < newRevisionInt {
		rs.Annotations[RevisionAnnotation] = newRevision
		changed = true
		if had {
			appendRevisionHistory(log, rs, oldRevision)
		}
	}
	if !exists && setReplicasAnnotations(rs, *d.Spec.Replicas, *d.Spec.Replicas+maxSurge(d)) {
		changed = true
	}
	return changed
}

// appendRevisionHistory adds oldRevision to rs's revision history,
// dropping the oldest entries to stay within maxRevHistoryLengthInChars.
func appendRevisionHistory(log *slog.Logger, rs *appsv1.ReplicaSet, oldRevision string) {
	history := rs.Annotations[RevisionHistoryAnnotation]
	if history == "" {
		rs.Annotations[RevisionHistoryAnnotation] = oldRevision
		return
	}
	revisions := strings.Split(history, ",")
	total := len(history) + len(oldRevision) + 1
	start := 0
	for total > maxRevHistoryLengthInChars && start < len(revisions) {
		total -= len(revisions[start]) + 1
		start++
	}
	if total > maxRevHistoryLengthInChars {
		log.Warn("revision history full, revision not recorded", "name", rs.Name, "revision", oldRevision)
		return
	}
	rs.Annotations[RevisionHistoryAnnotation] = strings.Join(append(revisions[start:], oldRevision), ",")
}

// setReplicasAnnotations sets rs's desired and max replicas annotations
// and reports whether they changed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util
// (SetReplicasAnnotations).
func setReplicasAnnotations(rs *appsv1.ReplicaSet, desired, maxReplicas int32) bool {
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	changed := false
	for key, want := range map[string]string{
		DesiredReplicasAnnotation: strconv.Itoa(int(desired)),
		MaxReplicasAnnotation:     strconv.Itoa(int(maxReplicas)),
	} {
		if rs.Annotations[key] != want {
			rs.Annotations[key] = want
			changed = true
		}
	}
	return changed
}

// replicasAnnotationsNeedUpdate reports whether setReplicasAnnotations
// would change rs.
func replicasAnnotationsNeedUpdate(rs *appsv1.ReplicaSet, desired, maxReplicas int32) bool {
	return rs.Annotations[DesiredReplicasAnnotation] != strconv.Itoa(int(desired)) ||
		rs.Annotations[MaxReplicasAnnotation] != strconv.Itoa(int(maxReplicas))
}

// setDeploymentRevision sets d's revision annotation and reports whether
// it changed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (SetDeploymentRevision).
func setDeploymentRevision(d *appsv1.Deployment, revision string) bool {
	if d.Annotations[RevisionAnnotation] == revision {
		return false
	}
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[RevisionAnnotation] = revision
	return true
}

// revision returns rs's revision; a missing annotation is 0.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (Revision).
func revision(rs *appsv1.ReplicaSet) (int64, error) {
	v, ok := rs.Annotations[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// maxRevision returns the highest revision among rss; revisions that are
// not numbers are skipped (someone edited them).
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment/util (MaxRevision).
func maxRevision(log *slog.Logger, rss []*appsv1.ReplicaSet) int64 {
	var highest int64
	for _, rs := range rss {
		v, err := revision(rs)
		if err != nil {
			log.Warn("replica set revision is not a number", "name", rs.Name, "err", err)
			continue
		}
		highest = max(highest, v)
	}
	return highest
}

// intAnnotation returns the integer annotation key of rs, and whether it
// is there and a number.
func intAnnotation(rs *appsv1.ReplicaSet, key string) (int32, bool) {
	v, ok := rs.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}

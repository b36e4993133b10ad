// Package deployment is the deployment controller: it turns a
// Deployment into ReplicaSets, one per pod template, and moves replicas
// from the old ones to the new one as its strategy says. It is the first
// of the control loops a Deployment goes through (deployment controller
// -> replicaset controller -> scheduler -> kubelet): the
// replicaset controller makes the pods, the scheduler places them and
// the kubelets run them; this controller only writes ReplicaSets and the
// Deployment's status.
//
// A sync of one Deployment (syncDeployment) reads the manager's cache
// and, in order:
//
//   - claims the ReplicaSets its selector matches, adopting orphans and
//     releasing what it no longer selects (controllerref);
//   - finds the new ReplicaSet, whose template is the Deployment's but
//     for the pod-template-hash label (ComputeHash, EqualIgnoreHash), and
//     the old ones; revisions go in RevisionAnnotation, one above the
//     highest old revision, and an old template that comes back (a
//     rollback) takes the next revision;
//   - paused, or scaled (spec.replicas differs from the
//     DesiredReplicasAnnotation of the active ReplicaSets): scales,
//     proportionally mid-rollout, and does nothing else;
//   - RollingUpdate: scales the new ReplicaSet up within maxSurge, or the
//     old ones down within maxUnavailable, counting available replicas;
//   - Recreate: scales the old ReplicaSets to 0, waits until their pods
//     are gone, then creates and scales up the new one;
//   - writes the status (counts, observedGeneration, the Available and
//     Progressing conditions that kubectl rollout status reads), and asks
//     to be synced again when the progress deadline would pass;
//   - deletes old ReplicaSets beyond revisionHistoryLimit.
//
// One step per sync: each write comes back as an event, and the next
// sync sees its effect. A Deployment being deleted only gets its status
// updated; the garbage collector deletes its ReplicaSets.
//
// Add sets the controller up on a manager.Manager with upstream's
// defaults. Where this controller counts more carefully than upstream
// (newRSNewReplicas, safeAvailable), the reason is in the doc comment.
//
// Upstream: k8s.io/kubernetes/pkg/controller/deployment and its util
// package (deployment_util.go).
package deployment

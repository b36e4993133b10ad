// Package job is the Job controller: it runs a Job's pods until enough of
// them succeed, or too many fail, and keeps the Job's status in step.
// It is the controller at the heart of the Job flow:
//
//  1. a Job is created through the API server and
//  2. persisted to etcd;
//  3. this controller sees it and creates pods from its template, owned
//     by the Job (controller=true) and selected by the labels the API
//     server generated (batch.kubernetes.io/controller-uid, job-name);
//  4. the scheduler assigns each pod a node;
//  5. the node's kubelet starts it through the CRI;
//  6. when the container exits, the kubelet reports the exit code in the
//     pod's status;
//  7. this controller sees the change and decides: exit 0 counts as a
//     success, anything else as a failure; enough successes complete the
//     Job, more failures than backoffLimit fail it, and otherwise a new
//     pod starts (after an exponential backoff: 10s, 20s, 40s... capped
//     at 6 minutes) and the loop goes back to step 4.
//
// What it implements, as upstream: completions and parallelism (also
// without completions: a work queue that one success completes),
// backoffLimit (for restartPolicy OnFailure, the containers' restarts
// count too), activeDeadlineSeconds, suspend, the Indexed completion mode,
// podFailurePolicy (FailJob, Ignore, Count), podReplacementPolicy, the
// interim conditions FailureTarget and SuccessCriteriaMet before Failed
// and Complete, status.active, ready, terminating, succeeded, failed,
// startTime and completionTime, and Events (SuccessfulCreate,
// SuccessfulDelete, Completed, BackoffLimitExceeded, DeadlineExceeded).
// Not implemented: backoffLimitPerIndex and maxFailedIndexes, successPolicy.
//
// Each finished pod is counted exactly once, even if it is deleted right
// away: pods carry the batch.kubernetes.io/job-tracking finalizer, and a
// finished pod's UID goes to status.uncountedTerminatedPods before its
// finalizer is removed and it moves to the counters (see tracking.go).
// Expectations (controllers/expectations) keep a sync from creating or
// deleting pods again before the informer shows the last ones.
//
// The controller reads Jobs and pods from the manager's cache and writes
// through the API server; all its timing (backoff, deadlines) runs on the
// manager's clock. Add registers it on a Manager.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job.
package job

// Package ttlafterfinished is the TTL-after-finished controller: it
// deletes a Job spec.ttlSecondsAfterFinished seconds after the Job
// completed or failed, so finished Jobs (and, through the garbage
// collector, their pods) do not pile up.
//
// It comes after the job controller in a Job's life: once the job
// controller has set the Job's Complete or Failed condition, this
// controller waits, on the manager's clock, until the condition's
// lastTransitionTime plus the TTL, reads the Job fresh from the API server
// (the cached copy may carry an old TTL), and deletes it with
// propagationPolicy Foreground and the Job's UID as a precondition, so a
// Job recreated under the same name is never the one deleted.
//
// Add registers it on a Manager.
//
// Upstream: k8s.io/kubernetes/pkg/controller/ttlafterfinished.
package ttlafterfinished

package ttlafterfinished_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/manager"
)

// epoch is where the fake clocks start: a whole second (the API keeps
// seconds), near the real time, as a cluster's certificates are valid
// from its clock's time while TLS checks them against the real time.
var epoch = clock.Real.Now().Add(-time.Hour).Truncate(time.Second).UTC()

const ns = "default"

// env is a client of an API server and a Manager of the test on a fake
// clock.
type env struct {
	t   *testing.T
	clk *clocktest.Fake
	cs  *client.Clientset
	mgr *manager.Manager
}

func (e *env) waitIdle() {
	e.t.Helper()
	clustertest.WaitIdle(e.t, e.mgr)
}

// newJob is a Job of one busybox pod running script.
func newJob(name, script string, ttl *int32) *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: batchv1.JobSpec{
			TTLSecondsAfterFinished: ttl,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers:    []corev1.Container{{Name: "main", Image: "busybox", Command: []string{"sh", "-c", script}}},
			}},
		},
	}
}

func ptrTo[T any](v T) *T { return &v }

// kept reports whether the Job name is still there and not being
// deleted.
func (e *env) kept(name string) bool {
	e.t.Helper()
	j, err := e.cs.Jobs(ns).Get(e.t.Context(), name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false
	}
	require.NoError(e.t, err, "get job %s", name)
	return j.DeletionTimestamp == nil
}

// foregroundDeletion is the garbage collector's finalizer of an object
// deleted with propagationPolicy Foreground: it stays until its
// dependents are gone.
const foregroundDeletion = "foregroundDeletion"

// waitDeleted waits until the Job name is deleted in the foreground: gone,
// or being deleted and held by the foregroundDeletion finalizer for a
// garbage collector (none runs in these tests). It returns the Job while
// it is held, else nil.
func (e *env) waitDeleted(name string) *batchv1.Job {
	e.t.Helper()
	return e.waitJob(name, "deleted in the foreground", func(j *batchv1.Job) bool {
		return j == nil || j.DeletionTimestamp != nil && slices.Contains(j.Finalizers, foregroundDeletion)
	})
}

// waitGone waits until the Job name is deleted in the foreground and,
// as the garbage collector would once the Job's pods are gone, removes
// its finalizers; then it waits until the Job is gone.
func (e *env) waitGone(name string) {
	e.t.Helper()
	if j := e.waitDeleted(name); j != nil {
		_, err := e.cs.Jobs(ns).Patch(e.t.Context(), name, client.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), client.WriteOptions{})
		require.NoError(e.t, err, "remove the finalizers of job %s", name)
	}
	e.waitJob(name, "gone", func(j *batchv1.Job) bool { return j == nil })
}

// waitJob waits until cond holds for the Job name, nil once it is gone,
// and returns it.
func (e *env) waitJob(name, what string, cond func(*batchv1.Job) bool) *batchv1.Job {
	e.t.Helper()
	var got *batchv1.Job
	clustertest.WaitFor(e.t, e.cs.Jobs(ns), name, what, func(j *batchv1.Job, found bool) bool {
		got = j
		if !found {
			got = nil
		}
		return cond(got)
	})
	return got
}

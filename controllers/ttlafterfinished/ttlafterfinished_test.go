package ttlafterfinished_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/ttlafterfinished"
)

// newAPIEnv is an API server alone and a Manager running only the
// TTL-after-finished controller on a fake clock; the tests write the
// Jobs' status themselves, as the job controller would.
func newAPIEnv(t *testing.T) *env {
	t.Helper()
	cl := clustertest.InMemoryClient(t, apiservertest.New(t))
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	clk := clocktest.NewFake(epoch)
	return &env{t: t, clk: clk, cs: cs, mgr: clustertest.StartManager(t, cl, clk, ttlafterfinished.Add)}
}

// createFinished creates the Job name with ttl and marks it finished
// (condition cType True) at finishedAt.
func (e *env) createFinished(name string, ttl *int32, cType batchv1.JobConditionType, finishedAt time.Time) {
	e.t.Helper()
	j, err := e.cs.Jobs(ns).Create(e.t.Context(), newJob(name, "exit 0", ttl), client.WriteOptions{})
	require.NoError(e.t, err, "create job %s", name)
	if cType == "" {
		return
	}
	at := metav1.NewTime(finishedAt)
	j.Status.StartTime = &at
	j.Status.Conditions = []batchv1.JobCondition{{Type: cType, Status: corev1.ConditionTrue, LastTransitionTime: at, LastProbeTime: at}}
	if cType == batchv1.JobComplete {
		j.Status.CompletionTime = &at
	}
	_, err = e.cs.Jobs(ns).UpdateStatus(e.t.Context(), j, client.WriteOptions{})
	require.NoError(e.t, err, "finish job %s", name)
}

// TestDeletedWhenTTLExpires: a Job that completed or failed is deleted
// ttlSecondsAfterFinished after it finished, on the manager's clock, and
// not a second before.
func TestDeletedWhenTTLExpires(t *testing.T) {
	for _, cType := range []batchv1.JobConditionType{batchv1.JobComplete, batchv1.JobFailed} {
		t.Run(string(cType), func(t *testing.T) {
			e := newAPIEnv(t)
			e.createFinished("done", ptrTo(int32(30)), cType, epoch)
			e.waitIdle()
			e.clk.Step(29 * time.Second)
			e.waitIdle()
			assert.True(t, e.kept("done"), "kept until the TTL expires")

			e.clk.Step(time.Second)
			e.waitDeleted("done")
		})
	}
}

// TestDeletedAtOnceWhenTTLExpiredAlready: a Job that finished longer ago
// than its TTL (a controller that was down, a TTL of 0) goes at once.
func TestDeletedAtOnceWhenTTLExpiredAlready(t *testing.T) {
	e := newAPIEnv(t)
	e.createFinished("old", ptrTo(int32(60)), batchv1.JobComplete, epoch.Add(-time.Hour))
	e.createFinished("zero", ptrTo(int32(0)), batchv1.JobFailed, epoch)
	e.waitDeleted("old")
	e.waitDeleted("zero")
}

// TestKept: a Job without a TTL, one still running, and one whose
// finished condition is False are never deleted.
func TestKept(t *testing.T) {
	e := newAPIEnv(t)
	e.createFinished("no-ttl", nil, batchv1.JobComplete, epoch)
	e.createFinished("running", ptrTo(int32(10)), "", epoch)
	e.createFinished("interim", ptrTo(int32(10)), batchv1.JobFailureTarget, epoch)
	e.waitIdle()
	e.clk.Step(24 * time.Hour)
	e.waitIdle()
	for _, name := range []string{"no-ttl", "running", "interim"} {
		assert.True(t, e.kept(name), "job %s kept", name)
	}
}

// TestTTLChangedBeforeExpiry: the TTL is read again before deleting, so a
// TTL raised after the Job finished holds, and the Job goes at the new
// time.
func TestTTLChangedBeforeExpiry(t *testing.T) {
	e := newAPIEnv(t)
	e.createFinished("extended", ptrTo(int32(30)), batchv1.JobComplete, epoch)
	e.waitIdle()
	e.clk.Step(10 * time.Second)
	_, err := e.cs.Jobs(ns).Patch(t.Context(), "extended", client.MergePatchType,
		[]byte(`{"spec":{"ttlSecondsAfterFinished":100}}`), client.WriteOptions{})
	require.NoError(t, err, "raise the TTL")
	e.waitJob("extended", "TTL raised", func(j *batchv1.Job) bool { return *j.Spec.TTLSecondsAfterFinished == 100 })
	e.waitIdle()

	e.clk.Step(20 * time.Second) // the old TTL expires
	e.waitIdle()
	assert.True(t, e.kept("extended"), "kept past the old TTL")
	e.clk.Step(69 * time.Second)
	e.waitIdle()
	assert.True(t, e.kept("extended"), "kept until the new TTL expires")
	e.clk.Step(time.Second)
	e.waitDeleted("extended")
}

// TestRecreatedJobNotDeleted: a Job recreated under the name of one the
// TTL deleted starts afresh: not finished, it stays.
func TestRecreatedJobNotDeleted(t *testing.T) {
	e := newAPIEnv(t)
	e.createFinished("again", ptrTo(int32(5)), batchv1.JobComplete, epoch)
	e.clk.Step(5 * time.Second)
	e.waitGone("again")
	e.createFinished("again", ptrTo(int32(5)), "", epoch)
	e.waitIdle()
	e.clk.Step(time.Minute)
	e.waitIdle()
	assert.True(t, e.kept("again"), "the new Job has not finished")
}

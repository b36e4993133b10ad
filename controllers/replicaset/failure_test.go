package replicaset_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
)

// podQuota is a validating admission plugin that admits at most limit pod
// creations and refuses the others as ResourceQuota does: 403 Forbidden,
// "exceeded quota". minicp has no ResourceQuota admission; this is its
// refusal, which is all the controller sees.
type podQuota struct {
	mu    sync.Mutex
	used  int
	limit int
}

var _ admission.ValidationInterface = (*podQuota)(nil)

func (*podQuota) Name() string                        { return "PodQuota" }
func (*podQuota) Handles(op admission.Operation) bool { return op == admission.Create }

func (q *podQuota) Validate(_ context.Context, a *admission.Attributes) error {
	if a.Resource.Resource != "pods" || a.Subresource != "" {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.used >= q.limit {
		return apierrors.NewForbidden(runtime.GroupResource{Resource: "pods"}, a.Name,
			fmt.Errorf("exceeded quota: pods, requested: pods=1, used: pods=%d, limited: pods=%d", q.used, q.limit))
	}
	q.used++
	return nil
}

func (q *podQuota) setLimit(n int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.limit = n
}

// replicaFailure returns rs's ReplicaFailure condition, or nil.
func replicaFailure(rs *appsv1.ReplicaSet) *appsv1.ReplicaSetCondition {
	for i := range rs.Status.Conditions {
		if rs.Status.Conditions[i].Type == appsv1.ReplicaSetReplicaFailure {
			return &rs.Status.Conditions[i]
		}
	}
	return nil
}

// TestReplicaFailureConditionWhileCreatesAreRefused: creates refused by a
// quota leave the ReplicaSet short, with a ReplicaFailure condition and a
// FailedCreate event saying why; once the quota allows them, the retry
// creates the rest and the condition goes.
func TestReplicaFailureConditionWhileCreatesAreRefused(t *testing.T) {
	quota := &podQuota{limit: 4}
	clk := clocktest.NewFake(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	e := newAPIEnv(t, clk, func(o *apiserver.Options) {
		o.Admission = admission.Chain{&admission.Defaulting{SetDefaults: apiserver.SetDefaults}, quota}
	})
	rs := createRS(t, e.cs, newReplicaSet("web", 10))

	// Four pods counted and the condition set: a sync that found every
	// creation observed tried again and was refused.
	got := waitForRS(t, e.cs, "web", "ReplicaFailure with the quota's pods", func(rs *appsv1.ReplicaSet) bool {
		return statusIs(4)(rs) && replicaFailure(rs) != nil
	})
	cond := replicaFailure(got)
	assert.Equal(t, corev1.ConditionTrue, cond.Status)
	assert.Equal(t, "FailedCreate", cond.Reason)
	assert.Contains(t, cond.Message, "exceeded quota")
	assert.Equal(t, clk.Now(), cond.LastTransitionTime.Time.UTC(), "on the manager's clock")
	pods := listPods(t, e.cs)
	assert.Len(t, ownedBy(rs, pods), 4, "%s", describePods(pods))
	ev := waitForEvent(t, e.cs, "FailedCreate")
	assert.Equal(t, corev1.EventTypeWarning, ev.Type)
	assert.Contains(t, ev.Message, "Error creating: ")
	assert.Contains(t, ev.Message, "exceeded quota")

	// The retry waits on the fake clock: let every event be handled, then
	// raise the quota and let the backoff pass.
	waitCached(t, e.mgr, got, false)
	clustertest.WaitIdle(t, e.mgr)
	quota.setLimit(100)
	clk.Step(time.Hour)
	got = waitForRS(t, e.cs, "web", "ten replicas and no ReplicaFailure", func(rs *appsv1.ReplicaSet) bool {
		return statusIs(10)(rs) && replicaFailure(rs) == nil
	})
	assert.Empty(t, got.Status.Conditions)
}

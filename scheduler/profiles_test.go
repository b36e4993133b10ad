package scheduler_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/scheduler"
	"github.com/minicp/minicp/scheduler/config"
)

// TestProfiles: each profile answers the pods that name it in
// spec.schedulerName and signs their events; pods naming no profile are
// another scheduler's and are left alone.
func TestProfiles(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	cs := newClientset(t, apiservertest.New(t))
	createNode(t, cs, makeNode("n", rl{"cpu": "4", "memory": "8Gi", "pods": "110"}).Obj())
	cfg := &config.KubeSchedulerConfiguration{Profiles: []config.KubeSchedulerProfile{
		{SchedulerName: "default-scheduler"},
		{SchedulerName: "batch-scheduler", Plugins: config.Plugins{
			Score: config.PluginSet{Disabled: []config.Plugin{{Name: "*"}}},
		}},
	}}
	s := startScheduler(t, cs, scheduler.Options{Clock: newFakeClock(), Config: cfg})

	createPod(t, cs, makePod("default", rl{"cpu": "100m"}).Obj())
	batch := makePod("batch", rl{"cpu": "100m"}).Obj()
	batch.Spec.SchedulerName = "batch-scheduler"
	createPod(t, cs, batch)
	other := makePod("other", rl{"cpu": "100m"}).Obj()
	other.Spec.SchedulerName = "someone-else"
	createPod(t, cs, other)

	waitForPods(t, cs, "default", bound("default", "batch"))
	assert.Equal(t, "batch-scheduler", clustertest.WaitForEvent(t, cs, "default", eventFor("batch", "Scheduled")).Source.Component)
	assert.Equal(t, "default-scheduler", clustertest.WaitForEvent(t, cs, "default", eventFor("default", "Scheduled")).Source.Component)

	clustertest.WaitIdle(t, s)
	p, err := cs.Pods("default").Get(t.Context(), "other", client.GetOptions{})
	if assert.NoError(t, err) {
		assert.Empty(t, p.Spec.NodeName, "not ours to schedule")
		assert.Empty(t, p.Status.Conditions, "not ours to report on")
	}
}

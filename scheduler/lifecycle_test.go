package scheduler_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/scheduler"
	"github.com/minicp/minicp/scheduler/config"
)

func TestNewValidates(t *testing.T) {
	cs := newClientset(t, apiservertest.New(t))
	unknownPlugin := config.Default()
	unknownPlugin.Profiles[0].Plugins.Filter.Enabled = append(unknownPlugin.Profiles[0].Plugins.Filter.Enabled,
		config.Plugin{Name: "NoSuchPlugin"})
	twoProfiles := &config.KubeSchedulerConfiguration{Profiles: []config.KubeSchedulerProfile{
		{SchedulerName: "a"}, {SchedulerName: "a"},
	}}
	tests := []struct {
		name string
		opts scheduler.Options
		want string
	}{
		{name: "no clientset", opts: scheduler.Options{}, want: "Clientset is required"},
		{name: "unknown plugin", opts: scheduler.Options{Clientset: cs, Config: unknownPlugin}, want: `"NoSuchPlugin" does not exist`},
		{name: "duplicate profile", opts: scheduler.Options{Clientset: cs, Config: twoProfiles}, want: "invalid configuration"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scheduler.New(tc.opts)
			require.Error(t, err, "New(%s)", tc.name)
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	// The caller's configuration is defaulted on a copy.
	bare := &config.KubeSchedulerConfiguration{}
	_, err := scheduler.New(scheduler.Options{Clientset: cs, Config: bare})
	require.NoError(t, err, "New with a bare configuration")
	assert.Empty(t, bare.Profiles, "the caller's configuration is not changed")
}

// TestStartStopsCleanly: Start fails a second time, and returns once its
// ctx ends even with a binding in flight, leaving no goroutine behind
// (TestMain checks).
func TestStartStopsCleanly(t *testing.T) {
	arrived := make(chan struct{}, 1)
	cs := newClientset(t, apiservertest.New(t), interceptBindings(func(req *http.Request, _ string) *http.Response {
		arrived <- struct{}{}
		<-req.Context().Done() // a binding that never answers
		return nil
	}))
	createNode(t, cs, makeNode("n", rl{"cpu": "1", "memory": "1Gi", "pods": "110"}).Obj())
	s, err := scheduler.New(scheduler.Options{Clientset: cs, Clock: newFakeClock()})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	errCh := make(chan error, 1)
	go func() { errCh <- s.Start(ctx) }()
	clustertest.Receive(t, s.Ready(), "readiness")
	assert.ErrorContains(t, s.Start(ctx), "already started")

	createPod(t, cs, makePod("stuck", rl{"cpu": "100m"}).Obj())
	clustertest.Receive(t, arrived, "binding")
	assert.False(t, s.Idle(), "a binding in flight is work")
	cancel()
	assert.NoError(t, clustertest.Receive(t, errCh, "return from Start"), "Start after ctx ended")
}

// TestWaitIdle: WaitIdle returns once nothing is in flight, waits while a
// binding is, and gives up with its ctx.
func TestWaitIdle(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 1)
	cs := newClientset(t, apiservertest.New(t), interceptBindings(func(req *http.Request, _ string) *http.Response {
		arrived <- struct{}{}
		select {
		case <-release:
		case <-req.Context().Done():
		}
		return nil
	}))
	s, err := scheduler.New(scheduler.Options{Clientset: cs, Clock: newFakeClock()})
	require.NoError(t, err)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	assert.ErrorIs(t, s.WaitIdle(cancelled), context.Canceled, "not started: never idle")
	assert.False(t, s.Idle(), "not ready")

	createNode(t, cs, makeNode("n", rl{"cpu": "1", "memory": "1Gi", "pods": "110"}).Obj())
	s = startScheduler(t, cs, scheduler.Options{Clock: newFakeClock()})
	clustertest.WaitIdle(t, s)
	createPod(t, cs, makePod("slow", rl{"cpu": "100m"}).Obj())
	clustertest.Receive(t, arrived, "binding")
	assert.False(t, s.Idle(), "a binding in flight is work")
	idleCh := make(chan error, 1)
	go func() {
		ctx, cancel := clustertest.WaitContext(t)
		defer cancel()
		idleCh <- s.WaitIdle(ctx)
	}()
	close(release)
	require.NoError(t, <-idleCh, "WaitIdle once the binding is done")
	p, err := cs.Pods("default").Get(t.Context(), "slow", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "n", p.Spec.NodeName, "bound by the time the scheduler is idle")
}

// TestWaitForNodes: WaitForNodes returns once the scheduler's cache holds
// every named node, including one created after it was called, and gives
// up with its ctx.
func TestWaitForNodes(t *testing.T) {
	cs := newClientset(t, apiservertest.New(t))
	createNode(t, cs, makeNode("a", rl{"cpu": "1", "memory": "1Gi", "pods": "110"}).Obj())
	s := startScheduler(t, cs, scheduler.Options{Clock: newFakeClock()})

	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, s.WaitForNodes(ctx, "a"), "a node known at start")

	done := make(chan error, 1)
	go func() { done <- s.WaitForNodes(ctx, "a", "b") }()
	createNode(t, cs, makeNode("b", rl{"cpu": "1", "memory": "1Gi", "pods": "110"}).Obj())
	require.NoError(t, clustertest.Receive(t, done, "WaitForNodes to see b"))

	short, cancelShort := context.WithCancel(t.Context())
	cancelShort()
	assert.ErrorIs(t, s.WaitForNodes(short, "c"), context.Canceled, "c never comes")
}

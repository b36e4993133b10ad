package manager_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
)

// standalone is a RunnableFunc that runs on every manager, elected or not.
type standalone struct{ manager.RunnableFunc }

func (standalone) NeedLeaderElection() bool { return false }

func TestWaitIdle(t *testing.T) {
	c := newClient(t)
	cs := newClientset(t, c)
	clk := clocktest.NewFake(t0)
	mgr, err := manager.New(manager.Options{Client: c, Clock: clk})
	require.NoError(t, err)
	// Each pod is reconciled now and once more a minute later.
	calls := map[string]int{}
	done := make(chan string, 100)
	require.NoError(t, builder.ControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(
		reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			done <- req.Name
			if req.Name == "pod-0" {
				// Only one worker: calls is not shared.
				calls[req.Name]++
				if calls[req.Name] == 1 {
					return reconcile.Result{RequeueAfter: time.Minute}, nil
				}
			}
			return reconcile.Result{}, nil
		})))
	for i := range 5 {
		createPod(t, cs, fmt.Sprintf("pod-%d", i))
	}
	assert.False(t, mgr.Idle(), "not idle before Start")
	ctx, cancel := context.WithCancel(t.Context())
	errCh := make(chan error, 1)
	go func() { errCh <- mgr.Start(ctx) }()

	// The pods existed before Start: the initial list is part of what
	// WaitIdle waits for.
	clustertest.WaitIdle(t, mgr)
	assert.Len(t, done, 5, "every pod reconciled before WaitIdle returned")
	assert.True(t, mgr.Idle())

	// A RequeueAfter not yet due is not work; once due, it is.
	clk.Step(time.Minute)
	clustertest.WaitIdle(t, mgr)
	assert.Len(t, done, 6, "the due requeue ran before WaitIdle returned")

	cancel()
	require.NoError(t, <-errCh)
	assert.True(t, mgr.Idle(), "a stopped manager is idle")

	waitCtx, waitCancel := context.WithCancel(t.Context())
	waitCancel()
	unstarted, err := manager.New(manager.Options{Client: c})
	require.NoError(t, err)
	assert.ErrorIs(t, unstarted.WaitIdle(waitCtx), context.Canceled, "WaitIdle ends with its ctx")
}

func TestWaitIdleWaitsForEventsInTheInformer(t *testing.T) {
	c := newClient(t)
	cs := newClientset(t, c)
	mgr, err := manager.New(manager.Options{Client: c})
	require.NoError(t, err)
	// The handler of pod "slow" is held mid-call: the informer has the pod,
	// the controller's queue does not yet.
	enteredCh, releaseCh := make(chan struct{}), make(chan struct{})
	reconciled := make(chan string, 10)
	require.NoError(t, builder.ControllerManagedBy(mgr).
		Named("gated").
		Watches(&corev1.Pod{}, handler.Funcs{CreateFunc: func(_ context.Context, ev event.CreateEvent, q handler.Queue) {
			if ev.Object.GetObjectMeta().Name == "slow" {
				close(enteredCh)
				<-releaseCh
			}
			q.Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{
				Namespace: ev.Object.GetObjectMeta().Namespace, Name: ev.Object.GetObjectMeta().Name}})
		}}).
		Complete(reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			reconciled <- req.Name
			return reconcile.Result{}, nil
		})))
	ctx, cancel := context.WithCancel(t.Context())
	errCh := make(chan error, 1)
	go func() { errCh <- mgr.Start(ctx) }()
	clustertest.WaitIdle(t, mgr)

	createPod(t, cs, "slow")
	waitCtx, waitCancel := clustertest.WaitContext(t)
	defer waitCancel()
	select {
	case <-enteredCh:
	case <-waitCtx.Done():
		t.Fatal("the handler was not called")
	}
	assert.False(t, mgr.Idle(), "an event the informer holds but the handler has not handed on is work")
	idleCh := make(chan error, 1)
	go func() { idleCh <- mgr.WaitIdle(waitCtx) }()
	close(releaseCh)
	require.NoError(t, <-idleCh)
	select {
	case name := <-reconciled:
		assert.Equal(t, "slow", name)
	default:
		t.Fatal("WaitIdle returned before the reconcile")
	}

	cancel()
	require.NoError(t, <-errCh)
}

func TestRunnables(t *testing.T) {
	c := newClient(t)
	mgr, err := manager.New(manager.Options{Client: c})
	require.NoError(t, err)
	before, leader := newSignal(), newSignal()
	require.NoError(t, mgr.Add(standalone{func(ctx context.Context) error {
		before.fire()
		<-ctx.Done()
		return nil
	}}))
	require.NoError(t, mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		leader.fire()
		<-ctx.Done()
		return nil
	})))
	ctx, cancel := context.WithCancel(t.Context())
	errCh := make(chan error, 1)
	go func() { errCh <- mgr.Start(ctx) }()
	before.wait(t, "a runnable added before Start starts")
	leader.wait(t, "without leader election, leader runnables start at once")

	late := newSignal()
	require.NoError(t, mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		late.fire()
		<-ctx.Done()
		return nil
	})))
	late.wait(t, "a runnable added after Start starts at once")
	assert.Error(t, mgr.Start(ctx), "a second Start fails")

	cancel()
	require.NoError(t, <-errCh)
	assert.Error(t, mgr.Add(manager.RunnableFunc(func(context.Context) error { return nil })), "no Add once stopped")
}

func TestFailingRunnableStopsTheManager(t *testing.T) {
	c := newClient(t)
	mgr, err := manager.New(manager.Options{Client: c})
	require.NoError(t, err)
	boom := errors.New("boom")
	other := newSignal()
	require.NoError(t, mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		<-ctx.Done()
		other.fire()
		return nil
	})))
	require.NoError(t, mgr.Add(standalone{func(context.Context) error { return boom }}))
	err = mgr.Start(t.Context())
	assert.ErrorIs(t, err, boom, "Start returns the runnable's error")
	other.wait(t, "the other runnables were stopped")
}

func TestHealthProbes(t *testing.T) {
	c := newClient(t)
	in := newInstance(t, c, "a")
	b := newInstance(t, c, "b")
	probe := func(mgr *manager.Manager, path string) (int, string) {
		w := httptest.NewRecorder()
		mgr.HealthProbeHandler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, path+"?verbose", nil))
		return w.Code, w.Body.String()
	}
	code, body := probe(in.Manager, "/readyz")
	assert.Equal(t, http.StatusInternalServerError, code, "not ready before Start: %s", body)
	assert.Contains(t, body, "[-]informers failed: not started")
	code, _ = probe(in.Manager, "/healthz")
	assert.Equal(t, http.StatusOK, code, "alive before Start")

	in.start(t)
	in.waitElected(t)
	clustertest.WaitIdle(t, in.Manager)
	b.start(t)
	b.waitCampaigning(t)
	for _, mgr := range []*manager.Manager{in.Manager, b.Manager} {
		clustertest.WaitIdle(t, mgr)
		code, body = probe(mgr, "/readyz")
		assert.Equal(t, http.StatusOK, code, "ready once synced, leader or standby: %s", body)
		code, body = probe(mgr, "/healthz")
		assert.Equal(t, http.StatusOK, code, "healthy, leader or standby: %s", body)
		assert.Contains(t, body, "[+]leaderElection ok")
	}

	require.NoError(t, in.AddReadyzCheck("custom", func(*http.Request) error { return errors.New("not today") }))
	assert.Error(t, in.AddReadyzCheck("custom", func(*http.Request) error { return nil }), "names are unique")
	code, body = probe(in.Manager, "/readyz")
	assert.Equal(t, http.StatusInternalServerError, code)
	assert.Contains(t, body, "[-]custom failed: not today")
	require.NoError(t, in.AddHealthzCheck("custom", func(*http.Request) error { return nil }))
}

func TestHealthProbeBindAddress(t *testing.T) {
	c := newClient(t)
	// An address in use: Start fails at once.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	mgr, err := manager.New(manager.Options{Client: c, HealthProbeBindAddress: ln.Addr().String()})
	require.NoError(t, err)
	assert.Error(t, mgr.Start(t.Context()), "the probe address is taken")

	// A free one is served until Start returns.
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	mgr, err = manager.New(manager.Options{Client: c, HealthProbeBindAddress: addr})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	errCh := make(chan error, 1)
	go func() { errCh <- mgr.Start(ctx) }()
	clustertest.WaitIdle(t, mgr)
	httpClient := &http.Client{Transport: &http.Transport{}}
	resp, err := httpClient.Get("http://" + addr + "/readyz")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	httpClient.CloseIdleConnections()
	cancel()
	require.NoError(t, <-errCh)
}

func TestEventRecorder(t *testing.T) {
	c := newClient(t)
	cs := newClientset(t, c)
	mgr, err := manager.New(manager.Options{Client: c})
	require.NoError(t, err)
	rec := mgr.GetEventRecorderFor("labeler")
	assert.Same(t, rec, mgr.GetEventRecorderFor("labeler"), "one recorder per component")

	w, err := cs.Events("default").Watch(t.Context(), client.ListOptions{})
	require.NoError(t, err)
	defer w.Stop()
	ctx, cancel := context.WithCancel(t.Context())
	errCh := make(chan error, 1)
	go func() { errCh <- mgr.Start(ctx) }()
	pod := &corev1.Pod{}
	pod.Namespace, pod.Name, pod.Kind, pod.APIVersion = "default", "web", "Pod", "v1"
	rec.Event(pod, corev1.EventTypeNormal, "Labelled", "labelled web")

	waitCtx, waitCancel := clustertest.WaitContext(t)
	defer waitCancel()
	select {
	case ev := <-w.ResultChan():
		require.Equal(t, watch.Added, ev.Type)
		e := ev.Object.(*corev1.Event)
		assert.Equal(t, "Labelled", e.Reason)
		assert.Equal(t, "labeler", e.Source.Component)
	case <-waitCtx.Done():
		t.Fatal("event not written")
	}
	cancel()
	require.NoError(t, <-errCh)
}

func TestNewValidates(t *testing.T) {
	c := newClient(t)
	tests := []struct {
		name string
		opts manager.Options
	}{
		{name: "no client", opts: manager.Options{}},
		{name: "leader election without an ID", opts: manager.Options{Client: c, LeaderElection: true}},
		{name: "bad lease timing", opts: manager.Options{Client: c, LeaderElection: true, LeaderElectionID: leaseID,
			LeaseDuration: 5 * time.Second, RenewDeadline: 10 * time.Second}},
		{name: "negative sync period", opts: manager.Options{Client: c, SyncPeriod: -time.Second}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := manager.New(tc.opts)
			assert.Error(t, err, "New(%+v)", tc.opts)
		})
	}
}

package manager_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
)

const leaseID = "minicp-controller-manager"

// t0 is when every fake clock starts.
var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// newClient starts an API server on a fresh etcd prefix and returns a
// client that reaches it in memory.
func newClient(t *testing.T) *client.Client {
	t.Helper()
	return clustertest.InMemoryClient(t, apiservertest.New(t))
}

func newClientset(t *testing.T, c *client.Client) *client.Clientset {
	t.Helper()
	cs, err := client.NewClientset(c)
	require.NoError(t, err)
	return cs
}

// instance is a Manager running on its own fake clock, with a controller
// For pods that reports what it reconciles.
type instance struct {
	*manager.Manager
	clock      *clocktest.Fake
	reconciled chan reconcile.Request
	cancel     context.CancelFunc
	errCh      chan error
}

// newInstance makes a Manager with leader election on leaseID, named
// identity, and its pod controller. It is not started.
func newInstance(t *testing.T, c *client.Client, identity string, mutate ...func(*manager.Options)) *instance {
	t.Helper()
	clk := clocktest.NewFake(t0)
	opts := manager.Options{
		Client: c, Clock: clk,
		LeaderElection: true, LeaderElectionID: leaseID, LeaderElectionIdentity: identity,
	}
	for _, m := range mutate {
		m(&opts)
	}
	mgr, err := manager.New(opts)
	require.NoError(t, err, "manager.New(%s)", identity)
	in := &instance{Manager: mgr, clock: clk, reconciled: make(chan reconcile.Request, 100), errCh: make(chan error, 1)}
	require.NoError(t, builder.ControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(
		reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
			in.reconciled <- req
			return reconcile.Result{}, nil
		})))
	return in
}

// start runs the instance until the test ends (or stop).
func (in *instance) start(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	in.cancel = cancel
	go func() { in.errCh <- in.Start(ctx) }()
	t.Cleanup(func() { in.stop(t) })
}

// stop cancels the instance and returns what Start returned (the same on
// every call).
func (in *instance) stop(t *testing.T) error {
	t.Helper()
	in.cancel()
	return in.result(t)
}

// result waits for Start to return, without stopping the instance.
func (in *instance) result(t *testing.T) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), clustertest.WaitTimeout)
	defer cancel()
	select {
	case err := <-in.errCh:
		in.errCh <- err
		return err
	case <-ctx.Done():
		t.Fatalf("manager did not stop within %v", clustertest.WaitTimeout)
		return nil
	}
}

func (in *instance) waitElected(t *testing.T) {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case <-in.Elected():
	case <-ctx.Done():
		t.Fatalf("not elected within %v", clustertest.WaitTimeout)
	}
}

func (in *instance) elected() bool {
	select {
	case <-in.Elected():
		return true
	default:
		return false
	}
}

// waitCampaigning blocks until the instance waits on its clock: a standby
// has made an attempt and armed its next one.
func (in *instance) waitCampaigning(t *testing.T) {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, in.clock.BlockUntilWaiters(ctx, 1), "the standby waits for its next attempt")
}

// waitReconciled waits until the instance's controller reconciled want.
func (in *instance) waitReconciled(t *testing.T, want reconcile.Request) {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	for {
		select {
		case got := <-in.reconciled:
			if got == want {
				return
			}
		case <-ctx.Done():
			t.Fatalf("%s not reconciled within %v", want, clustertest.WaitTimeout)
		}
	}
}

func req(ns, name string) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: name}}
}

func createPod(t *testing.T, cs *client.Clientset, name string) {
	t.Helper()
	_, err := cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}, client.WriteOptions{})
	require.NoError(t, err, "create pod %s", name)
}

// signal is a channel closed once, safely from many goroutines.
type signal struct {
	once sync.Once
	ch   chan struct{}
}

func newSignal() *signal { return &signal{ch: make(chan struct{})} }

func (s *signal) fire() { s.once.Do(func() { close(s.ch) }) }

func (s *signal) wait(t *testing.T, what string) {
	t.Helper()
	clustertest.Receive(t, s.ch, what)
}

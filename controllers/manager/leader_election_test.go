package manager_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/leaderelection"
	"github.com/minicp/minicp/controllers/manager"
)

func TestOnlyTheLeaderRunsItsControllers(t *testing.T) {
	c := newClient(t)
	cs := newClientset(t, c)
	a := newInstance(t, c, "a")
	a.start(t)
	a.waitElected(t)
	b := newInstance(t, c, "b")
	b.start(t)
	b.waitCampaigning(t)

	createPod(t, cs, "web")
	a.waitReconciled(t, req("default", "web"))
	clustertest.WaitIdle(t, a.Manager)
	clustertest.WaitIdle(t, b.Manager)
	assert.False(t, b.elected(), "b is a standby")
	assert.Empty(t, b.reconciled, "a standby reconciles nothing")
	assert.True(t, b.Idle(), "a standby with synced caches is idle")

	// a stops cleanly and releases the Lease: b takes over at its next
	// attempt, long before the Lease would have expired.
	require.NoError(t, a.stop(t))
	lease, err := cs.Leases(manager.DefaultLeaderElectionNamespace).Get(t.Context(), leaseID, client.GetOptions{})
	require.NoError(t, err)
	assert.Empty(t, *lease.Spec.HolderIdentity, "released on a clean stop")

	b.clock.Step(5 * time.Second) // one jittered RetryPeriod
	b.waitElected(t)
	b.waitReconciled(t, req("default", "web"))
	lease, err = cs.Leases(manager.DefaultLeaderElectionNamespace).Get(t.Context(), leaseID, client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "b", *lease.Spec.HolderIdentity)
	assert.Equal(t, int32(1), *lease.Spec.LeaseTransitions)
}

func TestCrashedLeaderIsTakenOverAfterTheLeaseExpires(t *testing.T) {
	c := newClient(t)
	cs := newClientset(t, c)
	noRelease := func(o *manager.Options) { o.LeaderElectionReleaseOnCancel = new(false) }
	a := newInstance(t, c, "a", noRelease)
	a.start(t)
	a.waitElected(t)
	b := newInstance(t, c, "b", noRelease)
	b.start(t)
	b.waitCampaigning(t)
	createPod(t, cs, "web")
	a.waitReconciled(t, req("default", "web"))

	// a "crashes": it stops without releasing, and the Lease still names
	// it, renewed at t0 for 15s.
	require.NoError(t, a.stop(t))
	b.clock.Step(5 * time.Second)
	b.waitCampaigning(t)
	assert.False(t, b.elected(), "the Lease has not expired at t0+5s")
	assert.Empty(t, b.reconciled)

	b.clock.Step(11 * time.Second) // t0+16s: expired
	b.waitElected(t)
	b.waitReconciled(t, req("default", "web"))
}

func TestLostLeaseStopsTheManager(t *testing.T) {
	c := newClient(t)
	cs := newClientset(t, c)
	clk := clocktest.NewFake(t0)
	mgr, err := manager.New(manager.Options{
		Client: c, Clock: clk, LeaderElection: true, LeaderElectionID: leaseID, LeaderElectionIdentity: "a",
	})
	require.NoError(t, err)
	// A leader runnable that records its start and stop. With no
	// controller there is no informer, so the elector's timer is the
	// clock's only waiter.
	running, stopped := newSignal(), newSignal()
	require.NoError(t, mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		running.fire()
		<-ctx.Done()
		stopped.fire()
		return nil
	})))
	errCh := make(chan error, 1)
	go func() { errCh <- mgr.Start(t.Context()) }()
	running.wait(t, "the leader runnable starts once elected")

	// Another party takes the Lease (renewed at t0, valid until t0+15s):
	// every renewal now conflicts or finds it held. The renewal round
	// that starts at t0+2s retries every 2s and gives up at t0+12s.
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, clk.BlockUntilWaiters(ctx, 1))
	stealLease(t, cs, t0)
	for range 6 {
		require.NoError(t, clk.BlockUntilWaiters(ctx, 1), "the elector waits to retry")
		clk.Step(2 * time.Second)
	}
	select {
	case err := <-errCh:
		assert.ErrorIs(t, err, leaderelection.ErrLeaseLost, "Start returns the loss, as upstream")
	case <-ctx.Done():
		t.Fatal("the manager did not stop after losing its Lease")
	}
	stopped.wait(t, "the leader runnables stopped")
}

// stealLease makes "intruder" the holder of the Lease, renewed at
// renewTime.
func stealLease(t *testing.T, cs *client.Clientset, renewTime time.Time) {
	t.Helper()
	leases := cs.Leases(manager.DefaultLeaderElectionNamespace)
	lease, err := leases.Get(t.Context(), leaseID, client.GetOptions{})
	require.NoError(t, err)
	lease.Spec.HolderIdentity = new("intruder")
	lease.Spec.RenewTime = new(metav1.NewMicroTime(renewTime))
	_, err = leases.Update(t.Context(), lease, client.WriteOptions{})
	require.NoError(t, err)
}

package leaderelection_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/leaderelection"
)

const leaseName = "minicp-controller-manager"

// t0 is when every test's fake clocks start.
var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// newLeases starts an API server on a fresh etcd prefix and returns the
// leases client of kube-system over the in-memory transport.
func newLeases(t *testing.T) *client.LeaseClient {
	t.Helper()
	return clustertest.InMemoryClientset(t, apiservertest.New(t)).Leases("kube-system")
}

// candidate is an elector running on its own fake clock, so a test steps
// one candidate's time without touching the other's.
type candidate struct {
	*leaderelection.LeaderElector
	clock  *clocktest.Fake
	cancel context.CancelFunc
	errCh  chan error
}

func startCandidate(t *testing.T, leases leaderelection.LeaseClient, identity string, mutate ...func(*leaderelection.Options)) *candidate {
	t.Helper()
	clk := clocktest.NewFake(t0)
	opts := leaderelection.Options{Leases: leases, Name: leaseName, Identity: identity, Clock: clk}
	for _, m := range mutate {
		m(&opts)
	}
	le, err := leaderelection.New(opts)
	require.NoError(t, err, "New(%s)", identity)
	ctx, cancel := context.WithCancel(context.WithoutCancel(t.Context()))
	c := &candidate{LeaderElector: le, clock: clk, cancel: cancel, errCh: make(chan error, 1)}
	go func() { c.errCh <- le.Start(ctx) }()
	t.Cleanup(func() { c.stop(t) })
	return c
}

// stop cancels the candidate and returns what Start returned; again, it
// returns the same.
func (c *candidate) stop(t *testing.T) error {
	t.Helper()
	c.cancel()
	// Cleanup calls stop after t.Context() is done.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), clustertest.WaitTimeout)
	defer cancel()
	select {
	case err := <-c.errCh:
		c.errCh <- err
		return err
	case <-ctx.Done():
		t.Fatalf("elector did not stop within %v", clustertest.WaitTimeout)
		return nil
	}
}

func (c *candidate) waitElected(t *testing.T) {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case <-c.Elected():
	case <-ctx.Done():
		t.Fatalf("not elected within %v", clustertest.WaitTimeout)
	}
}

// waitRetrying blocks until the candidate waits on its clock: it made its
// attempt and armed its next retry.
func (c *candidate) waitRetrying(t *testing.T) {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, c.clock.BlockUntilWaiters(ctx, 1), "the candidate waits for its next attempt")
}

func elected(c *candidate) bool {
	select {
	case <-c.Elected():
		return true
	default:
		return false
	}
}

func getLease(t *testing.T, leases *client.LeaseClient) *coordinationv1.Lease {
	t.Helper()
	l, err := leases.Get(t.Context(), leaseName, client.GetOptions{})
	require.NoError(t, err, "get lease")
	return l
}

func TestFirstCandidateCreatesTheLease(t *testing.T) {
	leases := newLeases(t)
	a := startCandidate(t, leases, "a")
	a.waitElected(t)
	assert.True(t, a.IsLeader())
	assert.Equal(t, "a", a.GetLeader())
	assert.NoError(t, a.Check(0), "a leader that renews is healthy")

	l := getLease(t, leases)
	assert.Equal(t, "a", *l.Spec.HolderIdentity)
	assert.Equal(t, int32(15), *l.Spec.LeaseDurationSeconds, "the upstream default")
	assert.Equal(t, int32(0), *l.Spec.LeaseTransitions)
	assert.True(t, l.Spec.RenewTime.Equal(t0), "renewTime is the clock's time: %v", l.Spec.RenewTime)

	// The leader renews every RetryPeriod.
	a.waitRetrying(t)
	a.clock.Step(2 * time.Second)
	a.waitRetrying(t)
	assert.True(t, getLease(t, leases).Spec.RenewTime.Equal(t0.Add(2*time.Second)), "renewed after RetryPeriod")
	assert.NoError(t, a.stop(t), "a stopped leader returns nil")
}

func TestOnlyOneCandidateLeads(t *testing.T) {
	leases := newLeases(t)
	a := startCandidate(t, leases, "a")
	b := startCandidate(t, leases, "b")
	var leader, follower *candidate
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case <-a.Elected():
		leader, follower = a, b
	case <-b.Elected():
		leader, follower = b, a
	case <-ctx.Done():
		t.Fatal("nobody elected")
	}
	follower.waitRetrying(t)
	assert.False(t, elected(follower), "the other candidate waits")
	// Its next attempt reads the Lease (the first may have lost the race
	// to create it, which tells it nothing about the holder).
	follower.clock.Step(5 * time.Second)
	follower.waitRetrying(t)
	assert.False(t, elected(follower), "still held")
	assert.False(t, follower.IsLeader())
	assert.NoError(t, follower.Check(0), "a follower is healthy")
	assert.Equal(t, *getLease(t, leases).Spec.HolderIdentity, follower.GetLeader(), "the follower knows the leader")
	assert.True(t, leader.IsLeader())
}

func TestTakeOverAfterExpiry(t *testing.T) {
	leases := newLeases(t)
	a := startCandidate(t, leases, "a")
	a.waitElected(t)
	b := startCandidate(t, leases, "b")
	b.waitRetrying(t)

	// a crashes: it stops without releasing, so the Lease still names it.
	require.NoError(t, a.stop(t))
	assert.Equal(t, "a", *getLease(t, leases).Spec.HolderIdentity, "not released")

	// RetryPeriod with jitter is at most 4.4s: b tries again, but the
	// Lease (renewed at t0 for 15s) has not expired.
	b.clock.Step(5 * time.Second)
	b.waitRetrying(t)
	assert.False(t, elected(b), "a Lease that has not expired is not taken over")

	b.clock.Step(11 * time.Second) // t0+16s: past renewTime + 15s
	b.waitElected(t)
	l := getLease(t, leases)
	assert.Equal(t, "b", *l.Spec.HolderIdentity)
	assert.Equal(t, int32(1), *l.Spec.LeaseTransitions, "a change of holder is a transition")
	assert.True(t, l.Spec.AcquireTime.Equal(t0.Add(16*time.Second)), "acquireTime is the takeover: %v", l.Spec.AcquireTime)
}

func TestReleaseOnCancelHandsOverAtOnce(t *testing.T) {
	leases := newLeases(t)
	release := func(o *leaderelection.Options) { o.ReleaseOnCancel = true }
	a := startCandidate(t, leases, "a", release)
	a.waitElected(t)
	b := startCandidate(t, leases, "b", release)
	b.waitRetrying(t)

	require.NoError(t, a.stop(t))
	l := getLease(t, leases)
	assert.Empty(t, *l.Spec.HolderIdentity, "released: no holder")
	assert.False(t, a.IsLeader())

	// One retry later, long before the 15s lease would expire.
	b.clock.Step(5 * time.Second)
	b.waitElected(t)
	l = getLease(t, leases)
	assert.Equal(t, "b", *l.Spec.HolderIdentity)
	assert.Equal(t, int32(1), *l.Spec.LeaseTransitions)
}

// faultyLeases fails every request while failing is set, as an API
// server that cannot be reached would.
type faultyLeases struct {
	leaderelection.LeaseClient
	failing atomic.Bool
	// hang, when set, makes Update block until its ctx ends.
	hang atomic.Bool
}

var errUnreachable = errors.New("connection refused")

func (f *faultyLeases) Get(ctx context.Context, name string, opts client.GetOptions) (*coordinationv1.Lease, error) {
	if f.failing.Load() {
		return nil, errUnreachable
	}
	return f.LeaseClient.Get(ctx, name, opts)
}

func (f *faultyLeases) Update(ctx context.Context, l *coordinationv1.Lease, opts client.WriteOptions) (*coordinationv1.Lease, error) {
	if f.hang.Load() {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if f.failing.Load() {
		return nil, errUnreachable
	}
	return f.LeaseClient.Update(ctx, l, opts)
}

func TestRenewFailingPastRenewDeadlineLosesTheLease(t *testing.T) {
	leases := &faultyLeases{LeaseClient: newLeases(t)}
	a := startCandidate(t, leases, "a", func(o *leaderelection.Options) { o.ReleaseOnCancel = true })
	a.waitElected(t)
	leases.failing.Store(true)

	// Renewal rounds start every 2s; the failing one retries every 2s
	// until 10s have passed since it began: t0+2s ... t0+12s.
	for range 6 {
		a.waitRetrying(t)
		assert.True(t, a.IsLeader(), "still leading within RenewDeadline")
		a.clock.Step(2 * time.Second)
	}
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case err := <-a.errCh:
		a.errCh <- err
		assert.ErrorIs(t, err, leaderelection.ErrLeaseLost)
	case <-ctx.Done():
		t.Fatal("the lease was not given up after RenewDeadline")
	}
	assert.False(t, a.IsLeader())
}

func TestLeaseTakenByAnotherIsNeverOverwritten(t *testing.T) {
	leases := newLeases(t)
	a := startCandidate(t, leases, "a")
	a.waitElected(t)
	a.waitRetrying(t)

	// Another party takes the Lease, renewed at t0 for 15s: a's renewals
	// must neither overwrite it (its resourceVersion is stale, and after
	// rereading, the Lease is held) nor go on past RenewDeadline.
	l := getLease(t, leases)
	l.Spec.HolderIdentity = new("intruder")
	_, err := leases.Update(t.Context(), l, client.WriteOptions{})
	require.NoError(t, err)
	for range 6 {
		a.waitRetrying(t)
		a.clock.Step(2 * time.Second)
	}
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case err := <-a.errCh:
		a.errCh <- err
		assert.ErrorIs(t, err, leaderelection.ErrLeaseLost)
	case <-ctx.Done():
		t.Fatal("the lease was not given up after RenewDeadline")
	}
	assert.False(t, a.IsLeader())
	assert.Equal(t, "intruder", *getLease(t, leases).Spec.HolderIdentity, "the other holder's Lease is untouched")
	assert.Equal(t, "intruder", a.GetLeader())
}

func TestCheckFailsWhenRenewalIsStuck(t *testing.T) {
	leases := &faultyLeases{LeaseClient: newLeases(t)}
	a := startCandidate(t, leases, "a")
	a.waitElected(t)
	a.waitRetrying(t)
	leases.hang.Store(true)
	a.clock.Step(16 * time.Second) // the renewal hangs; no more renewals
	assert.NoError(t, a.Check(time.Second), "within LeaseDuration + tolerance")
	a.clock.Step(2 * time.Second)
	assert.Error(t, a.Check(time.Second), "a leader that has not renewed for 18s is unhealthy")
	assert.NoError(t, a.stop(t))
}

func TestNewValidates(t *testing.T) {
	leases := &faultyLeases{}
	tests := []struct {
		name string
		opts leaderelection.Options
	}{
		{name: "no identity", opts: leaderelection.Options{Leases: leases, Name: leaseName}},
		{name: "no name", opts: leaderelection.Options{Leases: leases, Identity: "a"}},
		{name: "no client", opts: leaderelection.Options{Name: leaseName, Identity: "a"}},
		{name: "renew deadline not under lease duration", opts: leaderelection.Options{Leases: leases, Name: leaseName,
			Identity: "a", LeaseDuration: 10 * time.Second, RenewDeadline: 10 * time.Second}},
		{name: "retry period too long for renew deadline", opts: leaderelection.Options{Leases: leases, Name: leaseName,
			Identity: "a", RetryPeriod: 9 * time.Second}},
		{name: "sub-second lease", opts: leaderelection.Options{Leases: leases, Name: leaseName, Identity: "a",
			LeaseDuration: 500 * time.Millisecond, RenewDeadline: 300 * time.Millisecond, RetryPeriod: 100 * time.Millisecond}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := leaderelection.New(tc.opts)
			assert.Error(t, err, "New(%+v)", tc.opts)
		})
	}
	_, err := leaderelection.New(leaderelection.Options{Leases: leases, Name: leaseName, Identity: "a"})
	assert.NoError(t, err, "the defaults are valid")
}

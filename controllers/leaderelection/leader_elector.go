package leaderelection

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/wait"
)

// The defaults of client-go and controller-runtime.
const (
	// DefaultLeaseDuration is how long a Lease lasts after its last
	// renewal: how long the others wait for a leader that died.
	DefaultLeaseDuration = 15 * time.Second
	// DefaultRenewDeadline is how long the leader keeps retrying a
	// failing renewal before it gives up. It is shorter than the lease
	// duration, so a leader stops before another can take over.
	DefaultRenewDeadline = 10 * time.Second
	// DefaultRetryPeriod is how often candidates try to acquire, and the
	// leader renews.
	DefaultRetryPeriod = 2 * time.Second
	// JitterFactor spreads candidates' retries over [1, 2.2) RetryPeriods,
	// so that candidates started together do not retry together.
	JitterFactor = 1.2
)

// ErrLeaseLost is what Start returns when the leader could not renew its
// Lease within RenewDeadline: it must stop acting at once, because another
// candidate may take over.
var ErrLeaseLost = errors.New("leader election lost")

// LeaseClient is the part of a leases client the elector uses;
// *client.LeaseClient scoped to the Lease's namespace satisfies it.
type LeaseClient interface {
	Get(ctx context.Context, name string, opts client.GetOptions) (*coordinationv1.Lease, error)
	Create(ctx context.Context, lease *coordinationv1.Lease, opts client.WriteOptions) (*coordinationv1.Lease, error)
	Update(ctx context.Context, lease *coordinationv1.Lease, opts client.WriteOptions) (*coordinationv1.Lease, error)
}

var _ LeaseClient = (*client.LeaseClient)(nil)

// Options configures New.
type Options struct {
	// Leases reaches the Lease's namespace. Required.
	Leases LeaseClient
	// Name is the Lease's name: the lock all candidates share. Required.
	Name string
	// Identity is this candidate's name, unique among candidates.
	// Required.
	Identity string
	// LeaseDuration defaults to DefaultLeaseDuration; it is stored in
	// whole seconds, at least one.
	LeaseDuration time.Duration
	// RenewDeadline defaults to DefaultRenewDeadline and must be shorter
	// than LeaseDuration.
	RenewDeadline time.Duration
	// RetryPeriod defaults to DefaultRetryPeriod; RenewDeadline must be
	// longer than JitterFactor RetryPeriods.
	RetryPeriod time.Duration
	// ReleaseOnCancel makes Start release the Lease when ctx ends, so
	// another candidate takes over at once rather than after
	// LeaseDuration. Set it only if nothing acts as leader once Start
	// returns.
	ReleaseOnCancel bool
	// Clock times retries and expiry, and stamps the Lease. Defaults to
	// clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
}

// LeaderElector campaigns for one Lease, then holds it. Start runs it;
// Elected says when it leads. It is safe for concurrent use.
//
// Upstream: k8s.io/client-go/tools/leaderelection (LeaderElector), whose
// callbacks are Elected here, and Start's return for OnStoppedLeading.
type LeaderElector struct {
	opts Options
	log  *slog.Logger
	// electedCh is closed when the Lease is first acquired.
	electedCh chan struct{}

	// mu guards the fields below.
	mu      sync.Mutex
	started bool
	// lease is the Lease as last read or written, with its
	// resourceVersion: the base of the next write.
	lease *coordinationv1.Lease
	// leading is set by a successful acquire or renew, and cleared when
	// the Lease is lost, released, or seen naming another holder.
	leading bool
	// lastRenew is when the Lease was last acquired or renewed.
	lastRenew time.Time
}

// New validates opts and returns an elector that is not campaigning.
func New(opts Options) (*LeaderElector, error) {
	if opts.LeaseDuration == 0 {
		opts.LeaseDuration = DefaultLeaseDuration
	}
	if opts.RenewDeadline == 0 {
		opts.RenewDeadline = DefaultRenewDeadline
	}
	if opts.RetryPeriod == 0 {
		opts.RetryPeriod = DefaultRetryPeriod
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	switch {
	case opts.Leases == nil || opts.Name == "" || opts.Identity == "":
		return nil, errors.New("leaderelection: Leases, Name and Identity are required")
	case opts.LeaseDuration < time.Second:
		return nil, fmt.Errorf("leaderelection: LeaseDuration %v is under a second", opts.LeaseDuration)
	case opts.LeaseDuration <= opts.RenewDeadline:
		return nil, fmt.Errorf("leaderelection: LeaseDuration %v must be longer than RenewDeadline %v",
			opts.LeaseDuration, opts.RenewDeadline)
	case opts.RetryPeriod <= 0 || float64(opts.RenewDeadline) <= JitterFactor*float64(opts.RetryPeriod):
		return nil, fmt.Errorf("leaderelection: RenewDeadline %v must be longer than %v RetryPeriods of %v",
			opts.RenewDeadline, JitterFactor, opts.RetryPeriod)
	}
	return &LeaderElector{
		opts:      opts,
		log:       logging.OrDiscard(opts.Logger).With("component", "leaderelection", "lease", opts.Name, "identity", opts.Identity),
		electedCh: make(chan struct{}),
	}, nil
}

// Elected returns a channel closed once this candidate has acquired the
// Lease. It stays closed after the Lease is lost or released.
func (le *LeaderElector) Elected() <-chan struct{} { return le.electedCh }

// IsLeader reports whether this candidate holds the Lease now.
func (le *LeaderElector) IsLeader() bool {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.leading
}

// GetLeader returns the holder of the Lease as last observed; "" when it
// is free or was never read.
func (le *LeaderElector) GetLeader() string {
	le.mu.Lock()
	defer le.mu.Unlock()
	return holderOf(le.lease)
}

// Check is a health check: it fails when this candidate believes it leads
// but has not renewed the Lease for LeaseDuration plus
// maxTolerableExpiredLease, which means its renewals are stuck and another
// candidate may be leading already.
//
// Upstream: k8s.io/client-go/tools/leaderelection (LeaderElector.Check).
func (le *LeaderElector) Check(maxTolerableExpiredLease time.Duration) error {
	le.mu.Lock()
	defer le.mu.Unlock()
	if !le.leading {
		return nil
	}
	if since := le.opts.Clock.Since(le.lastRenew); since > le.opts.LeaseDuration+maxTolerableExpiredLease {
		return fmt.Errorf("lease %s not renewed for %v", le.opts.Name, since)
	}
	return nil
}

// Start campaigns until it acquires the Lease, closes Elected, then
// renews it until ctx ends or a renewal fails for RenewDeadline. It
// returns nil when ctx ends (after releasing the Lease, with
// ReleaseOnCancel), and an error wrapping ErrLeaseLost when the Lease was
// lost: the caller must stop everything it does as leader. It does not
// campaign again. It fails at once if started before.
//
// Upstream: k8s.io/client-go/tools/leaderelection (LeaderElector.Run).
func (le *LeaderElector) Start(ctx context.Context) error {
	le.mu.Lock()
	started := le.started
	le.started = true
	le.mu.Unlock()
	if started {
		return errors.New("leaderelection: already started")
	}
	if !le.acquire(ctx) {
		return nil
	}
	close(le.electedCh)
	if err := le.renew(ctx); err != nil {
		return err
	}
	if le.opts.ReleaseOnCancel {
		le.release(ctx)
	}
	return nil
}

// acquire tries for the Lease at once, then every RetryPeriod (jittered),
// until it holds it (true) or ctx ends (false).
func (le *LeaderElector) acquire(ctx context.Context) bool {
	le.log.InfoContext(ctx, "attempting to acquire lease")
	retry := wait.Backoff{Initial: le.opts.RetryPeriod, Jitter: JitterFactor, Clock: le.opts.Clock}
	for {
		if le.tryAcquireOrRenew(ctx) {
			le.log.InfoContext(ctx, "acquired lease")
			return true
		}
		if retry.Wait(ctx) != nil {
			return false
		}
	}
}

// renew renews the Lease every RetryPeriod. A renewal that fails is tried
// again every RetryPeriod until RenewDeadline has passed since the round
// began; then the Lease is lost. It returns nil when ctx ends.
func (le *LeaderElector) renew(ctx context.Context) error {
	retry := wait.Backoff{Initial: le.opts.RetryPeriod, Clock: le.opts.Clock}
	for {
		if retry.Wait(ctx) != nil {
			return nil
		}
		deadline := le.opts.Clock.Now().Add(le.opts.RenewDeadline)
		for !le.tryAcquireOrRenew(ctx) {
			if ctx.Err() != nil {
				return nil
			}
			if !le.opts.Clock.Now().Before(deadline) {
				le.mu.Lock()
				le.leading = false
				le.mu.Unlock()
				le.log.InfoContext(ctx, "failed to renew lease, stopping", "renewDeadline", le.opts.RenewDeadline)
				return fmt.Errorf("lease %s: %w", le.opts.Name, ErrLeaseLost)
			}
			if retry.Wait(ctx) != nil {
				return nil
			}
		}
		le.log.DebugContext(ctx, "renewed lease")
	}
}

// tryAcquireOrRenew makes one attempt to hold the Lease: renew it if this
// candidate holds it, create it if missing, take it over if it is free or
// expired. It reports whether this candidate holds it now.
//
// Each request is bounded by RenewDeadline of real time: a hung
// connection must not keep a leader believing it leads.
//
// Upstream: k8s.io/client-go/tools/leaderelection
// (LeaderElector.tryAcquireOrRenew).
func (le *LeaderElector) tryAcquireOrRenew(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, le.opts.RenewDeadline)
	defer cancel()
	now := le.opts.Clock.Now()
	le.mu.Lock()
	observed, leading := le.lease, le.leading
	le.mu.Unlock()

	// 1. Fast path: the leader renews the Lease it last wrote, assuming
	// nobody changed it since.
	if leading && holderOf(observed) == le.opts.Identity && !le.expired(observed, now) {
		lease := observed.DeepCopy()
		le.stamp(lease, now)
		updated, err := le.opts.Leases.Update(ctx, lease, client.WriteOptions{})
		if err == nil {
			le.observe(updated, now)
			return true
		}
		le.log.DebugContext(ctx, "renewing the observed lease failed, rereading it", "err", err)
	}

	// 2. Read the Lease, or create it.
	current, err := le.opts.Leases.Get(ctx, le.opts.Name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		lease := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: le.opts.Name}}
		lease.Spec.AcquireTime = new(metav1.NewMicroTime(now))
		lease.Spec.LeaseTransitions = new(int32(0))
		le.stamp(lease, now)
		created, err := le.opts.Leases.Create(ctx, lease, client.WriteOptions{})
		if err != nil {
			le.log.DebugContext(ctx, "creating the lease failed", "err", err)
			return false
		}
		le.observe(created, now)
		return true
	}
	if err != nil {
		le.log.WarnContext(ctx, "reading the lease failed", "err", err)
		return false
	}
	le.observe(current, time.Time{})

	// 3. Held by another candidate and not expired: not ours.
	holder := holderOf(current)
	if holder != "" && holder != le.opts.Identity && !le.expired(current, now) {
		return false
	}

	// 4. Renew it (it names us) or take it over (free or expired).
	lease := current.DeepCopy()
	if holder != le.opts.Identity {
		lease.Spec.AcquireTime = new(metav1.NewMicroTime(now))
		var transitions int32
		if lease.Spec.LeaseTransitions != nil {
			transitions = *lease.Spec.LeaseTransitions
		}
		lease.Spec.LeaseTransitions = new(transitions + 1)
	}
	le.stamp(lease, now)
	updated, err := le.opts.Leases.Update(ctx, lease, client.WriteOptions{})
	if err != nil {
		le.log.DebugContext(ctx, "updating the lease failed", "err", err)
		return false
	}
	le.observe(updated, now)
	return true
}

// stamp makes lease name this candidate as renewed at now.
func (le *LeaderElector) stamp(lease *coordinationv1.Lease, now time.Time) {
	lease.Spec.HolderIdentity = new(le.opts.Identity)
	lease.Spec.LeaseDurationSeconds = new(int32(le.opts.LeaseDuration / time.Second))
	lease.Spec.RenewTime = new(metav1.NewMicroTime(now))
}

// expired reports whether lease's holder has not renewed it in time:
// renewTime + leaseDurationSeconds is before now.
func (le *LeaderElector) expired(lease *coordinationv1.Lease, now time.Time) bool {
	spec := lease.Spec
	if spec.RenewTime == nil || spec.LeaseDurationSeconds == nil {
		return true
	}
	return spec.RenewTime.Add(time.Duration(*spec.LeaseDurationSeconds) * time.Second).Before(now)
}

// observe records lease as the latest state; wroteAt, when set, is when
// this candidate wrote it as holder. A Lease naming another holder means
// this candidate does not lead, whatever it believed.
func (le *LeaderElector) observe(lease *coordinationv1.Lease, wroteAt time.Time) {
	le.mu.Lock()
	previous := holderOf(le.lease)
	le.lease = lease
	switch {
	case !wroteAt.IsZero():
		le.leading, le.lastRenew = true, wroteAt
	case holderOf(lease) != le.opts.Identity:
		le.leading = false
	}
	le.mu.Unlock()
	if holder := holderOf(lease); holder != previous && holder != "" {
		le.log.Info("new leader observed", "leader", holder)
	}
}

// release gives the Lease up, if this candidate holds it, by clearing its
// holder: the next candidate to try takes it over without waiting for it
// to expire. ctx may be done already; the request gets RenewDeadline.
func (le *LeaderElector) release(ctx context.Context) {
	le.mu.Lock()
	observed, leading := le.lease, le.leading
	le.mu.Unlock()
	if !leading || observed == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), le.opts.RenewDeadline)
	defer cancel()
	now := metav1.NewMicroTime(le.opts.Clock.Now())
	lease := observed.DeepCopy()
	// Upstream's release: no holder, a one-second duration, the
	// transitions count kept.
	lease.Spec.HolderIdentity = new("")
	lease.Spec.LeaseDurationSeconds = new(int32(1))
	lease.Spec.RenewTime, lease.Spec.AcquireTime = &now, &now
	updated, err := le.opts.Leases.Update(ctx, lease, client.WriteOptions{})
	if err != nil {
		le.log.WarnContext(ctx, "releasing the lease failed; the others wait for it to expire", "err", err)
		return
	}
	le.mu.Lock()
	le.lease, le.leading = updated, false
	le.mu.Unlock()
	le.log.InfoContext(ctx, "released lease")
}

// holderOf returns lease's holder, "" for none.
func holderOf(lease *coordinationv1.Lease) string {
	if lease == nil || lease.Spec.HolderIdentity == nil {
		return ""
	}
	return *lease.Spec.HolderIdentity
}

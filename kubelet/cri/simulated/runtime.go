package simulated

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/kubelet/cni"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/wait"
)

// ErrStopped is returned by calls that would start something after Start
// has returned. It wraps cri.ErrFailedPrecondition.
var ErrStopped = fmt.Errorf("simulated runtime is stopped: %w", cri.ErrFailedPrecondition)

// DefaultPauseImage is the sandbox image, as containerd's sandbox_image.
const DefaultPauseImage = "registry.k8s.io/pause:3.10"

// DefaultMaxLogBytes bounds each container's log: the kubelet rotates at
// 10 MiB on disk, but these logs live in memory, next to hundreds of
// other containers.
const DefaultMaxLogBytes = 1 << 20

// Options configure a Runtime. The zero value works.
type Options struct {
	// Clock times everything: sleeps, grace periods, pulls, timestamps.
	// Defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to discarding.
	Logger *slog.Logger
	// Network gives sandboxes their IPs. Defaults to a cni.HostLocal on
	// cni.DefaultSubnet; a kubelet passes one on its node's podCIDR.
	Network cni.Plugin
	// PauseImage is the image of sandboxes' pause containers. Defaults to
	// DefaultPauseImage.
	PauseImage string
	// PullDelay returns how long pulling an image (its normalized name,
	// "docker.io/library/nginx:latest") takes on Clock. Defaults to no
	// time at all.
	PullDelay func(image string) time.Duration
	// PullError returns why pulling an image (its normalized name) fails,
	// or nil. Defaults to DefaultPullError.
	PullError func(image string) error
	// MaxLogBytes bounds each container's log; older lines are dropped.
	// Defaults to DefaultMaxLogBytes.
	MaxLogBytes int
	// ClusterNetwork, when set, is the cluster network the containers
	// live on: servers listen on their pod IP's host address
	// (ClusterNetwork.ListenAddr) at their declared ports, and wget, nc
	// and nslookup resolve and connect through it. Defaults to none:
	// servers listen on free ports of 127.0.0.1, reached through
	// DialContext only, and scripts have no network.
	ClusterNetwork ClusterNetwork
	// Programs are programmable images: a container of an image named
	// here (by any name that normalizes to the same reference, "shop:v1"
	// is "docker.io/library/shop:v1") runs the Program, which serves
	// HTTP at the pod's IP. Defaults to none.
	Programs map[string]Program
}

// ClusterNetwork is the cluster network as the runtime's containers see
// it: cluster DNS and the Service proxy. A cluster provides it; this
// package cannot import them. Its methods must be safe for concurrent
// use.
type ClusterNetwork interface {
	// DialContext connects to a cluster address (a ClusterIP, a pod IP)
	// as a pod would.
	DialContext(ctx context.Context, network, address string) (net.Conn, error)
	// LookupHost resolves host through cluster DNS with the search path
	// of a pod in namespace, returning the name that answered and its
	// addresses.
	LookupHost(ctx context.Context, namespace, host string) (name string, addrs []netip.Addr, err error)
	// Nameserver is the nameserver of pods' resolv.conf.
	Nameserver() netip.AddrPort
	// ListenAddr is the host address where a pod with IP podIP serves.
	ListenAddr(podIP netip.Addr) netip.Addr
}

// Runtime is an in-process container runtime: a cri.RuntimeService and
// cri.ImageManagerService whose containers are simulated (see the package
// doc). Create it with New and run Start; it is safe for concurrent use.
type Runtime struct {
	clock       clock.Clock
	logger      *slog.Logger
	network     cni.Plugin
	pauseImage  string
	pullDelay   func(string) time.Duration
	pullError   func(string) error
	maxLogBytes int
	clusterNet  ClusterNetwork
	// programs are Options.Programs by normalized reference.
	programs map[string]Program
	// wakeups holds the sleeping containers, earliest first, and wakes
	// Start's loop for the earliest. There is one timer per runtime, not
	// one per container: a sleeping container is an entry in wakeups and
	// nothing else. It is changed only under mu (it has a lock of its own
	// too).
	wakeups *wait.DeadlineQueue[*container]
	// wg counts the goroutines the runtime owns: Start's caller aside,
	// the HTTP servers of serving containers.
	wg sync.WaitGroup

	// mu guards every field below, and every sandbox and container.
	mu          sync.Mutex
	sandboxes   map[string]*sandbox
	sandboxByIP map[netip.Addr]*sandbox
	containers  map[string]*container
	images      map[string]*image // by ID
	imageByTag  map[string]*image
	// names are the reserved sandbox and container names; a name is in
	// names if and only if its object exists (see sandboxKey,
	// containerKey).
	names map[string]string
	// effects run after mu is released (see unlock): starting and closing
	// HTTP servers, which is I/O.
	effects []func()
	// changed is notified when a sandbox or container changes state.
	changed wait.Broadcast
	seq     uint64
	started bool
	stopped bool
}

var (
	_ cri.RuntimeService      = (*Runtime)(nil)
	_ cri.ImageManagerService = (*Runtime)(nil)
)

// New returns a Runtime. It starts no goroutine; Start does.
func New(opts Options) (*Runtime, error) {
	r := &Runtime{
		clock:       opts.Clock,
		logger:      logging.OrDiscard(opts.Logger).With("component", "runtime"),
		network:     opts.Network,
		pauseImage:  opts.PauseImage,
		pullDelay:   opts.PullDelay,
		pullError:   opts.PullError,
		maxLogBytes: opts.MaxLogBytes,
		clusterNet:  opts.ClusterNetwork,
		sandboxes:   map[string]*sandbox{},
		sandboxByIP: map[netip.Addr]*sandbox{},
		containers:  map[string]*container{},
		images:      map[string]*image{},
		imageByTag:  map[string]*image{},
		names:       map[string]string{},
	}
	if r.clock == nil {
		r.clock = clock.Real
	}
	for name, p := range opts.Programs {
		ref, err := normalizeImage(name)
		if err != nil {
			return nil, fmt.Errorf("simulated runtime: program: %w", err)
		}
		if p == nil {
			return nil, fmt.Errorf("simulated runtime: program %q is nil", name)
		}
		if r.programs == nil {
			r.programs = map[string]Program{}
		}
		r.programs[ref] = p
	}
	// Containers due at the same time run in creation order, so a run
	// does not depend on the order they went to sleep in.
	r.wakeups = wait.NewDeadlineQueue(wait.DeadlineOptions[*container]{
		Clock: r.clock,
		Less:  func(a, b *container) bool { return a.seq < b.seq },
	})
	if r.network == nil {
		ipam, err := cni.New(cni.Options{})
		if err != nil {
			return nil, fmt.Errorf("simulated runtime: default network: %w", err)
		}
		r.network = ipam
	}
	if r.pauseImage == "" {
		r.pauseImage = DefaultPauseImage
	}
	if _, err := normalizeImage(r.pauseImage); err != nil {
		return nil, fmt.Errorf("simulated runtime: pause image: %w", err)
	}
	if r.pullError == nil {
		r.pullError = DefaultPullError
	}
	if r.maxLogBytes <= 0 {
		r.maxLogBytes = DefaultMaxLogBytes
	}
	return r, nil
}

// Start runs the runtime until ctx is done: it wakes sleeping containers
// when their time comes. Containers make progress in time only while
// Start runs. When ctx is done Start
//
//  1. refuses new sandboxes and container starts (ErrStopped);
//  2. kills every running container (exit code 137) and stops every
//     sandbox, closing the HTTP servers;
//  3. releases the sandboxes' IPs (cni Del);
//  4. waits for every goroutine it started, and returns nil.
//
// Start may be called once.
func (r *Runtime) Start(ctx context.Context) error {
	r.mu.Lock()
	if r.started {
		r.mu.Unlock()
		return errors.New("simulated runtime: Start called twice")
	}
	r.started = true
	r.mu.Unlock()
	r.logger.Info("starting")
	// lock and unlock run whatever is due.
	r.wakeups.Run(ctx, func() {
		r.lock()
		r.unlock()
	})
	r.shutdown(context.WithoutCancel(ctx))
	r.logger.Info("stopped")
	return nil
}

func (r *Runtime) shutdown(ctx context.Context) {
	r.lock()
	r.stopped = true
	now := r.clock.Now()
	var ids []string
	for _, c := range r.containers {
		r.exitLocked(c, exit{code: 137, reason: cri.ReasonError, message: "killed: the container runtime stopped", at: now})
	}
	for id, sb := range r.sandboxes {
		if sb.state == cri.SandboxReady {
			r.stopSandboxLocked(sb)
			ids = append(ids, id)
		}
	}
	r.unlock()
	for _, id := range ids {
		if err := r.network.Del(ctx, cni.RuntimeConf{ContainerID: id, IfName: "eth0"}); err != nil {
			r.logger.Warn("releasing a sandbox's network failed", "err", err)
		}
	}
	r.wg.Wait()
}

// Changed returns a channel that is closed at the next change of any
// sandbox's or container's state (created, started, exited, removed).
// Call it again after it fires. A kubelet's PLEG relists when it fires
// instead of on a ticker; a test waits with it instead of polling.
//
// Upstream: the evented PLEG (RuntimeService.GetContainerEvents) plays
// this part; the generic PLEG relists every second.
func (r *Runtime) Changed() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.changed.Wait()
}

func (r *Runtime) changedLocked() {
	r.changed.Notify()
}

// lock takes mu and brings every container up to the clock's time, so
// that what the caller reads is current even if Start's loop has not
// woken yet.
func (r *Runtime) lock() {
	r.mu.Lock()
	r.advanceLocked()
}

// unlock runs what became due while mu was held, releases mu and then
// runs the effects queued under it.
func (r *Runtime) unlock() {
	r.advanceLocked()
	effects := r.effects
	r.effects = nil
	r.mu.Unlock()
	for _, f := range effects {
		f()
	}
}

// maxWakeupsPerRound bounds the wake-ups one advanceLocked runs, so that
// a clock stepped far ahead of looping containers (a year, for a script
// that sleeps a second at a time) is caught up in rounds between which
// other callers get mu, rather than in one long hold.
const maxWakeupsPerRound = 10_000

// advanceLocked resumes every container whose sleep ended by now, up to
// maxWakeupsPerRound (wakeups wakes Start's loop for the rest, in a round
// of its own rather than in one long hold of mu). A container resumes at
// the time its sleep was due, not at now, so its log and exit times do
// not depend on when the loop woke (a clocktest.Fake stepped by an hour
// still runs a script's one-second sleeps one second apart).
func (r *Runtime) advanceLocked() {
	if r.wakeups.Len() == 0 {
		return
	}
	now := r.clock.Now()
	for range maxWakeupsPerRound {
		c, at, ok := r.wakeups.PopDue(now)
		if !ok {
			return
		}
		if c.proc != nil {
			r.resultLocked(c, c.proc.Run(at), at)
		}
	}
}

func (r *Runtime) sleepLocked(c *container, until time.Time) {
	r.wakeups.SetAt(c, until)
}

func (r *Runtime) cancelSleepLocked(c *container) {
	r.wakeups.Remove(c)
}

func (r *Runtime) nextSeqLocked() uint64 {
	r.seq++
	return r.seq
}

// newID returns 64 random hex digits, as containerd's IDs are.
func newID() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

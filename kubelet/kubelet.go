package kubelet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/kubelet/cni"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/wait"
)

// Version is the kubelet version every simulated node reports in
// status.nodeInfo.kubeletVersion.
const Version = "v1.32.0-minicp"

// ContainerRuntimeVersion is what nodes report as
// status.nodeInfo.containerRuntimeVersion; its scheme, runtimeName,
// prefixes container IDs in pod status ("minicp-simulated://<id>").
const ContainerRuntimeVersion = "minicp-simulated://0.1.0"

// runtimeName is the runtime's type, as in containerd://.
const runtimeName = "minicp-simulated"

// NodeIP is every simulated node's InternalIP and every pod's hostIP. The
// API server reaches a kubelet at its node's InternalIP and
// daemonEndpoints.kubeletEndpoint.Port (pods/log), so the address must be
// one the kubelet really listens on: all the kubelets of a process share
// the loopback address and are told apart by their ports.
const NodeIP = "127.0.0.1"

// The defaults of Options.
const (
	// DefaultHeartbeatInterval renews the node's Lease a quarter of its
	// duration, so three renewals may fail before it expires.
	// Upstream: the kubelet's renewInterval (0.25 * leaseDuration).
	DefaultHeartbeatInterval = 10 * time.Second
	// DefaultNodeStatusUpdateFrequency is upstream's
	// --node-status-update-frequency.
	DefaultNodeStatusUpdateFrequency = 10 * time.Second
	// DefaultLeaseDurationSeconds is upstream's --node-lease-duration-seconds:
	// the node lifecycle controller's grace period for a silent node.
	DefaultLeaseDurationSeconds int32 = 40
)

// DefaultCapacity is the capacity of a node whose Options give none: a
// small machine, with upstream's default of 110 pods per node.
func DefaultCapacity() corev1.ResourceList {
	return corev1.ResourceList{
		corev1.ResourceCPU:              resource.MustParse("4"),
		corev1.ResourceMemory:           resource.MustParse("8Gi"),
		corev1.ResourcePods:             resource.MustParse("110"),
		corev1.ResourceEphemeralStorage: resource.MustParse("100Gi"),
	}
}

// Options configure a Kubelet. NodeName and Clientset are required; every
// other field has a default.
type Options struct {
	// NodeName is the Node the kubelet registers and whose pods
	// (spec.nodeName) it runs. Required; a DNS subdomain.
	NodeName string
	// Clientset reaches the API server. Required.
	Clientset *client.Clientset
	// Runtime runs the pods' sandboxes and containers. Defaults to a
	// simulated.Runtime the kubelet owns: made by New on Clock with a
	// host-local network on PodCIDR, started by Start and stopped (every
	// container killed) when Start returns. A Runtime given here is
	// neither started nor stopped by the kubelet.
	Runtime cri.RuntimeService
	// ImageService pulls images. Defaults to Runtime when it implements
	// cri.ImageManagerService, as the simulated runtime does.
	ImageService cri.ImageManagerService
	// PodCIDR is the node's spec.podCIDR, the range the owned runtime's
	// IPAM gives pod IPs from (10.244.3.0/24). Defaults to none: the node
	// has no podCIDR and pods get IPs from cni.DefaultSubnet.
	PodCIDR netip.Prefix
	// Capacity is the node's status.capacity, and its allocatable: minicp
	// reserves nothing for the system. Defaults to DefaultCapacity().
	Capacity corev1.ResourceList
	// Labels are added to the node's well-known labels
	// (kubernetes.io/hostname, kubernetes.io/os, kubernetes.io/arch).
	Labels map[string]string
	// Taints are the node's spec.taints when it registers.
	Taints []corev1.Taint
	// Clock times heartbeats, backoff, probes and the owned runtime's
	// containers. Defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to discarding.
	Logger *slog.Logger
	// HeartbeatInterval is how often the node's Lease is renewed.
	// Defaults to DefaultHeartbeatInterval.
	HeartbeatInterval time.Duration
	// NodeStatusUpdateFrequency is how often the node's conditions get a
	// new lastHeartbeatTime. Defaults to DefaultNodeStatusUpdateFrequency.
	NodeStatusUpdateFrequency time.Duration
	// ClusterNetwork is the cluster network (DNS, Service proxy) of the
	// owned runtime's containers (simulated.Options.ClusterNetwork).
	// Defaults to none.
	ClusterNetwork simulated.ClusterNetwork
	// Programs are the owned runtime's programmable images
	// (simulated.Options.Programs): Go code serving HTTP in the pods that
	// name them. Defaults to none.
	Programs map[string]simulated.Program
	// LeaseDurationSeconds is the Lease's spec.leaseDurationSeconds.
	// Defaults to DefaultLeaseDurationSeconds.
	LeaseDurationSeconds int32
	// Prober, when set, runs the containers' readiness and liveness
	// probes instead of the kubelet's own exec, httpGet and tcpSocket
	// handlers (see Prober). Defaults to none: the kubelet's handlers.
	Prober Prober
	// Tracing, when set, traces each pod sync as a kubelet.sync span of
	// component "kubelet/<node>", linked to the write of the pod's
	// version it syncs; the sandbox, the container starts and the status
	// write join it. Defaults to nil: nothing traced.
	Tracing *tracing.Tracing
}

// changeNotifier is the optional capability of a runtime to say when a
// container changed, so the PLEG relists then instead of every second.
// simulated.Runtime has it; it is checked in New. Such a runtime must
// also bring its state up to the clock's time on every call, as the
// simulated one does: Idle relies on that.
type changeNotifier interface {
	Changed() <-chan struct{}
}

// contextDialer is the optional capability of a runtime to connect to
// pod IPs, which exist only inside it (simulated.Runtime.DialContext).
// HTTP and TCP probes use it; without it they dial the host's network.
type contextDialer interface {
	DialContext(ctx context.Context, network, address string) (net.Conn, error)
}

// Kubelet is a simulated node agent: it registers its Node, heartbeats
// through a Lease and the Node's conditions, runs the pods bound to the
// node on its container runtime, reports their status, and serves their
// logs. Create it with New and run Start; it is safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (Kubelet).
type Kubelet struct {
	nodeName      string
	cs            *client.Clientset
	runtime       cri.RuntimeService
	images        cri.ImageManagerService
	ownedRuntime  *simulated.Runtime
	notifier      changeNotifier
	podCIDR       netip.Prefix
	capacity      corev1.ResourceList
	labels        map[string]string
	taints        []corev1.Taint
	clock         clock.Clock
	log           *slog.Logger
	tracer        trace.Tracer
	revisions     *tracing.Revisions
	heartbeat     time.Duration
	statusFreq    time.Duration
	leaseDuration int32
	recorder      *record.Recorder
	probeClient   *http.Client
	dialer        contextDialer
	prober        Prober

	source    *podSource
	reflector *informer.Reflector
	workers   *podWorkers
	pleg      *pleg
	readyCh   chan struct{}
	// runCtx is Start's context (under mu), nil before Start: a stopped
	// kubelet has nothing to sync (WaitSyncedTo).
	runCtx context.Context

	// node and lease are the copies the heartbeat goroutine wrote last;
	// only it uses them.
	node  *corev1.Node
	lease *coordinationv1.Lease

	// mu guards the fields below.
	mu         sync.Mutex
	started    bool
	logAddr    netip.AddrPort
	registered bool
	isReady    bool

	// changed is notified whenever something Idle looks at may have
	// changed, so WaitIdle can also select on its ctx.
	changed wait.Broadcast
}

// New validates opts and returns a Kubelet that is not running. It makes
// the owned runtime, if any, but starts nothing and does no I/O.
func New(opts Options) (*Kubelet, error) {
	if opts.NodeName == "" {
		return nil, errors.New("kubelet: NodeName is required")
	}
	if msgs := validation.IsDNS1123Subdomain(opts.NodeName); len(msgs) > 0 {
		return nil, fmt.Errorf("kubelet: NodeName %q: %s", opts.NodeName, msgs[0])
	}
	if opts.Clientset == nil {
		return nil, errors.New("kubelet: Clientset is required")
	}
	if opts.PodCIDR.IsValid() && !opts.PodCIDR.Addr().Is4() {
		return nil, fmt.Errorf("kubelet: PodCIDR %s: only IPv4 is supported", opts.PodCIDR)
	}
	k := &Kubelet{
		nodeName:      opts.NodeName,
		cs:            opts.Clientset,
		runtime:       opts.Runtime,
		images:        opts.ImageService,
		podCIDR:       opts.PodCIDR.Masked(),
		capacity:      opts.Capacity,
		labels:        opts.Labels,
		taints:        opts.Taints,
		clock:         opts.Clock,
		log:           logging.OrDiscard(opts.Logger).With("component", "kubelet", "node", opts.NodeName),
		tracer:        opts.Tracing.Tracer("kubelet/" + opts.NodeName),
		revisions:     opts.Tracing.Revisions(),
		heartbeat:     opts.HeartbeatInterval,
		statusFreq:    opts.NodeStatusUpdateFrequency,
		leaseDuration: opts.LeaseDurationSeconds,
		readyCh:       make(chan struct{}),
	}
	if k.clock == nil {
		k.clock = clock.Real
	}
	if k.capacity == nil {
		k.capacity = DefaultCapacity()
	}
	if k.heartbeat <= 0 {
		k.heartbeat = DefaultHeartbeatInterval
	}
	if k.statusFreq <= 0 {
		k.statusFreq = DefaultNodeStatusUpdateFrequency
	}
	if k.leaseDuration <= 0 {
		k.leaseDuration = DefaultLeaseDurationSeconds
	}
	if k.runtime == nil {
		rt, err := newOwnedRuntime(k.clock, k.podCIDR, opts)
		if err != nil {
			return nil, err
		}
		k.runtime, k.ownedRuntime = rt, rt
	}
	if k.images == nil {
		images, ok := k.runtime.(cri.ImageManagerService)
		if !ok {
			return nil, errors.New("kubelet: ImageService is required when Runtime does not pull images")
		}
		k.images = images
	}
	// The runtime's optional capabilities; see changeNotifier and
	// contextDialer for what the kubelet does without them.
	k.notifier, _ = k.runtime.(changeNotifier)
	k.dialer, _ = k.runtime.(contextDialer)
	k.probeClient = newProbeClient(k.dialer)
	k.prober = opts.Prober
	k.recorder = record.New(k.cs, record.Options{
		Component: "kubelet", Host: k.nodeName, Clock: newEventClock(k.clock), Logger: opts.Logger,
	})
	k.workers = newPodWorkers(k.clock, k.syncPodWorker, k.notify)
	k.source = newPodSource(k.workers, k.markSynced)
	k.pleg = newPLEG(k.clock, k.runtime, k.notifier, k.workers, k.log)
	pods, err := client.NewResource[metav1.Object, metav1.ListInterface](k.cs.Client(), corev1.SchemeGroupVersion.WithResource("pods"))
	if err != nil {
		return nil, fmt.Errorf("kubelet: %w", err)
	}
	// Like upstream's config source, a Reflector into the kubelet's own
	// store rather than a SharedInformer: the kubelet needs no index and no
	// listeners, and its store hands each change straight to the pod
	// workers, so nothing is queued where Idle cannot see it.
	k.reflector, err = informer.NewReflector(informer.ReflectorOptions{
		Name:          "pods",
		ListerWatcher: pods,
		Store:         k.source,
		FieldSelector: "spec.nodeName=" + k.nodeName,
		Clock:         k.clock,
		Logger:        k.log,
		Progress:      &k.changed,
	})
	if err != nil {
		return nil, fmt.Errorf("kubelet: %w", err)
	}
	return k, nil
}

func newOwnedRuntime(clk clock.Clock, podCIDR netip.Prefix, opts Options) (*simulated.Runtime, error) {
	ipam, err := cni.New(cni.Options{Subnet: podCIDR})
	if err != nil {
		return nil, fmt.Errorf("kubelet: pod network: %w", err)
	}
	rt, err := simulated.New(simulated.Options{Clock: clk, Network: ipam, ClusterNetwork: opts.ClusterNetwork, Programs: opts.Programs, Logger: opts.Logger})
	if err != nil {
		return nil, fmt.Errorf("kubelet: runtime: %w", err)
	}
	return rt, nil
}

// NodeName returns the name of the kubelet's node.
func (k *Kubelet) NodeName() string { return k.nodeName }

// Runtime returns the container runtime the kubelet runs pods on: the one
// from Options, or the simulated one it owns. kube-proxy and tests reach
// pod IPs through it (simulated.Runtime.DialContext).
func (k *Kubelet) Runtime() cri.RuntimeService { return k.runtime }

// LogAddr returns the address of the kubelet's log server, which is the
// node's InternalIP and kubelet port. It is valid once Ready is closed.
func (k *Kubelet) LogAddr() netip.AddrPort {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.logAddr
}

// Ready returns a channel that is closed once the node is registered, its
// Lease exists, the pods bound to it have been listed and the log server
// listens. A node already registered with another podCIDR is refused (an
// Error in the log): the kubelet then never gets ready.
func (k *Kubelet) Ready() <-chan struct{} { return k.readyCh }

// Start runs the kubelet until ctx is done and returns once every
// goroutine it started has exited. It fails at once if the log server
// cannot listen or if Start was called before. Shutdown, when ctx ends:
//
//  1. the pod Reflector, the PLEG and wake-up loop, the heartbeats, the
//     event recorder and the log server stop; the Node and its Lease stay
//     in the API, so the Lease goes stale as a dead node's does;
//  2. the pod workers stop: their runtime calls return ctx's error and
//     no new worker starts;
//  3. only then the owned runtime stops, killing every container and
//     releasing the pod IPs, so no worker is left talking to it.
func (k *Kubelet) Start(ctx context.Context) error {
	k.mu.Lock()
	if k.started {
		k.mu.Unlock()
		return errors.New("kubelet: Start called twice")
	}
	k.started = true
	k.runCtx = ctx
	k.mu.Unlock()

	ln, err := net.Listen("tcp", net.JoinHostPort(NodeIP, "0"))
	if err != nil {
		return fmt.Errorf("kubelet %s: log server: %w", k.nodeName, err)
	}
	k.mu.Lock()
	k.logAddr = ln.Addr().(*net.TCPAddr).AddrPort()
	k.mu.Unlock()
	k.log.InfoContext(ctx, "starting", "logAddr", k.logAddr.String())

	// The runtime's context ends after the workers stopped (step 3), not
	// with ctx.
	rtCtx, rtCancel := context.WithCancel(context.WithoutCancel(ctx))
	var rtWG sync.WaitGroup
	if k.ownedRuntime != nil {
		rtWG.Go(func() { _ = k.ownedRuntime.Start(rtCtx) })
	}

	k.workers.start(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { _ = k.recorder.Start(ctx) })
	wg.Go(func() { k.serveLogs(ctx, ln) })
	wg.Go(func() { _ = k.reflector.Start(ctx) })
	wg.Go(func() { k.syncLoop(ctx) })
	wg.Go(func() { k.runHeartbeats(ctx) })
	<-ctx.Done()
	wg.Wait()
	k.workers.stop()
	rtCancel()
	rtWG.Wait()
	k.log.Info("stopped")
	return nil
}

package proxy

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/wait"
)

// DefaultNodePortAddress is where node ports listen: the InternalIP of
// every simulated node.
var DefaultNodePortAddress = netip.MustParseAddr("127.0.0.1")

// DefaultLoadBalancerPool is where LoadBalancer Services get their
// ingress IP: a range of 127.0.0.0/8 that no cluster address maps to, as
// a cloud's pool of external IPs would be.
var DefaultLoadBalancerPool = netip.MustParsePrefix("127.240.0.0/16")

// resyncPeriod is how often every Service is looked at again even with
// no change: a listener that could not bind (its address was taken) is
// tried again then.
const resyncPeriod = 30 * time.Second

// statusRetry bounds the tries of one load balancer status write, one
// right after another: a conflict means someone else changed the
// Service, so it is read again.
var statusRetry = wait.Backoff{Steps: 3}

// Options configure a Proxier. Clientset is required.
type Options struct {
	// Clientset reaches the API server: it lists and watches Services
	// and EndpointSlices, as system:kube-proxy may. Required.
	Clientset *client.Clientset
	// StatusClientset writes LoadBalancer Services' status (their
	// ingress IP), a cloud provider's service controller's job upstream,
	// so it may act as another identity, one that may update
	// services/status. Defaults to Clientset.
	StatusClientset *client.Clientset
	// NodeName is the node this proxy runs for: endpoints on it are the
	// local ones of externalTrafficPolicy and internalTrafficPolicy
	// Local. Defaults to "", with which Local is treated as Cluster (one
	// proxy for a host of several simulated nodes).
	NodeName string
	// NodePortAddress is where node ports listen. Defaults to
	// DefaultNodePortAddress.
	NodePortAddress netip.Addr
	// LoadBalancerPool is where LoadBalancer ingress IPs come from.
	// Defaults to DefaultLoadBalancerPool.
	LoadBalancerPool netip.Prefix
	// Clock times session affinity and resyncs. Defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to discarding.
	Logger *slog.Logger
	// Tracing, when set, records each forwarded connection as a
	// proxy.forward span of component "kube-proxy": the client, the
	// listener, the backend chosen among how many ready endpoints, and
	// the address the backend sees the connection from. A connection
	// carries no trace context (the proxy sees bytes, not requests), so
	// each is a trace of its own. Defaults to nil: nothing traced.
	Tracing *tracing.Tracing
}

// Proxier is a userspace kube-proxy: for each TCP port of each Service it
// listens on the Service's ClusterIP (mapped to loopback, see Loopback),
// its node port and its load balancer IP, and forwards each connection to
// a ready endpoint taken from the Service's EndpointSlices. Create it
// with New and run Start; its methods are safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/proxy/userspace (Proxier), removed
// upstream in 1.26; today's kube-proxy programs iptables or nftables to
// the same effect.
type Proxier struct {
	// statusCS writes load balancer status (Options.StatusClientset).
	statusCS   *client.Clientset
	nodeName   string
	nodePortIP netip.Addr
	lbPool     netip.Prefix
	clock      clock.Clock
	log        *slog.Logger
	tracer     trace.Tracer
	dialer     *Dialer

	cache *ServiceCache
	// syncCh holds one pending sync: changes that come while a sync
	// runs are coalesced into the next one.
	syncCh  chan struct{}
	readyCh chan struct{}
	// wg counts the accept loops and connection goroutines.
	wg sync.WaitGroup

	// The fields below are used only by Start's goroutine (sync).
	ports     map[portKey]*servicePort
	listeners map[netip.AddrPort]*listener
	// owners says which Service port and which side (internal or
	// external) each listener serves.
	owners map[netip.AddrPort]listenerOwner
	// bindFailed are the addresses that could not be bound, logged once.
	bindFailed map[netip.AddrPort]bool
	lbIPs      map[string]netip.Addr

	// mu guards the fields below.
	mu      sync.Mutex
	started bool
	// conns are the open connections, both sides; stopping is set once
	// Start closes them, after which no connection is tracked.
	conns    map[net.Conn]struct{}
	stopping bool
	status   []PortStatus
	changed  wait.Broadcast
}

// portKey names one port of one Service: "ns/name:port".
type portKey string

// servicePort is what the proxy keeps for one Service port: the
// backends of its ClusterIP (internal) and of its node port and load
// balancer (external).
type servicePort struct {
	internal, external *loadBalancer
}

// listenerOwner is the Service port and side a listener forwards for.
type listenerOwner struct {
	key      portKey
	external bool
}

// PortStatus is what the proxy does for one Service port, for tests and
// tools: where it listens and how many ready backends it forwards to.
type PortStatus struct {
	// Service is "namespace/name"; Port the Service port's name, or its
	// number when unnamed.
	Service, Port string
	// Listening are the addresses (cluster addresses as the API shows
	// them, node ports and load balancer IPs) with a listener.
	Listening []netip.AddrPort
	// Endpoints and ExternalEndpoints are how many ready backends the
	// ClusterIP, and the node port and load balancer, forward to.
	Endpoints, ExternalEndpoints int
}

// New validates opts and returns a Proxier that is not running.
func New(opts Options) (*Proxier, error) {
	if opts.Clientset == nil {
		return nil, errors.New("proxy: Clientset is required")
	}
	if opts.StatusClientset == nil {
		opts.StatusClientset = opts.Clientset
	}
	if !opts.NodePortAddress.IsValid() {
		opts.NodePortAddress = DefaultNodePortAddress
	}
	if !opts.LoadBalancerPool.IsValid() {
		opts.LoadBalancerPool = DefaultLoadBalancerPool
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	log := logging.OrDiscard(opts.Logger).With("component", "kube-proxy")
	p := &Proxier{
		statusCS: opts.StatusClientset, nodeName: opts.NodeName, nodePortIP: opts.NodePortAddress, lbPool: opts.LoadBalancerPool.Masked(),
		clock: opts.Clock, log: log, tracer: opts.Tracing.Tracer("kube-proxy"), dialer: &Dialer{},
		syncCh: make(chan struct{}, 1), readyCh: make(chan struct{}),
		ports: map[portKey]*servicePort{}, listeners: map[netip.AddrPort]*listener{}, owners: map[netip.AddrPort]listenerOwner{},
		bindFailed: map[netip.AddrPort]bool{}, lbIPs: map[string]netip.Addr{}, conns: map[net.Conn]struct{}{},
	}
	cache, err := NewServiceCache(ServiceCacheOptions{
		Clientset: opts.Clientset, OnChange: p.queueSync, ResyncPeriod: resyncPeriod, Clock: opts.Clock, Logger: log,
	})
	if err != nil {
		return nil, err
	}
	p.cache = cache
	return p, nil
}

// queueSync asks for a sync; changes that come while one is pending
// are coalesced into it. It never blocks.
func (p *Proxier) queueSync() {
	select {
	case p.syncCh <- struct{}{}:
	default: // a sync is pending already
	}
}

// Ready returns a channel closed once the informers have synced and the
// first sync has opened the listeners.
func (p *Proxier) Ready() <-chan struct{} { return p.readyCh }

// Changed returns a channel closed at the end of the next sync: a test
// takes it, then looks at Status, and waits on it while Status is not
// what it wants.
func (p *Proxier) Changed() <-chan struct{} { return p.changed.Wait() }

// Status returns what the proxy does for each Service port, sorted by
// Service and port, as of the last sync. The result is the caller's.
func (p *Proxier) Status() []PortStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := slices.Clone(p.status)
	for i := range out {
		out[i].Listening = slices.Clone(out[i].Listening)
	}
	return out
}

// Start runs the proxy until ctx is done. It returns once every listener
// is closed and every goroutine it started has returned. Shutdown:
//
//  1. the sync loop stops, so no listener opens any more;
//  2. every listener closes, and its accept loop returns;
//  3. every open connection closes (both sides), and its goroutines
//     return;
//  4. the informers stop.
func (p *Proxier) Start(ctx context.Context) error {
	p.mu.Lock()
	if p.started {
		p.mu.Unlock()
		return errors.New("proxy: started twice")
	}
	p.started = true
	p.mu.Unlock()

	cacheCtx, stopCache := context.WithCancel(ctx)
	defer stopCache()
	cacheDone := make(chan error, 1)
	go func() { cacheDone <- p.cache.Start(cacheCtx) }()
	defer func() { stopCache(); <-cacheDone }()

	defer p.shutdown()
	p.log.Info("starting")
	if err := p.cache.WaitForSync(ctx); err != nil {
		return nil // stopped before the caches synced
	}
	p.sync(ctx)
	close(p.readyCh)
	p.log.Info("synced")
	for {
		select {
		case <-ctx.Done():
			p.log.Info("stopping")
			return nil
		case <-p.syncCh:
			p.sync(ctx)
		}
	}
}

// shutdown closes every listener and connection and waits for their
// goroutines (steps 2 and 3 of Start).
func (p *Proxier) shutdown() {
	for addr, l := range p.listeners {
		_ = l.ln.Close()
		<-l.doneCh
		delete(p.listeners, addr)
	}
	p.mu.Lock()
	p.stopping = true
	conns := make([]net.Conn, 0, len(p.conns))
	for c := range p.conns {
		conns = append(conns, c)
	}
	p.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
	p.wg.Wait()
}

// track records an open connection so shutdown can close it; false once
// the proxy is stopping.
func (p *Proxier) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopping {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxier) untrack(c net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.conns, c)
}

// portName is how a Service port is named in its portKey and in its
// EndpointSlices: its name, or its number when unnamed.
func portName(sp *corev1.ServicePort) string {
	if sp.Name != "" {
		return sp.Name
	}
	return strconv.Itoa(int(sp.Port))
}

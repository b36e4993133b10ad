package dns

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"sync"

	miekgdns "github.com/miekg/dns"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/proxy"
	"github.com/minicp/minicp/tracing"
)

// DefaultDomain is the cluster domain, kubelet's --cluster-domain
// default.
const DefaultDomain = "cluster.local"

// DefaultServiceIP is the kube-dns Service's ClusterIP: the tenth
// address of the default service CIDR, as kubeadm chooses it.
var DefaultServiceIP = netip.MustParseAddr("10.96.0.10")

// Port is DNS's port.
const Port = 53

// Options configure a Server. Clientset is required.
type Options struct {
	// Clientset reaches the API server. Required.
	Clientset *client.Clientset
	// Domain is the cluster domain. Defaults to DefaultDomain.
	Domain string
	// ListenAddr is where to listen first. Defaults to the loopback
	// address of DefaultServiceIP, port 53; when it cannot be bound, or
	// its port is 0, the server takes a free port of 127.0.0.1.
	ListenAddr netip.AddrPort
	// Clock drives the informers' resync. Defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to discarding.
	Logger *slog.Logger
	// Tracing, when set, records each query as a dns.query span of
	// component "dns": the client's address, the question, the answer.
	// Defaults to nil: nothing traced.
	Tracing *tracing.Tracing
}

// Server is the cluster DNS server. Create it with New and run Start;
// its methods are safe for concurrent use.
//
// Upstream: github.com/coredns/coredns/plugin/kubernetes (Kubernetes).
type Server struct {
	cs      *client.Clientset
	domain  string // "cluster.local.", lower case, fully qualified
	listen  netip.AddrPort
	log     *slog.Logger
	cache   *proxy.ServiceCache
	tracing *tracing.Tracing
	readyCh chan struct{}

	// mu guards the fields below.
	mu      sync.Mutex
	started bool
	addr    netip.AddrPort
}

// New validates opts and returns a Server that is not running.
func New(opts Options) (*Server, error) {
	if opts.Clientset == nil {
		return nil, errors.New("dns: Clientset is required")
	}
	if opts.Domain == "" {
		opts.Domain = DefaultDomain
	}
	if !opts.ListenAddr.IsValid() {
		opts.ListenAddr = netip.AddrPortFrom(proxy.Loopback(DefaultServiceIP), Port)
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	log := logging.OrDiscard(opts.Logger).With("component", "dns")
	cache, err := proxy.NewServiceCache(proxy.ServiceCacheOptions{Clientset: opts.Clientset, Clock: opts.Clock, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("dns: %w", err)
	}
	s := &Server{
		cs: opts.Clientset, domain: miekgdns.Fqdn(strings.ToLower(opts.Domain)), listen: opts.ListenAddr,
		log: log, cache: cache, tracing: opts.Tracing, readyCh: make(chan struct{}),
	}
	return s, nil
}

// Ready returns a channel closed once the server listens and its
// informers have synced.
func (s *Server) Ready() <-chan struct{} { return s.readyCh }

// Addr returns where the server listens (UDP and TCP, one port); valid
// once Ready is closed.
func (s *Server) Addr() netip.AddrPort {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Domain returns the cluster domain, without the final dot.
func (s *Server) Domain() string { return strings.TrimSuffix(s.domain, ".") }

// Start serves DNS until ctx is done, then returns once the listeners are
// closed and every goroutine it started has returned. It returns an error
// when it can bind no address at all.
func (s *Server) Start(ctx context.Context) error {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return errors.New("dns: started twice")
	}
	s.started = true
	s.mu.Unlock()

	udp, tcp, err := s.bind()
	if err != nil {
		return err
	}
	handler := miekgdns.HandlerFunc(s.serveDNS)
	if s.tracing != nil {
		handler = traced(s.tracing.Tracer("dns"), handler)
	}
	servers := []*miekgdns.Server{
		{PacketConn: udp, Handler: handler},
		{Listener: tcp, Handler: handler},
	}
	var wg sync.WaitGroup
	factoryCtx, stopFactory := context.WithCancel(ctx)
	wg.Go(func() { _ = s.cache.Start(factoryCtx) })
	for _, srv := range servers {
		// Shutdown fails on a server that has not started yet, so wait
		// for it to start (or to fail) before anything may stop it.
		started, done := make(chan struct{}), make(chan struct{})
		srv.NotifyStartedFunc = func() { close(started) }
		wg.Go(func() {
			defer close(done)
			if err := srv.ActivateAndServe(); err != nil && ctx.Err() == nil {
				s.log.Error("dns server stopped", "err", err)
			}
		})
		select {
		case <-started:
		case <-done:
		}
	}
	// Shutdown, in order: the servers (their listeners and in-flight
	// queries), then the informers.
	defer func() {
		for _, srv := range servers {
			_ = srv.Shutdown()
		}
		stopFactory()
		wg.Wait()
	}()
	if err := s.cache.WaitForSync(ctx); err != nil {
		return nil // stopped before the caches synced
	}
	close(s.readyCh)
	s.log.Info("serving", "addr", s.Addr().String(), "domain", s.Domain())
	<-ctx.Done()
	return nil
}

// bind opens the UDP and TCP sockets: on the configured address, or else
// on a free port of 127.0.0.1 that both protocols can have.
func (s *Server) bind() (net.PacketConn, net.Listener, error) {
	if s.listen.Port() != 0 {
		udp, tcp, err := bindBoth(s.listen)
		if err == nil {
			s.setAddr(s.listen)
			return udp, tcp, nil
		}
		s.log.Info("cannot listen on the kube-dns address; using a free port", "addr", s.listen.String(), "err", err)
	}
	// A free UDP port may be taken for TCP: try a few.
	const tries = 5
	for range tries {
		udp, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			return nil, nil, fmt.Errorf("dns: listen: %w", err)
		}
		ap := udp.LocalAddr().(*net.UDPAddr).AddrPort()
		tcp, err := net.Listen("tcp", ap.String())
		if err == nil {
			s.setAddr(ap)
			return udp, tcp, nil
		}
		_ = udp.Close()
	}
	return nil, nil, fmt.Errorf("dns: no port free for both UDP and TCP on 127.0.0.1")
}

func bindBoth(ap netip.AddrPort) (net.PacketConn, net.Listener, error) {
	udp, err := net.ListenPacket("udp", ap.String())
	if err != nil {
		return nil, nil, err
	}
	tcp, err := net.Listen("tcp", ap.String())
	if err != nil {
		_ = udp.Close()
		return nil, nil, err
	}
	return udp, tcp, nil
}

func (s *Server) setAddr(ap netip.AddrPort) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addr = ap
}

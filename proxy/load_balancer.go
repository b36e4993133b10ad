package proxy

import (
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
)

// backend is one ready endpoint of a Service port: a pod's address (a
// cluster address, mapped to loopback when dialled), its node, and the
// pod's name when the slice names it (for traces).
type backend struct {
	addr netip.AddrPort
	node string
	pod  string
}

// affinityPolicy is a Service's sessionAffinity: with timeout > 0, a
// client IP keeps going to the backend it last used, until it has not
// been seen for timeout.
type affinityPolicy struct {
	timeout time.Duration
}

// affinityEntry is where a client IP went last, and when.
type affinityEntry struct {
	backend netip.AddrPort
	last    time.Time
}

// loadBalancer picks a backend per new connection: round robin over the
// ready backends, or the client's previous backend under ClientIP
// affinity. It is safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/proxy/userspace (LoadBalancerRR), which
// the userspace kube-proxy used.
type loadBalancer struct {
	clock clock.Clock

	// mu guards the fields below.
	mu       sync.Mutex
	backends []backend
	// next is the index of the backend the next round-robin pick takes.
	next     int
	affinity affinityPolicy
	// clients holds the affinity entries; it is emptied when affinity is
	// turned off, and entries of backends that left are dropped.
	clients map[netip.Addr]affinityEntry
}

func newLoadBalancer(clk clock.Clock) *loadBalancer {
	return &loadBalancer{clock: clk, clients: map[netip.Addr]affinityEntry{}}
}

// update replaces the backends and the affinity policy. Connections in
// flight are not touched: they hold their own backend.
func (lb *loadBalancer) update(backends []backend, affinity affinityPolicy) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if !slices.Equal(lb.backends, backends) {
		lb.backends = backends
		// Start where the new list would have continued; an index past
		// the end wraps.
		if len(backends) > 0 {
			lb.next %= len(backends)
		} else {
			lb.next = 0
		}
	}
	if affinity != lb.affinity {
		lb.affinity = affinity
		clear(lb.clients)
	}
	for ip, e := range lb.clients {
		if !slices.ContainsFunc(backends, func(b backend) bool { return b.addr == e.backend }) {
			delete(lb.clients, ip)
		}
	}
}

// pick returns the backend for a new connection from client, skipping
// those in tried (backends that refused this connection already), and
// how many backends it chose from; false when there is none.
func (lb *loadBalancer) pick(client netip.Addr, tried []netip.AddrPort) (backend, int, bool) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	now := lb.clock.Now()
	if lb.affinity.timeout > 0 && len(tried) == 0 {
		if e, ok := lb.clients[client]; ok && now.Sub(e.last) < lb.affinity.timeout {
			e.last = now
			lb.clients[client] = e
			i := slices.IndexFunc(lb.backends, func(b backend) bool { return b.addr == e.backend })
			if i >= 0 {
				return lb.backends[i], len(lb.backends), true
			}
			return backend{addr: e.backend}, len(lb.backends), true
		}
	}
	for range lb.backends {
		b := lb.backends[lb.next]
		lb.next = (lb.next + 1) % len(lb.backends)
		if slices.Contains(tried, b.addr) {
			continue
		}
		if lb.affinity.timeout > 0 {
			lb.clients[client] = affinityEntry{backend: b.addr, last: now}
		}
		return b, len(lb.backends), true
	}
	return backend{}, len(lb.backends), false
}

// size is how many backends there are.
func (lb *loadBalancer) size() int {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	return len(lb.backends)
}

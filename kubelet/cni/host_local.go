package cni

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync"
)

// ErrNoIPAvailable is returned by Add when every address of the subnet is
// allocated.
var ErrNoIPAvailable = errors.New("no IP addresses available in range set")

// DefaultSubnet is the subnet of a HostLocal whose Options name none:
// containerd's default CNI network.
var DefaultSubnet = netip.MustParsePrefix("10.88.0.0/16")

// Options configure a HostLocal.
type Options struct {
	// Subnet is the range to allocate from, normally the node's
	// spec.podCIDR. IPv4, with a prefix length of at most 30. Defaults to
	// DefaultSubnet.
	Subnet netip.Prefix
}

// HostLocal is a Plugin that allocates addresses from one IPv4 subnet. Of
// 10.244.3.0/24 it never hands out the network address (.0), the gateway
// (.1) or the broadcast address (.255), which leaves .2 to .254.
//
// Allocation is round-robin, as in the host-local plugin: it takes the
// first free address after the one it allocated last, wrapping around at
// the end of the range. So a released address is reused only after the
// others (or at once when it is the only free one), which keeps a stale
// Endpoint or connection from reaching a new pod for as long as possible.
// The order is deterministic. Safe for concurrent use.
//
// Upstream: containernetworking/plugins/plugins/ipam/host-local
// (backend/allocator.IPAllocator).
type HostLocal struct {
	subnet  netip.Prefix
	gateway netip.Addr
	// first and last bound the allocatable range, inclusive.
	first, last netip.Addr

	// mu guards byID, byIP and lastReserved.
	mu sync.Mutex
	// byID and byIP are the allocations, both ways: an ID is in byID if
	// and only if its address is in byIP.
	byID map[string]netip.Addr
	byIP map[netip.Addr]string
	// lastReserved is the address allocated last; the next search starts
	// after it.
	lastReserved netip.Addr
}

var _ Plugin = (*HostLocal)(nil)

// New returns a HostLocal for opts.Subnet.
func New(opts Options) (*HostLocal, error) {
	subnet := opts.Subnet
	if !subnet.IsValid() {
		subnet = DefaultSubnet
	}
	subnet = subnet.Masked()
	if !subnet.Addr().Is4() {
		return nil, fmt.Errorf("cni: subnet %s: only IPv4 is supported", subnet)
	}
	// A /31 or /32 has no room for a gateway and a pod besides the network
	// and broadcast addresses.
	if subnet.Bits() > 30 {
		return nil, fmt.Errorf("cni: subnet %s is too small: the prefix length must be at most 30", subnet)
	}
	gateway := subnet.Addr().Next()
	h := &HostLocal{
		subnet:  subnet,
		gateway: gateway,
		first:   gateway.Next(),
		last:    broadcast(subnet).Prev(),
		byID:    map[string]netip.Addr{},
		byIP:    map[netip.Addr]string{},
	}
	h.lastReserved = h.last // so that the first search starts at first
	return h, nil
}

// Subnet returns the range the plugin allocates from.
func (h *HostLocal) Subnet() netip.Prefix { return h.subnet }

// Gateway returns the subnet's gateway, its first address.
func (h *HostLocal) Gateway() netip.Addr { return h.gateway }

// Add allocates an address for rt.ContainerID, or returns the one it
// already has. It fails with ErrNoIPAvailable when the subnet is full.
func (h *HostLocal) Add(ctx context.Context, rt RuntimeConf) (Result, error) {
	if rt.ContainerID == "" {
		return Result{}, errors.New("cni: add: empty container ID")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if ip, ok := h.byID[rt.ContainerID]; ok {
		return h.resultFor(ip), nil
	}
	for ip := h.next(h.lastReserved); ; ip = h.next(ip) {
		if _, used := h.byIP[ip]; !used {
			h.byID[rt.ContainerID] = ip
			h.byIP[ip] = rt.ContainerID
			h.lastReserved = ip
			return h.resultFor(ip), nil
		}
		if ip == h.lastReserved {
			return Result{}, fmt.Errorf("cni: add %s: %w: %s-%s", rt.ContainerID, ErrNoIPAvailable, h.first, h.last)
		}
	}
}

// Del releases rt.ContainerID's address, if it has one.
func (h *HostLocal) Del(ctx context.Context, rt RuntimeConf) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ip, ok := h.byID[rt.ContainerID]; ok {
		delete(h.byID, rt.ContainerID)
		delete(h.byIP, ip)
	}
	return nil
}

// Allocated returns how many addresses are in use.
func (h *HostLocal) Allocated() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.byID)
}

// next returns the allocatable address after ip, wrapping around.
func (h *HostLocal) next(ip netip.Addr) netip.Addr {
	if ip == h.last {
		return h.first
	}
	return ip.Next()
}

func (h *HostLocal) resultFor(ip netip.Addr) Result {
	return Result{IP: netip.PrefixFrom(ip, h.subnet.Bits()), Gateway: h.gateway}
}

// broadcast returns the last address of an IPv4 subnet.
func broadcast(p netip.Prefix) netip.Addr {
	a := p.Addr().As4()
	hostBits := 32 - p.Bits()
	v := uint32(a[0])<<24 | uint32(a[1])<<16 | uint32(a[2])<<8 | uint32(a[3])
	v |= 1<<hostBits - 1
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

package core

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"strconv"
	"strings"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
)

// The errors of an allocator.
var (
	// ErrAllocated: the value is taken.
	ErrAllocated = errors.New("provided value is already allocated")
	// ErrNotInRange: the value is outside the allocator's range.
	ErrNotInRange = errors.New("provided value is not in the valid range")
	// ErrFull: every value of the range is taken.
	ErrFull = errors.New("range is full")
)

// The service IP range and node port range of a cluster that sets none,
// kube-apiserver's defaults (--service-cluster-ip-range,
// --service-node-port-range).
const (
	DefaultServiceCIDR   = "10.96.0.0/12"
	DefaultNodePortRange = "30000-32767"
)

// allocationOwnerKey is the annotation of an allocation record that names
// what holds the value ("default/web"), for people reading etcd.
const allocationOwnerKey = "minicp.io/allocated-to"

// allocationAttempts bounds the random probes of AllocateNext before it
// lists what is taken: with a range less than half full, 16 probes all
// missing has odds under 1 in 65000.
const allocationAttempts = 16

// The static bands, min(max(lo, size/step), hi), as upstream: for the
// default service CIDR the first 256 IPs, for the default node port range
// the first 86 ports.
const (
	ipStaticBandMin        = 16
	ipStaticBandMax        = 256
	ipStaticBandStep       = 16
	nodePortStaticBandMin  = 16
	nodePortStaticBandMax  = 128
	nodePortStaticBandStep = 32
)

// Allocator hands out the values of a range (the cluster IPs of the
// service CIDR, or the node ports), each at most once. Every allocation is
// one storage key, written create-if-absent, so API servers sharing one
// etcd never hand out a value twice and a restart forgets nothing; this is
// what upstream's IPAddress objects (networking.k8s.io/v1) do for IPs,
// kept internal here. It is safe for concurrent use.
//
// Random allocations prefer the upper part of the range, leaving its lower
// "static band" to clients that ask for a value (the kubernetes Service's
// 10.96.0.1, a DNS service's 10.96.0.10), as upstream does since KEP-3070
// (IPs) and KEP-3668 (node ports).
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/service/ipallocator and
// portallocator.
type Allocator struct {
	storage storage.Interface
	keyRoot string
	r       valueRange
	// static is the size of the static band: offsets [first, first+static)
	// are handed out at random only when the rest is full.
	static int
}

// valueRange is the values an Allocator hands out, by offset.
type valueRange interface {
	// bounds are the first and last offsets that may be handed out.
	bounds() (first, last int)
	value(offset int) string
	offset(value string) (int, bool)
	String() string
}

// AllocatorOptions configures NewClusterIPAllocator and
// NewNodePortAllocator.
type AllocatorOptions struct {
	// Storage holds one key per allocation. Required; its objects are
	// metav1.PartialObjectMetadata.
	Storage storage.Interface
	// KeyRoot is the storage key under which allocations are kept.
	// Defaults to "/ranges/serviceips" or "/ranges/servicenodeports", the
	// names of upstream's range objects.
	KeyRoot string
	// Range is the CIDR ("10.96.0.0/12") or the port range
	// ("30000-32767"). Defaults to DefaultServiceCIDR or
	// DefaultNodePortRange.
	Range string
}

// NewClusterIPAllocator returns an allocator of the IPs of an IPv4 CIDR,
// less its network and broadcast addresses.
func NewClusterIPAllocator(opts AllocatorOptions) (*Allocator, error) {
	if opts.Range == "" {
		opts.Range = DefaultServiceCIDR
	}
	if opts.KeyRoot == "" {
		opts.KeyRoot = "/ranges/serviceips"
	}
	prefix, err := netip.ParsePrefix(opts.Range)
	if err != nil || !prefix.Addr().Is4() || prefix.Bits() > 30 {
		return nil, fmt.Errorf("service CIDR %q: want an IPv4 CIDR of at least 4 addresses", opts.Range)
	}
	r := ipRange{prefix: prefix.Masked()}
	return newAllocator(opts, r, staticBand(r.size(), ipStaticBandMin, ipStaticBandMax, ipStaticBandStep))
}

// NewNodePortAllocator returns an allocator of the ports of a range
// "lo-hi", both included.
func NewNodePortAllocator(opts AllocatorOptions) (*Allocator, error) {
	if opts.Range == "" {
		opts.Range = DefaultNodePortRange
	}
	if opts.KeyRoot == "" {
		opts.KeyRoot = "/ranges/servicenodeports"
	}
	loS, hiS, ok := strings.Cut(opts.Range, "-")
	lo, err1 := strconv.Atoi(loS)
	hi, err2 := strconv.Atoi(hiS)
	if !ok || err1 != nil || err2 != nil || lo < 1 || hi > 65535 || lo > hi {
		return nil, fmt.Errorf("node port range %q: want lo-hi within 1-65535", opts.Range)
	}
	r := portRange{lo: lo, hi: hi}
	return newAllocator(opts, r, staticBand(hi-lo+1, nodePortStaticBandMin, nodePortStaticBandMax, nodePortStaticBandStep))
}

func newAllocator(opts AllocatorOptions, r valueRange, static int) (*Allocator, error) {
	if opts.Storage == nil {
		return nil, errors.New("allocator: Storage is required")
	}
	return &Allocator{storage: opts.Storage, keyRoot: opts.KeyRoot, r: r, static: static}, nil
}

// staticBand is min(max(lo, size/step), hi), or 0 for ranges too small to
// split: upstream's calculateRangeOffset.
func staticBand(size, lo, hi, step int) int {
	if size <= lo {
		return 0
	}
	return min(max(lo, size/step), hi)
}

// String is the range, as messages show it: "10.96.0.0/12",
// "30000-32767".
func (a *Allocator) String() string { return a.r.String() }

// Contains reports whether value is in the range and may be handed out.
func (a *Allocator) Contains(value string) bool {
	off, ok := a.r.offset(value)
	first, last := a.r.bounds()
	return ok && off >= first && off <= last
}

func (a *Allocator) key(value string) string { return a.keyRoot + "/" + value }

// Allocate takes value for owner ("namespace/name"). ErrNotInRange if it
// is outside the range, ErrAllocated if it is taken. With dryRun it only
// checks.
func (a *Allocator) Allocate(ctx context.Context, value, owner string, dryRun bool) error {
	if !a.Contains(value) {
		return ErrNotInRange
	}
	if dryRun {
		_, err := a.storage.Get(ctx, a.key(value), storage.GetOptions{})
		switch {
		case err == nil:
			return ErrAllocated
		case errors.Is(err, storage.ErrNotFound):
			return nil
		}
		return err
	}
	record := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
		Name: value, Annotations: map[string]string{allocationOwnerKey: owner}}}
	_, err := a.storage.Create(ctx, a.key(value), record)
	if errors.Is(err, storage.ErrExists) {
		return ErrAllocated
	}
	return err
}

// AllocateNext takes a free value for owner and returns it: a random one
// outside the static band if it can find one, else the first free one. ErrFull
// if there is none. With dryRun it returns a free value without taking it.
func (a *Allocator) AllocateNext(ctx context.Context, owner string, dryRun bool) (string, error) {
	first, last := a.r.bounds()
	dynamic := first + a.static
	// Random probes find a free value at once in any range that is not
	// nearly full; a range that is needs a list.
	for range allocationAttempts {
		lo := dynamic
		if lo > last {
			lo = first
		}
		v := a.r.value(lo + rand.IntN(last-lo+1))
		err := a.Allocate(ctx, v, owner, dryRun)
		if !errors.Is(err, ErrAllocated) {
			return v, err
		}
	}
	taken, err := a.allocated(ctx)
	if err != nil {
		return "", err
	}
	// The dynamic band first, then the static one.
	for _, band := range [][2]int{{dynamic, last}, {first, dynamic - 1}} {
		for off := band[0]; off <= band[1]; off++ {
			v := a.r.value(off)
			if taken[v] {
				continue
			}
			err := a.Allocate(ctx, v, owner, dryRun)
			if errors.Is(err, ErrAllocated) {
				continue // taken since the list
			}
			return v, err
		}
	}
	return "", ErrFull
}

// allocated lists the values taken.
func (a *Allocator) allocated(ctx context.Context) (map[string]bool, error) {
	list, err := a.storage.GetList(ctx, a.keyRoot+"/", storage.ListOptions{Recursive: true})
	if err != nil {
		return nil, err
	}
	taken := make(map[string]bool, len(list.Items))
	for _, obj := range list.Items {
		taken[metav1.MustAccessor(obj).Name] = true
	}
	return taken, nil
}

// Release frees value. Freeing a value that is not taken is not an error.
func (a *Allocator) Release(ctx context.Context, value string) error {
	if !a.Contains(value) {
		return nil
	}
	_, err := a.storage.Delete(ctx, a.key(value), storage.DeleteOptions{})
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	return err
}

// NewAllocationRecord returns an empty allocation record: the NewFunc of
// the storage an Allocator writes to.
func NewAllocationRecord() runtime.Object { return &metav1.PartialObjectMetadata{} }

// ipRange is the addresses of an IPv4 prefix; offset 0 is the network
// address and the last the broadcast address, neither handed out.
type ipRange struct{ prefix netip.Prefix }

func (r ipRange) size() int { return 1 << (32 - r.prefix.Bits()) }

func (r ipRange) bounds() (int, int) { return 1, r.size() - 2 }

func (r ipRange) value(offset int) string {
	v := be32(r.prefix.Addr().As4()) + uint32(offset)
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}).String()
}

func (r ipRange) offset(value string) (int, bool) {
	addr, err := netip.ParseAddr(value)
	if err != nil || !addr.Is4() || !r.prefix.Contains(addr) {
		return 0, false
	}
	a, base := addr.As4(), r.prefix.Addr().As4()
	return int(be32(a) - be32(base)), true
}

func be32(b [4]byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

func (r ipRange) String() string { return r.prefix.String() }

// portRange is the ports lo to hi; offset 0 is lo.
type portRange struct{ lo, hi int }

func (r portRange) bounds() (int, int) { return 0, r.hi - r.lo }

func (r portRange) value(offset int) string { return strconv.Itoa(r.lo + offset) }

func (r portRange) offset(value string) (int, bool) {
	p, err := strconv.Atoi(value)
	if err != nil || p < r.lo || p > r.hi {
		return 0, false
	}
	return p - r.lo, true
}

func (r portRange) String() string { return fmt.Sprintf("%d-%d", r.lo, r.hi) }

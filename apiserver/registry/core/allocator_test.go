package core_test

import (
	"net/netip"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry/core"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
)

func newAllocatorStorage(t *testing.T) storage.Interface {
	t.Helper()
	s, err := storage.NewStore(storagetest.Client(t), storage.StoreOptions{
		Prefix: storagetest.Prefix(t), GroupResource: runtime.GroupResource{Resource: "allocations"}, NewFunc: core.NewAllocationRecord,
	})
	require.NoError(t, err)
	return s
}

func TestClusterIPAllocator(t *testing.T) {
	ctx := t.Context()
	a, err := core.NewClusterIPAllocator(core.AllocatorOptions{Storage: newAllocatorStorage(t)})
	require.NoError(t, err)
	assert.Equal(t, "10.96.0.0/12", a.String())

	for _, tc := range []struct {
		ip   string
		want bool
	}{
		{"10.96.0.0", false}, {"10.96.0.1", true}, {"10.111.255.254", true}, {"10.111.255.255", false}, {"10.112.0.0", false},
		{"192.168.1.1", false}, {"fd00::1", false}, {"nonsense", false},
	} {
		assert.Equal(t, tc.want, a.Contains(tc.ip), "Contains(%s)", tc.ip)
	}

	require.NoError(t, a.Allocate(ctx, "10.96.0.1", "default/kubernetes", false))
	assert.ErrorIs(t, a.Allocate(ctx, "10.96.0.1", "default/other", false), core.ErrAllocated)
	assert.ErrorIs(t, a.Allocate(ctx, "10.96.0.1", "default/other", true), core.ErrAllocated, "a dry run sees it taken")
	assert.ErrorIs(t, a.Allocate(ctx, "10.112.0.1", "default/other", false), core.ErrNotInRange)
	require.NoError(t, a.Allocate(ctx, "10.96.0.2", "default/dry", true))
	require.NoError(t, a.Allocate(ctx, "10.96.0.2", "default/real", false), "a dry run took nothing")

	// Random allocations stay out of the static band, the first 256
	// addresses, which clients that ask for an address use.
	band := netip.MustParseAddr("10.96.1.0")
	seen := map[string]bool{}
	for range 50 {
		ip, err := a.AllocateNext(ctx, "default/svc", false)
		require.NoError(t, err)
		addr := netip.MustParseAddr(ip)
		assert.True(t, a.Contains(ip), "%s in range", ip)
		assert.False(t, addr.Less(band), "%s is out of the static band", ip)
		assert.False(t, seen[ip], "%s handed out twice", ip)
		seen[ip] = true
	}

	require.NoError(t, a.Release(ctx, "10.96.0.1"))
	require.NoError(t, a.Release(ctx, "10.96.0.1"), "releasing a free value is fine")
	require.NoError(t, a.Allocate(ctx, "10.96.0.1", "default/kubernetes", false))
}

func TestAllocatorFillsUp(t *testing.T) {
	ctx := t.Context()
	a, err := core.NewClusterIPAllocator(core.AllocatorOptions{Storage: newAllocatorStorage(t), Range: "10.0.0.0/29"})
	require.NoError(t, err)
	// A /29 is too small for a static band: its six usable addresses are
	// all handed out at random, then the range is full.
	got := map[string]bool{}
	for range 6 {
		ip, err := a.AllocateNext(ctx, "ns/svc", false)
		require.NoError(t, err)
		got[ip] = true
	}
	assert.Len(t, got, 6)
	_, err = a.AllocateNext(ctx, "ns/svc", false)
	assert.ErrorIs(t, err, core.ErrFull)
	require.NoError(t, a.Release(ctx, "10.0.0.3"))
	ip, err := a.AllocateNext(ctx, "ns/svc", false)
	require.NoError(t, err)
	assert.Equal(t, "10.0.0.3", ip, "the only free address")

	for _, bad := range []string{"10.0.0.0/31", "fd00::/64", "nonsense"} {
		_, err := core.NewClusterIPAllocator(core.AllocatorOptions{Storage: newAllocatorStorage(t), Range: bad})
		assert.Error(t, err, "NewClusterIPAllocator(%s)", bad)
	}
	_, err = core.NewClusterIPAllocator(core.AllocatorOptions{})
	assert.Error(t, err, "Storage is required")
}

func TestNodePortAllocatorConcurrent(t *testing.T) {
	ctx := t.Context()
	st := newAllocatorStorage(t)
	// Two allocators over one storage stand for two API servers on one
	// etcd: together they never hand out a port twice.
	newAllocator := func() *core.Allocator {
		a, err := core.NewNodePortAllocator(core.AllocatorOptions{Storage: st, Range: "30000-30019"})
		require.NoError(t, err)
		return a
	}
	servers := []*core.Allocator{newAllocator(), newAllocator()}
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			port, err := servers[i%2].AllocateNext(ctx, "ns/svc"+strconv.Itoa(i), false)
			if !assert.NoError(t, err) {
				return
			}
			mu.Lock()
			got[port]++
			mu.Unlock()
		})
	}
	wg.Wait()
	assert.Len(t, got, 20, "20 distinct ports: %v", got)
	_, err := servers[0].AllocateNext(ctx, "ns/late", false)
	assert.ErrorIs(t, err, core.ErrFull)
	assert.ErrorIs(t, servers[1].Allocate(ctx, "29999", "ns/low", false), core.ErrNotInRange)
	assert.Equal(t, "30000-30019", servers[0].String())
}

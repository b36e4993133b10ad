package cni_test

import (
	"fmt"
	"net/netip"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cni"
)

func newHostLocal(t *testing.T, subnet string) *cni.HostLocal {
	t.Helper()
	h, err := cni.New(cni.Options{Subnet: netip.MustParsePrefix(subnet)})
	require.NoError(t, err, "New(%s)", subnet)
	return h
}

func add(t *testing.T, h *cni.HostLocal, id string) string {
	t.Helper()
	res, err := h.Add(t.Context(), cni.RuntimeConf{ContainerID: id})
	require.NoError(t, err, "Add(%s)", id)
	return res.IP.Addr().String()
}

func TestNewValidatesTheSubnet(t *testing.T) {
	tests := []struct {
		name    string
		subnet  netip.Prefix
		wantErr bool
		want    string
	}{
		{name: "zero defaults to containerd's network", want: "10.88.0.0/16"},
		{name: "node podCIDR", subnet: netip.MustParsePrefix("10.244.3.0/24"), want: "10.244.3.0/24"},
		{name: "host bits are masked", subnet: netip.MustParsePrefix("10.244.3.7/24"), want: "10.244.3.0/24"},
		{name: "smallest usable", subnet: netip.MustParsePrefix("10.0.0.0/30"), want: "10.0.0.0/30"},
		{name: "/31 too small", subnet: netip.MustParsePrefix("10.0.0.0/31"), wantErr: true},
		{name: "IPv6", subnet: netip.MustParsePrefix("fd00::/64"), wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := cni.New(cni.Options{Subnet: tc.subnet})
			if tc.wantErr {
				assert.Error(t, err, "New(%s)", tc.subnet)
				return
			}
			require.NoError(t, err, "New(%s)", tc.subnet)
			assert.Equal(t, tc.want, h.Subnet().String())
		})
	}
}

func TestAddSkipsNetworkGatewayAndBroadcast(t *testing.T) {
	h := newHostLocal(t, "10.244.3.0/24")
	res, err := h.Add(t.Context(), cni.RuntimeConf{ContainerID: "sb-0"})
	require.NoError(t, err)
	assert.Equal(t, "10.244.3.2/24", res.IP.String(), "the first pod gets .2")
	assert.Equal(t, "10.244.3.1", res.Gateway.String(), "the gateway is .1")

	seen := map[string]bool{res.IP.Addr().String(): true}
	for i := 1; i < 253; i++ {
		ip := add(t, h, fmt.Sprintf("sb-%d", i))
		assert.False(t, seen[ip], "address %s handed out twice", ip)
		seen[ip] = true
	}
	assert.Len(t, seen, 253, ".2 to .254")
	for _, reserved := range []string{"10.244.3.0", "10.244.3.1", "10.244.3.255"} {
		assert.False(t, seen[reserved], "%s must never be allocated", reserved)
	}
	assert.True(t, seen["10.244.3.254"], "the last allocatable address")
}

func TestAddIsRoundRobinAndReusesReleasedAddresses(t *testing.T) {
	// A /29 has .2 to .6: five addresses.
	h := newHostLocal(t, "10.0.0.0/29")
	var got []string
	for i := range 5 {
		got = append(got, add(t, h, fmt.Sprintf("sb-%d", i)))
	}
	assert.Equal(t, []string{"10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6"}, got, "allocation order")

	_, err := h.Add(t.Context(), cni.RuntimeConf{ContainerID: "sb-full"})
	require.ErrorIs(t, err, cni.ErrNoIPAvailable, "Add on a full subnet")
	assert.Contains(t, err.Error(), "10.0.0.2-10.0.0.6", "the error names the range")

	require.NoError(t, h.Del(t.Context(), cni.RuntimeConf{ContainerID: "sb-1"}))
	require.NoError(t, h.Del(t.Context(), cni.RuntimeConf{ContainerID: "sb-3"}))
	assert.Equal(t, 3, h.Allocated())
	// The search starts after .6, the last one handed out, and wraps.
	assert.Equal(t, "10.0.0.3", add(t, h, "sb-a"), "first free after wrapping")
	assert.Equal(t, "10.0.0.5", add(t, h, "sb-b"), "next free")
	_, err = h.Add(t.Context(), cni.RuntimeConf{ContainerID: "sb-c"})
	assert.ErrorIs(t, err, cni.ErrNoIPAvailable, "full again")

	// Round-robin: a released address is not the next one handed out while
	// others are free.
	require.NoError(t, h.Del(t.Context(), cni.RuntimeConf{ContainerID: "sb-a"})) // .3
	require.NoError(t, h.Del(t.Context(), cni.RuntimeConf{ContainerID: "sb-4"})) // .6
	assert.Equal(t, "10.0.0.6", add(t, h, "sb-d"), "after .5 comes .6, not the older .3")
	assert.Equal(t, "10.0.0.3", add(t, h, "sb-e"))
}

func TestAddAndDelAreIdempotent(t *testing.T) {
	h := newHostLocal(t, "10.244.0.0/24")
	first := add(t, h, "sb")
	assert.Equal(t, first, add(t, h, "sb"), "a second Add for the same sandbox")
	assert.Equal(t, 1, h.Allocated())
	require.NoError(t, h.Del(t.Context(), cni.RuntimeConf{ContainerID: "sb"}))
	require.NoError(t, h.Del(t.Context(), cni.RuntimeConf{ContainerID: "sb"}), "second Del")
	require.NoError(t, h.Del(t.Context(), cni.RuntimeConf{ContainerID: "never-added"}))
	assert.Zero(t, h.Allocated())

	_, err := h.Add(t.Context(), cni.RuntimeConf{})
	assert.Error(t, err, "Add with no container ID")
}

func TestSmallestSubnetHasOneAddress(t *testing.T) {
	h := newHostLocal(t, "192.168.7.4/30")
	assert.Equal(t, "192.168.7.6", add(t, h, "a"), ".4 network, .5 gateway, .7 broadcast")
	_, err := h.Add(t.Context(), cni.RuntimeConf{ContainerID: "b"})
	assert.ErrorIs(t, err, cni.ErrNoIPAvailable)
}

func TestConcurrentAddDel(t *testing.T) {
	h := newHostLocal(t, "10.244.9.0/24")
	const workers, rounds = 16, 200
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		held = map[string]string{} // ip -> id, checked for duplicates
		errs []error
	)
	for w := range workers {
		wg.Go(func() {
			for r := range rounds {
				id := fmt.Sprintf("w%d-r%d", w, r)
				res, err := h.Add(t.Context(), cni.RuntimeConf{ContainerID: id})
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					return
				}
				ip := res.IP.Addr().String()
				mu.Lock()
				if other, dup := held[ip]; dup {
					errs = append(errs, fmt.Errorf("%s given to %s and %s", ip, other, id))
				}
				held[ip] = id
				mu.Unlock()

				mu.Lock()
				delete(held, ip)
				mu.Unlock()
				if err := h.Del(t.Context(), cni.RuntimeConf{ContainerID: id}); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	assert.Empty(t, errs)
	assert.Zero(t, h.Allocated(), "every address released")
}

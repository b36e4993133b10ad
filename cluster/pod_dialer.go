package cluster

import (
	"context"
	"net"
	"net/netip"

	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/proxy"
)

// dialPod connects the API server's pods/proxy and services/proxy to a
// pod address: to the simulated server behind it, which the runtime of
// the kubelet running the pod knows (it listens wherever the kernel put
// it when there is no Service network), else to the address's loopback
// twin, where servers listen with the Service network on.
func (c *Cluster) dialPod(ctx context.Context, network, address string) (net.Conn, error) {
	if ap, err := netip.ParseAddrPort(address); err == nil {
		c.mu.Lock()
		comps := c.comps
		c.mu.Unlock()
		if comps != nil {
			for _, k := range comps.kubelets {
				if rt, ok := k.Runtime().(*simulated.Runtime); ok {
					if host, ok := rt.HostAddr(ap); ok {
						var d net.Dialer
						return d.DialContext(ctx, network, host.String())
					}
				}
			}
		}
	}
	var d proxy.Dialer
	return d.DialContext(ctx, network, address)
}

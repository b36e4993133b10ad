package simulated

import (
	"context"
	"net"
	"net/netip"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// podNetwork is the ClusterNetwork as one pod's processes see it: names
// resolve with the search path of the pod's namespace.
type podNetwork struct {
	net       ClusterNetwork
	namespace string
}

var _ shell.Network = podNetwork{}

// DialContext implements shell.Network.
func (n podNetwork) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	return n.net.DialContext(ctx, network, address)
}

// LookupHost implements shell.Network.
func (n podNetwork) LookupHost(ctx context.Context, host string) (string, []netip.Addr, error) {
	return n.net.LookupHost(ctx, n.namespace, host)
}

// Nameserver implements shell.Network.
func (n podNetwork) Nameserver() netip.AddrPort { return n.net.Nameserver() }

// waitIOLocked runs the network I/O c's process waits for in a goroutine
// the runtime owns, without mu, and resumes the process once it is done
// (unless the container ended meanwhile, which cancels the I/O).
func (r *Runtime) waitIOLocked(c *container, io func(context.Context)) {
	if r.stopped {
		return // shutdown kills the container
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancelIO = cancel
	proc := c.proc
	// wg.Go is legal here: Start's wg.Wait runs only after stopped is
	// set, under mu, which is held now.
	r.wg.Go(func() {
		io(ctx)
		cancel()
		r.lock()
		if c.proc == proc && c.state == cri.ContainerRunning && !c.dying {
			c.cancelIO = nil
			now := r.clock.Now()
			r.resultLocked(c, proc.Run(now), now)
		}
		r.unlock()
	})
}

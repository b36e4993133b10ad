package proxy

import (
	"context"
	"net"
	"net/netip"
)

// clusterNet is the part of the address space cluster addresses live in:
// the service CIDR (10.96.0.0/12) and the pod CIDR (10.244.0.0/16).
var clusterNet = netip.MustParsePrefix("10.0.0.0/8")

// Loopback returns the loopback address where cluster address addr is
// served on this host: 10.a.b.c is 127.a.b.c, which Linux routes to lo
// like all of 127.0.0.0/8. Any other address is returned as it is.
func Loopback(addr netip.Addr) netip.Addr {
	addr = addr.Unmap()
	if !clusterNet.Contains(addr) {
		return addr
	}
	b := addr.As4()
	b[0] = 127
	return netip.AddrFrom4(b)
}

// LoopbackAddrPort is Loopback of ap's address, with ap's port.
func LoopbackAddrPort(ap netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(Loopback(ap.Addr()), ap.Port())
}

// Dialer connects in-process clients to cluster addresses: a dial of
// 10.96.0.10:53 or 10.244.0.5:80 goes to the loopback address where the
// proxy or the pod serves it (Loopback); other addresses are dialled as
// they are. The zero Dialer works; it is safe for concurrent use.
type Dialer struct {
	// Dialer makes the connections. Its zero value works.
	Dialer net.Dialer
}

// DialContext has net.Dialer's signature, for http.Transport and
// net.Resolver. address is host:port with an IP host; a name is dialled
// as it is.
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	if ap, err := netip.ParseAddrPort(address); err == nil {
		address = LoopbackAddrPort(ap).String()
	}
	return d.Dialer.DialContext(ctx, network, address)
}

package cluster

import (
	"context"
	"net"
	"net/http"
	"net/netip"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/authz/rbac/bootstrappolicy"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/proxy"
	"github.com/minicp/minicp/proxy/dns"
)

// serviceNetwork is what makes Services carry traffic: the proxy and the
// cluster DNS server, and the view of them the simulated containers get.
// nil when Options.DisableServiceNetwork is set.
type serviceNetwork struct {
	proxy *proxy.Proxier
	dns   *dns.Server
}

// newServiceNetwork builds the proxy (standing for the first node, whose
// endpoints are the local ones) and the DNS server over server's
// in-memory transport, each acting as itself, as upstream:
//
//   - the proxy as system:kube-proxy (a client certificate), which
//     system:node-proxier lets list and watch Services and
//     EndpointSlices;
//   - the proxy's writer of load balancer status as the ServiceAccount
//     kube-system/service-controller, which
//     system:controller:service-controller lets update services/status:
//     upstream a cloud provider's service controller writes it;
//   - the DNS server as the ServiceAccount kube-system/coredns, bound to
//     system:coredns (dns.EnsureRBAC).
//
// The ServiceAccounts' tokens come from TokenRequests sent as
// system:kube-controller-manager, as for the controllers' own: upstream
// the service controller's manager and the kubelet running CoreDNS's pod
// request them, and minicp runs neither.
func (c *Cluster) newServiceNetwork(server *apiserver.Server, scheme *runtime.Scheme) (*serviceNetwork, error) {
	proxyCS, err := c.componentClientset(server, clientIdentity{user: bootstrappolicy.KubeProxyUser, scheme: scheme})
	if err != nil {
		return nil, err
	}
	root, err := c.componentClientset(server, clientIdentity{user: bootstrappolicy.KubeControllerManager, scheme: scheme})
	if err != nil {
		return nil, err
	}
	accounts := &serviceAccountClients{root: root, clock: c.opts.Clock,
		newClient: func(wrap func(http.RoundTripper) http.RoundTripper) (*client.Client, error) {
			return c.componentClient(server, clientIdentity{wrap: wrap, scheme: scheme})
		}}
	statusCS, err := accounts.Clientset(serviceControllerAccount)
	if err != nil {
		return nil, err
	}
	dnsCS, err := accounts.Clientset(dns.ServiceAccountName)
	if err != nil {
		return nil, err
	}
	nodeName := ""
	if c.opts.Nodes > 0 {
		nodeName = NodeName(0)
	}
	p, err := proxy.New(proxy.Options{Clientset: proxyCS, StatusClientset: statusCS, NodeName: nodeName,
		Clock: c.opts.Clock, Logger: c.log, Tracing: c.opts.Tracing})
	if err != nil {
		return nil, err
	}
	d, err := dns.New(dns.Options{Clientset: dnsCS, Clock: c.opts.Clock, Logger: c.log, Tracing: c.opts.Tracing})
	if err != nil {
		return nil, err
	}
	return &serviceNetwork{proxy: p, dns: d}, nil
}

// serviceControllerAccount is the ServiceAccount in kube-system that
// writes load balancer status, bound to upstream's
// system:controller:service-controller.
const serviceControllerAccount = "service-controller"

// DNSAddr returns where the cluster DNS server listens (127.96.0.10:53
// when it could bind it, else a free port of 127.0.0.1); invalid when
// the Service network is off or the cluster is not Ready.
func (c *Cluster) DNSAddr() netip.AddrPort {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.comps == nil || c.comps.network == nil {
		return netip.AddrPort{}
	}
	return c.comps.network.dns.Addr()
}

// ServiceProxy returns the cluster's kube-proxy, whose Status and
// Changed say what it forwards where; nil when the Service network is
// off or the cluster is not Ready.
func (c *Cluster) ServiceProxy() *proxy.Proxier {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.comps == nil || c.comps.network == nil {
		return nil
	}
	return c.comps.network.proxy
}

// containerNetwork is simulated.ClusterNetwork over the proxy's address
// mapping and the DNS server.
type containerNetwork struct {
	dialer proxy.Dialer
	dns    *dns.Server
}

var _ simulated.ClusterNetwork = (*containerNetwork)(nil)

// DialContext implements simulated.ClusterNetwork.
func (n *containerNetwork) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	return n.dialer.DialContext(ctx, network, address)
}

// LookupHost implements simulated.ClusterNetwork: through the DNS server,
// with the search path of a pod in namespace.
func (n *containerNetwork) LookupHost(ctx context.Context, namespace, host string) (string, []netip.Addr, error) {
	r := &dns.Resolver{Server: n.dns.Addr(), Search: dns.SearchPath(namespace, n.dns.Domain())}
	a, err := r.LookupHost(ctx, host)
	return a.Name, a.Addrs, err
}

// Nameserver implements simulated.ClusterNetwork: the kube-dns
// ClusterIP, as a pod's resolv.conf says, whatever port the server got.
func (n *containerNetwork) Nameserver() netip.AddrPort {
	return netip.AddrPortFrom(dns.DefaultServiceIP, dns.Port)
}

// ListenAddr implements simulated.ClusterNetwork.
func (n *containerNetwork) ListenAddr(podIP netip.Addr) netip.Addr { return proxy.Loopback(podIP) }

// ensureDNSService creates the kube-dns Service and the DNS server's
// ServiceAccount and its RBAC, as kubeadm's DNS addon does, over
// server's in-memory transport as the admin (kubeadm's identity).
func (c *Cluster) ensureDNSService(ctx context.Context, server *apiserver.Server) error {
	cl, err := client.New(client.Config{
		Host: "http://in-memory", Transport: client.NewInMemoryTransport(server.Handler()),
		BearerToken: c.token, Clock: c.opts.Clock,
	})
	if err != nil {
		return err
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return err
	}
	if err := dns.EnsureRBAC(ctx, cs); err != nil {
		return err
	}
	return dns.EnsureService(ctx, cs)
}

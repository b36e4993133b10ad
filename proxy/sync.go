package proxy

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"slices"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	"github.com/minicp/minicp/client"
)

// LabelServiceProxyName, set on a Service, says that another proxy
// serves it, so this one leaves it alone, as kube-proxy does. The
// kube-dns Service carries it: the DNS server listens on its address.
const LabelServiceProxyName = "service.kubernetes.io/service-proxy-name"

// defaultAffinityTimeout is ClientIP affinity's timeout when the Service
// gives none: upstream's default of three hours.
const defaultAffinityTimeout = 10800 * time.Second

// desiredPort is what one sync wants for one Service port.
type desiredPort struct {
	internal, external []backend
	affinity           affinityPolicy
	// listen are the addresses to listen on (as the API shows them) and
	// whether each is an external one.
	listen map[netip.AddrPort]bool
}

// sync makes the listeners and backends match the informers' Services
// and EndpointSlices, writes the ingress of LoadBalancer Services, and
// publishes the new Status. It runs on Start's goroutine only.
//
// Upstream: k8s.io/kubernetes/pkg/proxy/userspace (Proxier.syncProxyRules,
// OnServiceUpdate, OnEndpointsUpdate).
func (p *Proxier) sync(ctx context.Context) {
	services, err := p.cache.Services()
	if err != nil {
		p.log.Warn("list services", "err", err)
		return
	}
	slices.SortFunc(services, func(a, b *corev1.Service) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	desired := map[portKey]*desiredPort{}
	var lbWrites []*corev1.Service
	lbKept := map[string]bool{}
	for _, svc := range services {
		lbIP := netip.Addr{}
		if svc.Spec.Type == corev1.ServiceTypeLoadBalancer {
			lbIP = p.loadBalancerIP(svc)
			lbKept[svc.Namespace+"/"+svc.Name] = true
		}
		if ingressIP(svc) != lbIP && (lbIP.IsValid() || p.lbPool.Contains(ingressIP(svc))) {
			lbWrites = append(lbWrites, svc)
		}
		for key, d := range p.desiredPorts(svc, lbIP) {
			desired[key] = d
		}
	}
	for name := range p.lbIPs {
		if !lbKept[name] {
			delete(p.lbIPs, name)
		}
	}
	p.apply(ctx, desired)
	for _, svc := range lbWrites {
		if err := p.writeIngress(ctx, svc, p.lbIPs[svc.Namespace+"/"+svc.Name]); err != nil {
			p.log.Warn("write load balancer status", "namespace", svc.Namespace, "name", svc.Name, "err", err)
		}
	}
	p.publish(desired)
}

// desiredPorts returns what svc's TCP ports want: a listener on the
// ClusterIP, on the node port and on lbIP (when valid), each with the
// ready backends its traffic policy allows. ExternalName and headless
// Services have nothing to proxy; UDP and SCTP ports are not proxied.
func (p *Proxier) desiredPorts(svc *corev1.Service, lbIP netip.Addr) map[portKey]*desiredPort {
	if svc.Spec.Type == corev1.ServiceTypeExternalName {
		return nil
	}
	if _, ok := svc.Labels[LabelServiceProxyName]; ok {
		return nil // another proxy serves it
	}
	clusterIP, err := netip.ParseAddr(svc.Spec.ClusterIP)
	if err != nil {
		return nil // headless ("None"), or no IP yet
	}
	svcSlices, err := p.cache.SlicesOf(svc.Namespace, svc.Name)
	if err != nil {
		return nil
	}
	affinity := affinityPolicy{}
	if svc.Spec.SessionAffinity == corev1.ServiceAffinityClientIP {
		affinity.timeout = defaultAffinityTimeout
		if c := svc.Spec.SessionAffinityConfig; c != nil && c.ClientIP != nil && c.ClientIP.TimeoutSeconds != nil {
			affinity.timeout = time.Duration(*c.ClientIP.TimeoutSeconds) * time.Second
		}
	}
	internalLocal := svc.Spec.InternalTrafficPolicy != nil && *svc.Spec.InternalTrafficPolicy == corev1.ServiceInternalTrafficPolicyLocal
	externalLocal := svc.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
	out := map[portKey]*desiredPort{}
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		if cmp.Or(sp.Protocol, corev1.ProtocolTCP) != corev1.ProtocolTCP {
			continue
		}
		all := readyBackends(svcSlices, sp)
		d := &desiredPort{
			internal: p.local(all, internalLocal),
			external: p.local(all, externalLocal),
			affinity: affinity,
			listen:   map[netip.AddrPort]bool{netip.AddrPortFrom(clusterIP, uint16(sp.Port)): false},
		}
		if sp.NodePort > 0 && (svc.Spec.Type == corev1.ServiceTypeNodePort || svc.Spec.Type == corev1.ServiceTypeLoadBalancer) {
			d.listen[netip.AddrPortFrom(p.nodePortIP, uint16(sp.NodePort))] = true
		}
		if lbIP.IsValid() {
			d.listen[netip.AddrPortFrom(lbIP, uint16(sp.Port))] = true
		}
		out[portKey(svc.Namespace+"/"+svc.Name+":"+portName(sp))] = d
	}
	return out
}

// readyBackends are the ready endpoints of the slices for Service port
// sp, each once, sorted: an endpoint whose ready condition is unset
// counts as ready, as upstream readers take it.
func readyBackends(svcSlices []*discoveryv1.EndpointSlice, sp *corev1.ServicePort) []backend {
	var out []backend
	seen := map[netip.AddrPort]bool{}
	for _, s := range svcSlices {
		if s.AddressType != discoveryv1.AddressTypeIPv4 && s.AddressType != discoveryv1.AddressTypeIPv6 {
			continue
		}
		port := int32(0)
		for _, ep := range s.Ports {
			if ep.Port != nil && deref(ep.Name) == sp.Name && cmp.Or(deref(ep.Protocol), corev1.ProtocolTCP) == corev1.ProtocolTCP {
				port = *ep.Port
			}
		}
		if port == 0 {
			continue
		}
		for _, ep := range s.Endpoints {
			if ep.Conditions.Ready != nil && !*ep.Conditions.Ready || len(ep.Addresses) == 0 {
				continue
			}
			addr, err := netip.ParseAddr(ep.Addresses[0])
			if err != nil {
				continue
			}
			ap := netip.AddrPortFrom(addr, uint16(port))
			if !seen[ap] {
				seen[ap] = true
				b := backend{addr: ap, node: deref(ep.NodeName)}
				if ep.TargetRef != nil && ep.TargetRef.Kind == "Pod" {
					b.pod = ep.TargetRef.Name
				}
				out = append(out, b)
			}
		}
	}
	slices.SortFunc(out, func(a, b backend) int { return a.addr.Compare(b.addr) })
	return out
}

// local returns the backends on this proxy's node when local is set and
// the proxy knows its node; all of them otherwise.
func (p *Proxier) local(all []backend, local bool) []backend {
	if !local || p.nodeName == "" {
		return all
	}
	return slices.DeleteFunc(slices.Clone(all), func(b backend) bool { return b.node != p.nodeName })
}

// apply opens, keeps and closes listeners, and hands each Service port
// its backends. Closing a listener leaves its connections in flight
// alone; they end when their client or backend ends them.
func (p *Proxier) apply(ctx context.Context, desired map[portKey]*desiredPort) {
	for key, d := range desired {
		sp := p.ports[key]
		if sp == nil {
			sp = &servicePort{internal: newLoadBalancer(p.clock), external: newLoadBalancer(p.clock)}
			p.ports[key] = sp
		}
		sp.internal.update(d.internal, d.affinity)
		sp.external.update(d.external, d.affinity)
	}
	want := map[netip.AddrPort]listenerOwner{}
	for key, d := range desired {
		for addr, external := range d.listen {
			want[addr] = listenerOwner{key: key, external: external}
		}
	}
	for addr, l := range p.listeners {
		if owner, ok := want[addr]; ok && owner == p.owners[addr] {
			continue
		}
		_ = l.ln.Close()
		<-l.doneCh
		delete(p.listeners, addr)
		delete(p.owners, addr)
	}
	for key := range p.ports {
		if desired[key] == nil {
			delete(p.ports, key)
		}
	}
	for _, addr := range slices.SortedFunc(maps.Keys(want), netip.AddrPort.Compare) {
		if p.listeners[addr] != nil {
			continue
		}
		owner := want[addr]
		lb := p.ports[owner.key].internal
		if owner.external {
			lb = p.ports[owner.key].external
		}
		bind := LoopbackAddrPort(addr)
		ln, err := net.Listen("tcp", bind.String())
		if err != nil {
			if !p.bindFailed[addr] {
				p.bindFailed[addr] = true
				p.log.Warn("cannot listen for service", "service", string(owner.key), "addr", bind.String(), "err", err)
			}
			continue
		}
		delete(p.bindFailed, addr)
		l := &listener{addr: addr, service: string(owner.key), ln: ln, lb: lb, doneCh: make(chan struct{})}
		p.listeners[addr], p.owners[addr] = l, owner
		p.wg.Go(func() { p.serve(ctx, l) })
		p.log.Debug("listening", "service", string(owner.key), "addr", bind.String())
	}
}

// publish stores the Status of desired and wakes Changed's waiters.
func (p *Proxier) publish(desired map[portKey]*desiredPort) {
	status := make([]PortStatus, 0, len(desired))
	for _, key := range slices.Sorted(maps.Keys(desired)) {
		d := desired[key]
		svc, port := splitKey(key)
		st := PortStatus{Service: svc, Port: port, Endpoints: len(d.internal), ExternalEndpoints: len(d.external)}
		for addr := range d.listen {
			if p.listeners[addr] != nil {
				st.Listening = append(st.Listening, addr)
			}
		}
		slices.SortFunc(st.Listening, netip.AddrPort.Compare)
		status = append(status, st)
	}
	p.mu.Lock()
	p.status = status
	p.mu.Unlock()
	p.changed.Notify()
}

func splitKey(key portKey) (svc, port string) {
	s := string(key)
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// loadBalancerIP returns svc's load balancer IP: the one it has already
// (from its status, or given earlier), or the first free one of the pool.
func (p *Proxier) loadBalancerIP(svc *corev1.Service) netip.Addr {
	name := svc.Namespace + "/" + svc.Name
	if ip, ok := p.lbIPs[name]; ok {
		return ip
	}
	used := map[netip.Addr]bool{}
	for _, ip := range p.lbIPs {
		used[ip] = true
	}
	if ip := ingressIP(svc); p.lbPool.Contains(ip) && !used[ip] {
		p.lbIPs[name] = ip
		return ip
	}
	// The pool's first address is its network address: skip it, as a
	// pool would.
	for ip := p.lbPool.Addr().Next(); p.lbPool.Contains(ip); ip = ip.Next() {
		if !used[ip] {
			p.lbIPs[name] = ip
			return ip
		}
	}
	return netip.Addr{}
}

// ingressIP is the first ingress IP of svc's load balancer status.
func ingressIP(svc *corev1.Service) netip.Addr {
	for _, in := range svc.Status.LoadBalancer.Ingress {
		if ip, err := netip.ParseAddr(in.IP); err == nil {
			return ip
		}
	}
	return netip.Addr{}
}

// writeIngress sets svc's status.loadBalancer.ingress to ip (none when
// ip is not valid) through the services/status subresource, as a cloud
// provider's service controller does.
func (p *Proxier) writeIngress(ctx context.Context, svc *corev1.Service, ip netip.Addr) error {
	services := p.statusCS.Services(svc.Namespace)
	namespace, name := svc.Namespace, svc.Name
	reread := false
	return client.RetryOnConflict(ctx, statusRetry, func() error {
		if reread {
			var err error
			if svc, err = services.Get(ctx, name, client.GetOptions{}); err != nil {
				return fmt.Errorf("get service %s/%s: %w", namespace, name, err)
			}
		}
		reread = true
		next := svc.DeepCopy()
		next.Status.LoadBalancer.Ingress = nil
		if ip.IsValid() {
			next.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: ip.String()}}
		}
		if _, err := services.UpdateStatus(ctx, next, client.WriteOptions{}); err != nil {
			return fmt.Errorf("update status of service %s/%s: %w", namespace, name, err)
		}
		return nil
	})
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

package dns

import (
	"cmp"
	"net/netip"
	"slices"
	"strings"

	miekgdns "github.com/miekg/dns"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
)

// ttl is every answer's time to live, in seconds: the kubernetes
// plugin's default, short because endpoints come and go.
const ttl = 5

// serveDNS answers one query. It is miekg/dns's handler, called on the
// server's goroutines.
func (s *Server) serveDNS(w miekgdns.ResponseWriter, req *miekgdns.Msg) {
	m := new(miekgdns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	if len(req.Question) != 1 {
		m.Rcode = miekgdns.RcodeFormatError
		_ = w.WriteMsg(m)
		return
	}
	q := req.Question[0]
	name := strings.ToLower(q.Name)
	if !miekgdns.IsSubDomain(s.domain, name) {
		// No query may leave the host, so nothing is forwarded.
		m.Authoritative = false
		m.Rcode = miekgdns.RcodeRefused
		_ = w.WriteMsg(m)
		return
	}
	answer, extra, found := s.lookup(name, q.Qtype)
	switch {
	case !found:
		m.Rcode = miekgdns.RcodeNameError
		m.Ns = []miekgdns.RR{s.soa()}
	case len(answer) == 0:
		m.Ns = []miekgdns.RR{s.soa()} // the name exists, with no record of that type
	default:
		m.Answer, m.Extra = answer, extra
	}
	_ = w.WriteMsg(m)
}

// soa is the cluster zone's SOA record, for negative answers.
func (s *Server) soa() miekgdns.RR {
	return &miekgdns.SOA{
		Hdr: miekgdns.RR_Header{Name: s.domain, Rrtype: miekgdns.TypeSOA, Class: miekgdns.ClassINET, Ttl: ttl},
		Ns:  "ns.dns." + s.domain, Mbox: "hostmaster." + s.domain,
		Serial: 1, Refresh: 7200, Retry: 1800, Expire: 86400, Minttl: ttl,
	}
}

// lookup returns the records of name (lower case, fully qualified, in
// the cluster domain) of type qtype, and whether the name exists.
func (s *Server) lookup(name string, qtype uint16) (answer, extra []miekgdns.RR, found bool) {
	rel := strings.TrimSuffix(strings.TrimSuffix(name, s.domain), ".")
	labelsOf := strings.Split(rel, ".")
	if rel == "" {
		return nil, nil, true // the zone apex
	}
	n := len(labelsOf)
	switch {
	case n == 3 && labelsOf[2] == "pod":
		return s.podRecord(name, labelsOf[0], qtype)
	case n >= 3 && labelsOf[n-1] == "svc":
		ns, svcName := labelsOf[n-2], labelsOf[n-3]
		svc, err := s.cache.Service(ns, svcName)
		if err != nil {
			return nil, nil, false
		}
		switch n {
		case 3:
			return s.serviceRecords(name, svc, qtype)
		case 4:
			return s.endpointRecord(name, svc, labelsOf[0], qtype)
		case 5:
			if qtype != miekgdns.TypeSRV && qtype != miekgdns.TypeANY {
				return nil, nil, s.hasPort(svc, labelsOf[0], labelsOf[1])
			}
			return s.srvRecords(name, svc, labelsOf[0], labelsOf[1])
		}
	case n <= 2 && labelsOf[n-1] == "svc", n == 1 && labelsOf[0] == "pod":
		return nil, nil, true // svc.<domain>, <ns>.svc.<domain>: names with nothing of their own
	}
	return nil, nil, false
}

// podRecord answers <a-b-c-d>.<ns>.pod.<domain> with a.b.c.d.
func (s *Server) podRecord(name, dashed string, qtype uint16) ([]miekgdns.RR, []miekgdns.RR, bool) {
	ip, err := netip.ParseAddr(strings.ReplaceAll(dashed, "-", "."))
	if err != nil || !ip.Is4() {
		return nil, nil, false
	}
	if qtype != miekgdns.TypeA && qtype != miekgdns.TypeANY {
		return nil, nil, true
	}
	return []miekgdns.RR{a(name, ip)}, nil, true
}

// serviceRecords answers <svc>.<ns>.svc.<domain>.
func (s *Server) serviceRecords(name string, svc *corev1.Service, qtype uint16) ([]miekgdns.RR, []miekgdns.RR, bool) {
	if svc.Spec.Type == corev1.ServiceTypeExternalName {
		target := miekgdns.Fqdn(svc.Spec.ExternalName)
		return []miekgdns.RR{&miekgdns.CNAME{Hdr: hdr(name, miekgdns.TypeCNAME), Target: target}}, nil, true
	}
	if qtype != miekgdns.TypeA && qtype != miekgdns.TypeANY {
		return nil, nil, true
	}
	if ip, err := netip.ParseAddr(svc.Spec.ClusterIP); err == nil && ip.Is4() {
		return []miekgdns.RR{a(name, ip)}, nil, true
	}
	var out []miekgdns.RR
	for _, ep := range s.readyEndpoints(svc) {
		out = append(out, a(name, ep.addr))
	}
	return out, nil, true
}

// endpointRecord answers <hostname>.<svc>.<ns>.svc.<domain> (or the
// endpoint's dashed IP for one without a hostname) for a headless
// Service.
func (s *Server) endpointRecord(name string, svc *corev1.Service, host string, qtype uint16) ([]miekgdns.RR, []miekgdns.RR, bool) {
	if svc.Spec.ClusterIP != corev1.ClusterIPNone {
		return nil, nil, false
	}
	for _, ep := range s.readyEndpoints(svc) {
		if ep.label() != host {
			continue
		}
		if qtype != miekgdns.TypeA && qtype != miekgdns.TypeANY {
			return nil, nil, true
		}
		return []miekgdns.RR{a(name, ep.addr)}, nil, true
	}
	return nil, nil, false
}

// hasPort reports whether svc has a port named by the SRV labels
// _<port> and _<proto>.
func (s *Server) hasPort(svc *corev1.Service, portLabel, protoLabel string) bool {
	_, ok := findPort(svc, portLabel, protoLabel)
	return ok
}

func findPort(svc *corev1.Service, portLabel, protoLabel string) (*corev1.ServicePort, bool) {
	port, okPort := strings.CutPrefix(portLabel, "_")
	proto, okProto := strings.CutPrefix(protoLabel, "_")
	if !okPort || !okProto {
		return nil, false
	}
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		if sp.Name != "" && strings.EqualFold(sp.Name, port) && strings.EqualFold(string(cmp.Or(sp.Protocol, corev1.ProtocolTCP)), proto) {
			return sp, true
		}
	}
	return nil, false
}

// srvRecords answers _<port>._<proto>.<svc>.<ns>.svc.<domain>: the
// Service's name and port, or for a headless Service one record per
// ready endpoint, each with its A record as an extra.
func (s *Server) srvRecords(name string, svc *corev1.Service, portLabel, protoLabel string) ([]miekgdns.RR, []miekgdns.RR, bool) {
	sp, ok := findPort(svc, portLabel, protoLabel)
	if !ok {
		return nil, nil, false
	}
	svcName := svc.Name + "." + svc.Namespace + ".svc." + s.domain
	if svc.Spec.ClusterIP != corev1.ClusterIPNone {
		ip, err := netip.ParseAddr(svc.Spec.ClusterIP)
		if err != nil {
			return nil, nil, true
		}
		return []miekgdns.RR{srv(name, svcName, uint16(sp.Port))}, []miekgdns.RR{a(svcName, ip)}, true
	}
	var answer, extra []miekgdns.RR
	for _, ep := range s.readyEndpoints(svc) {
		port, ok := ep.ports[sp.Name]
		if !ok {
			continue
		}
		target := ep.label() + "." + svcName
		answer = append(answer, srv(name, target, uint16(port)))
		extra = append(extra, a(target, ep.addr))
	}
	return answer, extra, true
}

// endpoint is a ready endpoint of a Service, as DNS shows it.
type endpoint struct {
	addr     netip.Addr
	hostname string
	// ports are the slice's port numbers by port name.
	ports map[string]int32
}

// label is the endpoint's DNS label under its Service: its hostname, or
// its IP with dashes.
func (e endpoint) label() string {
	if e.hostname != "" {
		return e.hostname
	}
	return strings.ReplaceAll(e.addr.String(), ".", "-")
}

// readyEndpoints are svc's ready IPv4 endpoints from its slices, each
// address once, sorted; for a Service that publishes not-ready
// addresses, all of them.
func (s *Server) readyEndpoints(svc *corev1.Service) []endpoint {
	list, err := s.cache.SlicesOf(svc.Namespace, svc.Name)
	if err != nil && !apierrors.IsNotFound(err) {
		return nil
	}
	var out []endpoint
	seen := map[netip.Addr]bool{}
	for _, sl := range list {
		if sl.AddressType != discoveryv1.AddressTypeIPv4 {
			continue
		}
		ports := map[string]int32{}
		for _, p := range sl.Ports {
			if p.Port != nil && p.Name != nil {
				ports[*p.Name] = *p.Port
			}
		}
		for _, ep := range sl.Endpoints {
			ready := ep.Conditions.Ready == nil || *ep.Conditions.Ready
			if !ready && !svc.Spec.PublishNotReadyAddresses || len(ep.Addresses) == 0 {
				continue
			}
			addr, err := netip.ParseAddr(ep.Addresses[0])
			if err != nil || seen[addr] {
				continue
			}
			seen[addr] = true
			e := endpoint{addr: addr, ports: ports}
			if ep.Hostname != nil {
				e.hostname = *ep.Hostname
			}
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(x, y endpoint) int { return x.addr.Compare(y.addr) })
	return out
}

func hdr(name string, rrtype uint16) miekgdns.RR_Header {
	return miekgdns.RR_Header{Name: name, Rrtype: rrtype, Class: miekgdns.ClassINET, Ttl: ttl}
}

func a(name string, ip netip.Addr) miekgdns.RR {
	return &miekgdns.A{Hdr: hdr(name, miekgdns.TypeA), A: ip.AsSlice()}
}

// srv is an SRV record with the weight CoreDNS gives when there is one
// target per record set entry.
func srv(name, target string, port uint16) miekgdns.RR {
	return &miekgdns.SRV{Hdr: hdr(name, miekgdns.TypeSRV), Priority: 0, Weight: 100, Port: port, Target: target}
}

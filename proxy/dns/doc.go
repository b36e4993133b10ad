// Package dns is minicp's cluster DNS: an authoritative DNS server for
// the cluster domain (cluster.local) that answers from Services and
// EndpointSlices, as CoreDNS's kubernetes plugin does, and a Resolver
// that in-process clients (the simulated containers' wget, nc and
// nslookup) use with the search path a pod's resolv.conf would give.
//
// It is the first hop of an outside request reaching a pod (DNS -> TCP
// -> Service -> pod): the name resolves to the Service's ClusterIP,
// which the proxy package serves.
//
// # Records
//
//   - <svc>.<ns>.svc.cluster.local A: the ClusterIP; for a headless
//     Service, the addresses of its ready endpoints; for an ExternalName
//     Service, a CNAME to its external name.
//   - _<port>._<proto>.<svc>.<ns>.svc.cluster.local SRV: the named port,
//     with target the Service's name, or one per ready endpoint of a
//     headless Service (its hostname, or its dashed IP, under the
//     Service's name), and their A records as extras.
//   - <hostname>.<svc>.<ns>.svc.cluster.local A: the endpoint of a
//     headless Service with that hostname (a pod's spec.hostname whose
//     spec.subdomain names the Service).
//   - <a-b-c-d>.<ns>.pod.cluster.local A: a.b.c.d, as CoreDNS's "pods
//     insecure" mode answers.
//   - Any other name in the cluster domain is NXDOMAIN, with the zone's
//     SOA; names outside it are REFUSED, since no query may leave the
//     host to be forwarded.
//
// The wire format is github.com/miekg/dns's, a library CoreDNS is built
// on, rather than a hand-written encoder: DNS messages have compression,
// EDNS0 and truncation rules that are easy to get subtly wrong.
//
// # Address
//
// The server listens on UDP and TCP at the kube-dns Service's ClusterIP
// mapped to loopback (127.96.0.10:53, see proxy.Loopback) when that can
// be bound (port 53 needs root or CAP_NET_BIND_SERVICE, and one process
// may run several clusters), else on a free port of 127.0.0.1. Addr
// says which; callers hand it to whatever resolves names in the cluster.
// EnsureService creates the kube-dns Service in kube-system
// (10.96.0.10) as upstream clusters have it, labelled so that kube-proxy
// leaves it to this server. EnsureRBAC creates the ServiceAccount
// kube-system/coredns and its ClusterRole system:coredns, whose list
// and watch of Services and EndpointSlices are all the server needs: a
// cluster runs the server as that ServiceAccount.
//
// Upstream: github.com/coredns/coredns/plugin/kubernetes and the
// Kubernetes DNS specification (dns-spec.md in kubernetes/dns).
package dns

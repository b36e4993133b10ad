package endpoints

import (
	"cmp"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// RepackSubsets returns subsets in canonical form: expanded to one entry
// per (address, port), then regrouped so that each subset holds the ports
// served by exactly the same addresses, with each address ready or not.
// An address (an IP and its target's UID) that is not ready for a port in
// any input subset is not ready for it in the result. Addresses are
// sorted by IP and UID, ports by name, number and protocol, and the
// subsets by their ports then addresses, so equal endpoints always
// compare equal. Addresses listed without ports (a headless Service
// without ports) stay, in a subset without ports. subsets is not
// modified; the result is newly allocated (nil for no subsets).
//
// Upstream: k8s.io/kubernetes/pkg/api/v1/endpoints (RepackSubsets), which
// orders ports and subsets by a hash of their contents instead; any fixed
// order serves comparison.
func RepackSubsets(subsets []corev1.EndpointSubset) []corev1.EndpointSubset {
	// First, every port with the addresses that offer it, and whether
	// each is ready.
	addrs := map[addressKey]*corev1.EndpointAddress{}
	var ports []portKey // in first-seen order, for determinism below
	byPort := map[portKey]map[addressKey]bool{}
	add := func(addr *corev1.EndpointAddress, port corev1.EndpointPort, ready bool) {
		ak := keyOfAddress(addr)
		if _, ok := addrs[ak]; !ok {
			a := *addr
			addrs[ak] = &a
		}
		pk := keyOfPort(port)
		set, ok := byPort[pk]
		if !ok {
			set = map[addressKey]bool{}
			byPort[pk] = set
			ports = append(ports, pk)
		}
		// Not ready wins: an address that fails for one listing of a
		// port is not to be sent traffic on it.
		if wasReady, seen := set[ak]; !seen || wasReady {
			set[ak] = ready
		}
	}
	for i := range subsets {
		ports := subsets[i].Ports
		if len(ports) == 0 {
			// A headless Service without ports still has addresses (for
			// DNS): they go under a sentinel port that is not written out.
			ports = []corev1.EndpointPort{noPort}
		}
		for _, port := range ports {
			for k := range subsets[i].Addresses {
				add(&subsets[i].Addresses[k], port, true)
			}
			for k := range subsets[i].NotReadyAddresses {
				add(&subsets[i].NotReadyAddresses[k], port, false)
			}
		}
	}

	// Then the ports that share the same set of addresses, each in the
	// same readiness, make one subset.
	groups := map[string]*corev1.EndpointSubset{}
	var order []string
	for _, pk := range ports {
		set := byPort[pk]
		keys := make([]addressKey, 0, len(set))
		for ak := range set {
			keys = append(keys, ak)
		}
		slices.SortFunc(keys, func(a, b addressKey) int { return compareAddress(addrs[a], addrs[b]) })
		var id strings.Builder
		for _, ak := range keys {
			id.WriteString(ak.ip + "\x00" + ak.uid + "\x00" + strconv.FormatBool(set[ak]) + "\x00")
		}
		g, ok := groups[id.String()]
		if !ok {
			g = &corev1.EndpointSubset{}
			for _, ak := range keys {
				if set[ak] {
					g.Addresses = append(g.Addresses, *addrs[ak])
				} else {
					g.NotReadyAddresses = append(g.NotReadyAddresses, *addrs[ak])
				}
			}
			groups[id.String()] = g
			order = append(order, id.String())
		}
		if pk != keyOfPort(noPort) {
			g.Ports = append(g.Ports, pk.endpointPort())
		}
	}
	if len(order) == 0 {
		return nil
	}
	out := make([]corev1.EndpointSubset, 0, len(order))
	for _, id := range order {
		g := groups[id]
		slices.SortFunc(g.Ports, comparePort)
		out = append(out, *g)
	}
	slices.SortFunc(out, compareSubset)
	return out
}

// noPort is the sentinel port of addresses listed without ports; real
// ports are 1-65535.
var noPort = corev1.EndpointPort{Port: -1}

// addressKey identifies an address: two pods may share an IP (host
// network), so the target's UID is part of it.
type addressKey struct{ ip, uid string }

func keyOfAddress(a *corev1.EndpointAddress) addressKey {
	k := addressKey{ip: a.IP}
	if a.TargetRef != nil {
		k.uid = a.TargetRef.UID
	}
	return k
}

// portKey is an EndpointPort as a comparable value: AppProtocol by value.
type portKey struct {
	name, appProtocol string
	hasAppProtocol    bool
	port              int32
	protocol          corev1.Protocol
}

func keyOfPort(p corev1.EndpointPort) portKey {
	k := portKey{name: p.Name, port: p.Port, protocol: p.Protocol}
	if p.AppProtocol != nil {
		k.appProtocol, k.hasAppProtocol = *p.AppProtocol, true
	}
	return k
}

func (k portKey) endpointPort() corev1.EndpointPort {
	p := corev1.EndpointPort{Name: k.name, Port: k.port, Protocol: k.protocol}
	if k.hasAppProtocol {
		ap := k.appProtocol
		p.AppProtocol = &ap
	}
	return p
}

// compareAddress orders addresses by IP (numerically when both parse,
// else as strings), then by target UID, an address without a target
// first.
//
// Upstream: k8s.io/kubernetes/pkg/api/v1/endpoints (LessEndpointAddress),
// which compares IPs as strings.
func compareAddress(a, b *corev1.EndpointAddress) int {
	if c := compareIP(a.IP, b.IP); c != 0 {
		return c
	}
	switch {
	case a.TargetRef == nil && b.TargetRef == nil:
		return 0
	case a.TargetRef == nil:
		return -1
	case b.TargetRef == nil:
		return 1
	}
	return cmp.Compare(a.TargetRef.UID, b.TargetRef.UID)
}

func compareIP(a, b string) int {
	ia, errA := netip.ParseAddr(a)
	ib, errB := netip.ParseAddr(b)
	if errA == nil && errB == nil {
		return ia.Compare(ib)
	}
	return cmp.Compare(a, b)
}

func comparePort(a, b corev1.EndpointPort) int {
	ka, kb := keyOfPort(a), keyOfPort(b)
	return cmp.Or(
		cmp.Compare(ka.name, kb.name),
		cmp.Compare(ka.port, kb.port),
		cmp.Compare(ka.protocol, kb.protocol),
		compareBool(ka.hasAppProtocol, kb.hasAppProtocol),
		cmp.Compare(ka.appProtocol, kb.appProtocol),
	)
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// compareSubset orders canonical subsets by their first port (a subset
// without ports first), then by their addresses, ready ones before
// not-ready ones. Two subsets of one RepackSubsets result never share a
// port, so the first port decides unless neither has one.
func compareSubset(a, b corev1.EndpointSubset) int {
	switch {
	case len(a.Ports) == 0 && len(b.Ports) > 0:
		return -1
	case len(a.Ports) > 0 && len(b.Ports) == 0:
		return 1
	case len(a.Ports) > 0:
		if c := comparePort(a.Ports[0], b.Ports[0]); c != 0 {
			return c
		}
	}
	return compareAddresses(slices.Concat(a.Addresses, a.NotReadyAddresses), slices.Concat(b.Addresses, b.NotReadyAddresses))
}

func compareAddresses(a, b []corev1.EndpointAddress) int {
	for i := range min(len(a), len(b)) {
		if c := compareAddress(&a[i], &b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

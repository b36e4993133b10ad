package endpointslice

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/controllers/endpoints"
)

// labelHeadless marks the slices of a headless Service, as it marks its
// Endpoints.
const labelHeadless = endpoints.LabelHeadless

// group is the endpoints that share one set of resolved ports: every
// endpoint of a slice serves the slice's ports.
type group struct {
	ports     []discoveryv1.EndpointPort
	endpoints []discoveryv1.Endpoint
}

// plan is what one sync writes.
type plan struct {
	create, update, delete []*discoveryv1.EndpointSlice
}

// desiredGroups returns svc's endpoints over pods (the pods its selector
// matches), grouped by ports key (portsKey).
//
// Upstream: k8s.io/endpointslice (Reconciler.reconcileByAddressType, the
// loop over pods).
func desiredGroups(svc *corev1.Service, pods []*corev1.Pod) map[string]*group {
	groups := map[string]*group{}
	for _, pod := range pods {
		// Terminating pods stay, marked terminating: a proxy lets their
		// open connections finish and may fall back to them.
		if !endpoints.ShouldPodBeInEndpoints(pod, true) {
			continue
		}
		ep, ok := podEndpoint(svc, pod)
		if !ok {
			continue
		}
		ports := endpointPorts(svc, pod)
		if len(ports) == 0 && len(svc.Spec.Ports) > 0 {
			continue // the pod serves none of the Service's ports
		}
		key := portsKey(ports)
		g := groups[key]
		if g == nil {
			g = &group{ports: ports}
			groups[key] = g
		}
		g.endpoints = append(g.endpoints, ep)
	}
	return groups
}

// podEndpoint is pod's endpoint for svc; false when the pod has no IP of
// the Service's family.
//
// Upstream: k8s.io/endpointslice/util (podToEndpoint).
func podEndpoint(svc *corev1.Service, pod *corev1.Pod) (discoveryv1.Endpoint, bool) {
	want6 := endpoints.ServiceIPFamily(svc, pod) == corev1.IPv6Protocol
	ips := []string{pod.Status.PodIP}
	for _, ip := range pod.Status.PodIPs {
		ips = append(ips, ip.IP)
	}
	addr := ""
	for _, ip := range ips {
		if ip != "" && strings.Contains(ip, ":") == want6 {
			addr = ip
			break
		}
	}
	if addr == "" {
		return discoveryv1.Endpoint{}, false
	}
	serving := endpoints.IsPodReady(pod)
	terminating := pod.DeletionTimestamp != nil
	ready := svc.Spec.PublishNotReadyAddresses || serving && !terminating
	ep := discoveryv1.Endpoint{
		Addresses: []string{addr},
		Conditions: discoveryv1.EndpointConditions{
			Ready: new(ready), Serving: new(serving || svc.Spec.PublishNotReadyAddresses), Terminating: new(terminating),
		},
		TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
	}
	if pod.Spec.NodeName != "" {
		ep.NodeName = new(pod.Spec.NodeName)
	}
	// A pod named by hostname and subdomain gets a DNS name under a
	// headless Service called like the subdomain.
	if pod.Spec.Hostname != "" && pod.Spec.Subdomain == svc.Name && len(validation.IsDNS1123Label(pod.Spec.Hostname)) == 0 {
		ep.Hostname = new(pod.Spec.Hostname)
	}
	return ep, true
}

// endpointPorts resolves svc's ports in pod, skipping those it does not
// serve.
//
// Upstream: k8s.io/endpointslice/util (getEndpointPorts).
func endpointPorts(svc *corev1.Service, pod *corev1.Pod) []discoveryv1.EndpointPort {
	var out []discoveryv1.EndpointPort
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		port, err := endpoints.FindPort(pod, sp)
		if err != nil {
			continue
		}
		proto := cmp.Or(sp.Protocol, corev1.ProtocolTCP)
		out = append(out, discoveryv1.EndpointPort{Name: new(sp.Name), Port: new(port), Protocol: new(proto), AppProtocol: sp.AppProtocol})
	}
	return out
}

// portsKey identifies a set of ports regardless of order.
func portsKey(ports []discoveryv1.EndpointPort) string {
	keys := make([]string, 0, len(ports))
	for _, p := range ports {
		keys = append(keys, deref(p.Name)+"/"+string(deref(p.Protocol))+"/"+strconv.Itoa(int(deref(p.Port))))
	}
	slices.Sort(keys)
	return strings.Join(keys, ",")
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// endpointKey identifies an endpoint across syncs: its pod, or its first
// address for an endpoint without one.
func endpointKey(ep *discoveryv1.Endpoint) string {
	if ep.TargetRef != nil {
		return ep.TargetRef.Namespace + "/" + ep.TargetRef.Name
	}
	if len(ep.Addresses) > 0 {
		return ep.Addresses[0]
	}
	return ""
}

// reconcileSlices computes the writes that turn existing (the Service's
// managed slices) into slices holding groups:
//
//  1. a slice whose ports no group has any more is deleted;
//  2. in the other slices, endpoints still wanted stay (updated in place),
//     the others go;
//  3. the group's remaining endpoints fill those slices up to
//     MaxEndpointsPerSlice, then go into new slices;
//  4. slices left empty are deleted, except that a Service with no
//     endpoints keeps (or gets) one empty placeholder slice.
//
// Upstream: k8s.io/endpointslice (Reconciler.reconcileByAddressType,
// reconcileByPortMapping), without its topology hints.
func reconcileSlices(svc *corev1.Service, existing []*discoveryv1.EndpointSlice, groups map[string]*group) plan {
	addrType := addressType(svc)
	var p plan
	// next holds the desired content of every slice kept, by name;
	// created the new ones.
	type kept struct {
		old  *discoveryv1.EndpointSlice
		next *discoveryv1.EndpointSlice
	}
	var keptSlices []kept
	var created []*discoveryv1.EndpointSlice
	placed := map[string]bool{}
	byKey := map[string][]*discoveryv1.EndpointSlice{}

	sorted := slices.Clone(existing)
	slices.SortFunc(sorted, func(a, b *discoveryv1.EndpointSlice) int { return cmp.Compare(a.Name, b.Name) })
	for _, old := range sorted {
		g, ok := groups[portsKey(old.Ports)]
		if !ok && isPlaceholder(old) && old.AddressType == addrType {
			// A placeholder has no ports to match a group by: it is kept
			// while the Service has no endpoints (below) and deleted
			// otherwise. Deleting and recreating it on every pass would
			// make each pass cause the next.
			next := newSlice(svc, addrType, nil)
			next.ObjectMeta = old.DeepCopy().ObjectMeta
			setMeta(svc, &next.ObjectMeta)
			keptSlices = append(keptSlices, kept{old: old, next: next})
			continue
		}
		if !ok || old.AddressType != addrType {
			p.delete = append(p.delete, old)
			continue
		}
		want := map[string]*discoveryv1.Endpoint{}
		for i := range g.endpoints {
			want[endpointKey(&g.endpoints[i])] = &g.endpoints[i]
		}
		next := newSlice(svc, addrType, g.ports)
		next.ObjectMeta = old.DeepCopy().ObjectMeta
		setMeta(svc, &next.ObjectMeta)
		for i := range old.Endpoints {
			k := endpointKey(&old.Endpoints[i])
			if ep, ok := want[k]; ok && !placed[k] && len(next.Endpoints) < MaxEndpointsPerSlice {
				next.Endpoints = append(next.Endpoints, *ep)
				placed[k] = true
			}
		}
		keptSlices = append(keptSlices, kept{old: old, next: next})
		byKey[portsKey(old.Ports)] = append(byKey[portsKey(old.Ports)], next)
	}

	for _, key := range slices.Sorted(maps.Keys(groups)) {
		g := groups[key]
		room := byKey[key]
		for i := range g.endpoints {
			ep := g.endpoints[i]
			k := endpointKey(&ep)
			if placed[k] {
				continue
			}
			placed[k] = true
			for len(room) > 0 && len(room[0].Endpoints) >= MaxEndpointsPerSlice {
				room = room[1:]
			}
			if len(room) == 0 {
				s := newSlice(svc, addrType, g.ports)
				created = append(created, s)
				room = []*discoveryv1.EndpointSlice{s}
			}
			room[0].Endpoints = append(room[0].Endpoints, ep)
		}
	}

	total := len(created)
	for _, k := range keptSlices {
		if len(k.next.Endpoints) > 0 {
			total++
		}
	}
	placeholderKept := false
	for _, k := range keptSlices {
		if len(k.next.Endpoints) == 0 {
			if total == 0 && !placeholderKept {
				// The placeholder: no endpoints, no ports.
				placeholderKept = true
				k.next.Ports = nil
			} else {
				p.delete = append(p.delete, k.old)
				continue
			}
		}
		sortEndpoints(k.next.Endpoints)
		if !sliceEqual(k.old, k.next) {
			p.update = append(p.update, k.next)
		}
	}
	if total == 0 && !placeholderKept {
		created = append(created, newSlice(svc, addrType, nil))
	}
	for _, s := range created {
		sortEndpoints(s.Endpoints)
	}
	p.create = created
	return p
}

// isPlaceholder reports whether s is the slice a Service without
// endpoints keeps: no endpoints and no ports.
//
// Upstream: k8s.io/endpointslice (placeholderSliceCompare).
func isPlaceholder(s *discoveryv1.EndpointSlice) bool {
	return len(s.Endpoints) == 0 && len(s.Ports) == 0
}

// addressType is the type of svc's slices: its first IP family's.
func addressType(svc *corev1.Service) discoveryv1.AddressType {
	if len(svc.Spec.IPFamilies) > 0 && svc.Spec.IPFamilies[0] == corev1.IPv6Protocol {
		return discoveryv1.AddressTypeIPv6
	}
	return discoveryv1.AddressTypeIPv4
}

// newSlice is an empty slice of svc, named by the API server from
// "<service>-".
//
// Upstream: k8s.io/endpointslice (newEndpointSlice, getEndpointSlicePrefix).
func newSlice(svc *corev1.Service, addrType discoveryv1.AddressType, ports []discoveryv1.EndpointPort) *discoveryv1.EndpointSlice {
	prefix := svc.Name + "-"
	if len(validation.NameIsDNSSubdomain(prefix, true)) != 0 {
		prefix = "endpointslice-"
	}
	s := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{GenerateName: prefix, Namespace: svc.Namespace},
		AddressType: addrType,
		Ports:       slices.Clone(ports),
	}
	setMeta(svc, &s.ObjectMeta)
	return s
}

// setMeta sets the labels and the owner reference every managed slice of
// svc carries.
func setMeta(svc *corev1.Service, meta *metav1.ObjectMeta) {
	l := maps.Clone(svc.Labels)
	if l == nil {
		l = map[string]string{}
	}
	delete(l, labelHeadless)
	l[discoveryv1.LabelServiceName] = svc.Name
	l[discoveryv1.LabelManagedBy] = ManagedBy
	if svc.Spec.ClusterIP == corev1.ClusterIPNone {
		l[labelHeadless] = ""
	}
	meta.Labels = l
	meta.OwnerReferences = []metav1.OwnerReference{{
		APIVersion: "v1", Kind: "Service", Name: svc.Name, UID: svc.UID,
		Controller: new(true), BlockOwnerDeletion: new(true),
	}}
}

func sortEndpoints(eps []discoveryv1.Endpoint) {
	slices.SortFunc(eps, func(a, b discoveryv1.Endpoint) int { return cmp.Compare(endpointKey(&a), endpointKey(&b)) })
}

// sliceEqual reports whether next would change nothing in old: its
// labels, owners, ports and endpoints (nil and empty lists alike).
func sliceEqual(old, next *discoveryv1.EndpointSlice) bool {
	if !maps.Equal(old.Labels, next.Labels) || !reflect.DeepEqual(old.OwnerReferences, next.OwnerReferences) ||
		portsKey(old.Ports) != portsKey(next.Ports) || len(old.Ports) != len(next.Ports) || len(old.Endpoints) != len(next.Endpoints) {
		return false
	}
	for i := range old.Ports {
		if deref(old.Ports[i].AppProtocol) != deref(next.Ports[i].AppProtocol) {
			return false
		}
	}
	oldEps := slices.Clone(old.Endpoints)
	sortEndpoints(oldEps)
	for i := range oldEps {
		if !reflect.DeepEqual(normalized(oldEps[i]), normalized(next.Endpoints[i])) {
			return false
		}
	}
	return true
}

// normalized is ep with what the API server may add or drop evened out.
func normalized(ep discoveryv1.Endpoint) discoveryv1.Endpoint {
	if ep.TargetRef != nil {
		ref := *ep.TargetRef
		ref.ResourceVersion = ""
		ep.TargetRef = &ref
	}
	if len(ep.DeprecatedTopology) == 0 {
		ep.DeprecatedTopology = nil
	}
	return ep
}

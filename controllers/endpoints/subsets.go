package endpoints

import (
	"fmt"
	"net/netip"
	"slices"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
)

// shouldPodBeInEndpoints reports whether pod belongs in any Endpoints: it
// has an IP and is not terminal, and it is not terminating unless
// includeTerminating (a Service that publishes not-ready addresses keeps
// terminating pods too).
//
// Upstream: k8s.io/endpointslice/util (ShouldPodBeInEndpoints).
func shouldPodBeInEndpoints(pod *corev1.Pod, includeTerminating bool) bool {
	if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return false
	}
	if pod.Status.PodIP == "" && len(pod.Status.PodIPs) == 0 {
		return false
	}
	return includeTerminating || pod.DeletionTimestamp == nil
}

// isPodReady reports whether pod's Ready condition is True.
//
// Upstream: k8s.io/kubernetes/pkg/api/v1/pod (IsPodReady).
func isPodReady(pod *corev1.Pod) bool {
	c := podReadyCondition(&pod.Status)
	return c != nil && c.Status == corev1.ConditionTrue
}

// podReadyCondition returns status's Ready condition, or nil.
func podReadyCondition(status *corev1.PodStatus) *corev1.PodCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == corev1.PodReady {
			return &status.Conditions[i]
		}
	}
	return nil
}

// serviceIPFamily is the address family the Service's endpoints are in:
// its first ipFamilies entry, else its cluster IP's family, else (a
// headless Service of an old server) the pod's first IP's.
func serviceIPFamily(svc *corev1.Service, pod *corev1.Pod) corev1.IPFamily {
	if len(svc.Spec.IPFamilies) > 0 {
		return svc.Spec.IPFamilies[0]
	}
	ip := svc.Spec.ClusterIP
	if ip == "" || ip == corev1.ClusterIPNone {
		ip = pod.Status.PodIP
	}
	if addr, err := netip.ParseAddr(ip); err == nil && addr.Unmap().Is6() {
		return corev1.IPv6Protocol
	}
	return corev1.IPv4Protocol
}

// podToEndpointAddress returns pod's address for svc: its IP of the
// Service's family, its node and a reference to it; false when the pod
// has no valid IP of that family.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint
// (podToEndpointAddressForService).
func podToEndpointAddress(svc *corev1.Service, pod *corev1.Pod) (corev1.EndpointAddress, bool) {
	family := serviceIPFamily(svc, pod)
	ips := make([]string, 0, len(pod.Status.PodIPs)+1)
	for _, ip := range pod.Status.PodIPs {
		ips = append(ips, ip.IP)
	}
	if len(ips) == 0 {
		// A status written by hand may carry podIP alone.
		ips = append(ips, pod.Status.PodIP)
	}
	for _, ip := range ips {
		addr, err := netip.ParseAddr(ip)
		if err != nil {
			continue
		}
		if addr.Unmap().Is6() != (family == corev1.IPv6Protocol) {
			continue
		}
		nodeName := pod.Spec.NodeName
		epa := corev1.EndpointAddress{
			IP:       ip,
			NodeName: &nodeName,
			TargetRef: &corev1.ObjectReference{
				Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID,
			},
		}
		// A pod named by hostname and subdomain gets a DNS name under a
		// headless Service called like the subdomain.
		if pod.Spec.Hostname != "" && pod.Spec.Subdomain == svc.Name && pod.Namespace == svc.Namespace {
			epa.Hostname = pod.Spec.Hostname
		}
		return epa, true
	}
	return corev1.EndpointAddress{}, false
}

// findPort resolves a Service port's targetPort in pod: a number as it
// is, a name by the pod's container ports (and its sidecars', init
// containers that keep running) of that name and the port's protocol.
//
// Upstream: k8s.io/kubernetes/pkg/api/v1/pod (FindPort).
func findPort(pod *corev1.Pod, sp *corev1.ServicePort) (int32, error) {
	switch sp.TargetPort.Type {
	case intstr.Int:
		if sp.TargetPort.IntVal > 0 {
			return sp.TargetPort.IntVal, nil
		}
		// The API defaults targetPort to port; an unset one read from
		// elsewhere means the same.
		return sp.Port, nil
	case intstr.String:
		name := sp.TargetPort.StrVal
		if name == "" {
			return sp.Port, nil
		}
		want := protocolOrTCP(sp.Protocol)
		for _, c := range pod.Spec.Containers {
			if port, ok := namedPort(c.Ports, name, want); ok {
				return port, nil
			}
		}
		for _, c := range pod.Spec.InitContainers {
			if c.RestartPolicy == nil || *c.RestartPolicy != corev1.ContainerRestartPolicyAlways {
				continue
			}
			if port, ok := namedPort(c.Ports, name, want); ok {
				return port, nil
			}
		}
	}
	return 0, fmt.Errorf("no port named %q in pod %s/%s", sp.TargetPort.StrVal, pod.Namespace, pod.Name)
}

// namedPort finds the port called name with protocol in ports.
func namedPort(ports []corev1.ContainerPort, name string, protocol corev1.Protocol) (int32, bool) {
	for _, p := range ports {
		if p.Name == name && protocolOrTCP(p.Protocol) == protocol {
			return p.ContainerPort, true
		}
	}
	return 0, false
}

// protocolOrTCP is p with the API's default applied.
func protocolOrTCP(p corev1.Protocol) corev1.Protocol {
	if p == "" {
		return corev1.ProtocolTCP
	}
	return p
}

// endpointPort is the EndpointPort of Service port sp resolved to port.
func endpointPort(sp *corev1.ServicePort, port int32) corev1.EndpointPort {
	return corev1.EndpointPort{Name: sp.Name, Port: port, Protocol: protocolOrTCP(sp.Protocol), AppProtocol: sp.AppProtocol}
}

// addEndpointSubset appends a subset of the one address epa with the
// port epp (none for a headless Service without ports): ready when the
// pod is ready or the Service publishes not-ready addresses.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint (addEndpointSubset).
func addEndpointSubset(subsets []corev1.EndpointSubset, pod *corev1.Pod, epa corev1.EndpointAddress,
	epp *corev1.EndpointPort, publishNotReady bool) []corev1.EndpointSubset {
	var ports []corev1.EndpointPort
	if epp != nil {
		ports = []corev1.EndpointPort{*epp}
	}
	if publishNotReady || isPodReady(pod) {
		return append(subsets, corev1.EndpointSubset{Addresses: []corev1.EndpointAddress{epa}, Ports: ports})
	}
	return append(subsets, corev1.EndpointSubset{NotReadyAddresses: []corev1.EndpointAddress{epa}, Ports: ports})
}

// desiredSubsets computes the Endpoints subsets of svc over pods (the
// pods its selector matches), in RepackSubsets' canonical form.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint (Controller.syncService).
func desiredSubsets(svc *corev1.Service, pods []*corev1.Pod) []corev1.EndpointSubset {
	var subsets []corev1.EndpointSubset
	publishNotReady := svc.Spec.PublishNotReadyAddresses
	for _, pod := range pods {
		if !shouldPodBeInEndpoints(pod, publishNotReady) {
			continue
		}
		epa, ok := podToEndpointAddress(svc, pod)
		if !ok {
			continue
		}
		if len(svc.Spec.Ports) == 0 {
			// Only a headless Service may have no ports: its addresses
			// are for DNS.
			if svc.Spec.ClusterIP == corev1.ClusterIPNone {
				subsets = addEndpointSubset(subsets, pod, epa, nil, publishNotReady)
			}
			continue
		}
		for i := range svc.Spec.Ports {
			sp := &svc.Spec.Ports[i]
			port, err := findPort(pod, sp)
			if err != nil {
				continue // this pod does not serve this port
			}
			epp := endpointPort(sp, port)
			subsets = addEndpointSubset(subsets, pod, epa, &epp, publishNotReady)
		}
	}
	return RepackSubsets(subsets)
}

// subsetsEqual reports whether two canonical subset lists hold the same
// endpoints. Unlike reflect.DeepEqual it takes nil and empty lists as
// equal and ignores the targets' resourceVersions, so a pod update that
// changes nothing the Endpoints show causes no write.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint
// (endpointSubsetsEqualIgnoreResourceVersion).
func subsetsEqual(a, b []corev1.EndpointSubset) bool {
	return slices.EqualFunc(a, b, func(x, y corev1.EndpointSubset) bool {
		return slices.EqualFunc(x.Addresses, y.Addresses, addressEqual) &&
			slices.EqualFunc(x.NotReadyAddresses, y.NotReadyAddresses, addressEqual) &&
			slices.EqualFunc(x.Ports, y.Ports, func(p, q corev1.EndpointPort) bool { return keyOfPort(p) == keyOfPort(q) })
	})
}

func addressEqual(a, b corev1.EndpointAddress) bool {
	if a.IP != b.IP || a.Hostname != b.Hostname || !ptrEqual(a.NodeName, b.NodeName) {
		return false
	}
	if (a.TargetRef == nil) != (b.TargetRef == nil) {
		return false
	}
	if a.TargetRef == nil {
		return true
	}
	ra, rb := *a.TargetRef, *b.TargetRef
	ra.ResourceVersion, rb.ResourceVersion = "", ""
	return ra == rb
}

func ptrEqual[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

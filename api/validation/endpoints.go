package validation

import (
	"net/netip"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// ValidateEndpoints checks Endpoints: a namespaced object named by a DNS
// subdomain (its Service's name), whose subsets each have addresses, every
// address a usable IP with a DNS-label hostname and a valid node name, and
// every port a named (when there are several), valid port and protocol.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateEndpointsCreate).
func ValidateEndpoints(ep *corev1.Endpoints) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&ep.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	for i := range ep.Subsets {
		ss, ssPath := &ep.Subsets[i], path("subsets").index(i)
		if len(ss.Addresses) == 0 && len(ss.NotReadyAddresses) == 0 {
			errs = append(errs, apierrors.Required(ssPath.String(), "must specify `addresses` or `notReadyAddresses`"))
		}
		for j := range ss.Addresses {
			errs = append(errs, validateEndpointAddress(&ss.Addresses[j], ssPath.child("addresses").index(j))...)
		}
		for j := range ss.NotReadyAddresses {
			errs = append(errs, validateEndpointAddress(&ss.NotReadyAddresses[j], ssPath.child("notReadyAddresses").index(j))...)
		}
		for j := range ss.Ports {
			errs = append(errs, validateEndpointPort(&ss.Ports[j], len(ss.Ports) > 1, ssPath.child("ports").index(j))...)
		}
	}
	return errs
}

// ValidateEndpointsUpdate checks an update of Endpoints: the metadata
// update rules and the new Endpoints.
func ValidateEndpointsUpdate(ep, old *corev1.Endpoints) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&ep.ObjectMeta, &old.ObjectMeta, "metadata")
	return append(errs, ValidateEndpoints(ep)...)
}

func validateEndpointAddress(addr *corev1.EndpointAddress, fldPath path) apierrors.FieldErrors {
	errs := validateEndpointIP(addr.IP, fldPath.child("ip"))
	errs = append(errs, validateLabelField(addr.Hostname, fldPath.child("hostname"))...)
	if addr.NodeName != nil {
		for _, msg := range IsDNS1123Subdomain(*addr.NodeName) {
			errs = append(errs, apierrors.Invalid(fldPath.child("nodeName").String(), *addr.NodeName, msg))
		}
	}
	return errs
}

// validateEndpointIP checks an IP traffic can be sent to: not unspecified,
// link-local or multicast. Unlike upstream, minicp accepts loopback
// addresses: its API server, and the backends of examples running on one
// machine, listen on 127.0.0.1.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateNonSpecialIP).
func validateEndpointIP(ip string, fldPath path) apierrors.FieldErrors {
	if msgs := IsValidIP(ip); len(msgs) > 0 {
		return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), ip, msgs[0])}
	}
	addr, _ := netip.ParseAddr(ip)
	addr = addr.Unmap()
	var msg string
	switch {
	case addr.IsUnspecified():
		msg = "may not be unspecified (0.0.0.0)"
	case addr.IsLinkLocalUnicast():
		msg = "may not be in the link-local range (169.254.0.0/16, fe80::/10)"
	case addr.IsLinkLocalMulticast():
		msg = "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"
	case addr.IsMulticast():
		msg = "may not be in the multicast range (224.0.0.0/4, ff00::/8)"
	default:
		return nil
	}
	return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), ip, msg)}
}

func validateEndpointPort(port *corev1.EndpointPort, requireName bool, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if requireName && port.Name == "" {
		errs = append(errs, apierrors.Required(fldPath.child("name").String(), ""))
	} else {
		errs = append(errs, validateLabelField(port.Name, fldPath.child("name"))...)
	}
	for _, msg := range IsValidPortNum(int(port.Port)) {
		errs = append(errs, apierrors.Invalid(fldPath.child("port").String(), port.Port, msg))
	}
	errs = append(errs, validatePortProtocol(port.Protocol, fldPath.child("protocol"))...)
	if port.AppProtocol != nil {
		errs = append(errs, validateQualifiedNameField(*port.AppProtocol, fldPath.child("appProtocol"))...)
	}
	return errs
}

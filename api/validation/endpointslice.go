package validation

import (
	"net/netip"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
)

// The limits of an EndpointSlice, as upstream's. A slice is meant to be
// small (the controller writes at most 100 endpoints), but a hand-written
// one may hold up to maxSliceEndpoints.
const (
	maxSliceEndpoints   = 1000
	maxEndpointAddrs    = 100
	maxSlicePorts       = 20000
	maxTopologyLabels   = 16
	maxZoneOrNodeHints  = 8
	maxFQDNLength       = 253
	maxFQDNLabelsLength = 63
)

var supportedAddressTypes = []string{
	string(discoveryv1.AddressTypeFQDN), string(discoveryv1.AddressTypeIPv4), string(discoveryv1.AddressTypeIPv6),
}

// ValidateEndpointSlice checks an EndpointSlice: a namespaced object
// named by a DNS subdomain, a supported address type, at most 1000
// endpoints, each with 1 to 100 addresses of that type, a DNS-label
// hostname and a valid node name, and ports with unique DNS-label names
// and a supported protocol.
//
// Upstream: k8s.io/kubernetes/pkg/apis/discovery/validation (ValidateEndpointSliceCreate).
func ValidateEndpointSlice(slice *discoveryv1.EndpointSlice) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&slice.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	switch {
	case slice.AddressType == "":
		errs = append(errs, apierrors.Required("addressType", ""))
	case !strings.Contains(","+strings.Join(supportedAddressTypes, ",")+",", ","+string(slice.AddressType)+","):
		errs = append(errs, apierrors.NotSupported("addressType", slice.AddressType, supportedAddressTypes))
	}
	errs = append(errs, validateSliceEndpoints(slice.Endpoints, slice.AddressType, path("endpoints"))...)
	return append(errs, validateSlicePorts(slice.Ports, path("ports"))...)
}

// ValidateEndpointSliceUpdate checks an update of an EndpointSlice: the
// metadata update rules, the new slice, and an address type that has
// not changed.
//
// Upstream: k8s.io/kubernetes/pkg/apis/discovery/validation (ValidateEndpointSliceUpdate).
func ValidateEndpointSliceUpdate(slice, old *discoveryv1.EndpointSlice) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&slice.ObjectMeta, &old.ObjectMeta, "metadata")
	errs = append(errs, ValidateEndpointSlice(slice)...)
	return append(errs, ValidateImmutableField(slice.AddressType, old.AddressType, "addressType")...)
}

func validateSliceEndpoints(endpoints []discoveryv1.Endpoint, addrType discoveryv1.AddressType, fldPath path) apierrors.FieldErrors {
	if len(endpoints) > maxSliceEndpoints {
		return apierrors.FieldErrors{apierrors.TooMany(fldPath.String(), len(endpoints), maxSliceEndpoints)}
	}
	var errs apierrors.FieldErrors
	for i := range endpoints {
		ep, epPath := &endpoints[i], fldPath.index(i)
		addrPath := epPath.child("addresses")
		switch {
		case len(ep.Addresses) == 0:
			errs = append(errs, apierrors.Required(addrPath.String(), "must contain at least 1 address"))
		case len(ep.Addresses) > maxEndpointAddrs:
			errs = append(errs, apierrors.TooMany(addrPath.String(), len(ep.Addresses), maxEndpointAddrs))
		}
		for j, addr := range ep.Addresses {
			errs = append(errs, validateSliceAddress(addr, addrType, addrPath.index(j))...)
		}
		if ep.NodeName != nil {
			for _, msg := range IsDNS1123Subdomain(*ep.NodeName) {
				errs = append(errs, apierrors.Invalid(epPath.child("nodeName").String(), *ep.NodeName, msg))
			}
		}
		topoPath := epPath.child("deprecatedTopology")
		if len(ep.DeprecatedTopology) > maxTopologyLabels {
			errs = append(errs, apierrors.TooMany(topoPath.String(), len(ep.DeprecatedTopology), maxTopologyLabels))
		}
		errs = append(errs, ValidateLabels(ep.DeprecatedTopology, topoPath.String())...)
		if ep.Hostname != nil {
			for _, msg := range IsDNS1123Label(*ep.Hostname) {
				errs = append(errs, apierrors.Invalid(epPath.child("hostname").String(), *ep.Hostname, msg))
			}
		}
		if ep.Hints != nil {
			errs = append(errs, validateSliceHints(ep.Hints, epPath.child("hints"))...)
		}
	}
	return errs
}

// validateSliceAddress checks one address against the slice's type; an
// unsupported type is reported once, by ValidateEndpointSlice.
func validateSliceAddress(addr string, addrType discoveryv1.AddressType, fldPath path) apierrors.FieldErrors {
	switch addrType {
	case discoveryv1.AddressTypeIPv4, discoveryv1.AddressTypeIPv6:
		ip, err := netip.ParseAddr(addr)
		want4 := addrType == discoveryv1.AddressTypeIPv4
		if err != nil || ip.Zone() != "" || ip.Is4() != want4 && !(want4 && ip.Is4In6()) {
			msg := "must be a valid IPv6 address"
			if want4 {
				msg = "must be a valid IPv4 address"
			}
			return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), addr, msg)}
		}
		return validateEndpointIP(addr, fldPath)
	case discoveryv1.AddressTypeFQDN:
		return validateFQDN(addr, fldPath)
	}
	return nil
}

// validateFQDN checks a fully qualified domain name: at least two DNS
// labels, 253 characters at most.
//
// Upstream: k8s.io/apimachinery/pkg/util/validation (IsFullyQualifiedDomainName).
func validateFQDN(name string, fldPath path) apierrors.FieldErrors {
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if name == "" {
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), "")}
	}
	if len(name) > maxFQDNLength {
		return apierrors.FieldErrors{apierrors.TooLong(fldPath.String(), name, maxFQDNLength)}
	}
	if !strings.Contains(name, ".") {
		return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), name, "should be a domain with at least two segments separated by dots")}
	}
	var errs apierrors.FieldErrors
	for label := range strings.SplitSeq(name, ".") {
		if len(label) > maxFQDNLabelsLength {
			errs = append(errs, apierrors.Invalid(fldPath.String(), name, "a DNS label must be no more than 63 characters"))
			continue
		}
		for _, msg := range IsDNS1123Label(label) {
			errs = append(errs, apierrors.Invalid(fldPath.String(), name, msg))
		}
	}
	return errs
}

func validateSliceHints(hints *discoveryv1.EndpointHints, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	zonesPath := fldPath.child("forZones")
	if len(hints.ForZones) > maxZoneOrNodeHints {
		errs = append(errs, apierrors.TooMany(zonesPath.String(), len(hints.ForZones), maxZoneOrNodeHints))
	}
	seen := map[string]bool{}
	for i, z := range hints.ForZones {
		p := zonesPath.index(i).child("name")
		if seen[z.Name] {
			errs = append(errs, apierrors.Duplicate(p.String(), z.Name))
		}
		seen[z.Name] = true
		for _, msg := range IsValidLabelValue(z.Name) {
			errs = append(errs, apierrors.Invalid(p.String(), z.Name, msg))
		}
	}
	nodesPath := fldPath.child("forNodes")
	if len(hints.ForNodes) > maxZoneOrNodeHints {
		errs = append(errs, apierrors.TooMany(nodesPath.String(), len(hints.ForNodes), maxZoneOrNodeHints))
	}
	seen = map[string]bool{}
	for i, n := range hints.ForNodes {
		p := nodesPath.index(i).child("name")
		if seen[n.Name] {
			errs = append(errs, apierrors.Duplicate(p.String(), n.Name))
		}
		seen[n.Name] = true
		for _, msg := range IsDNS1123Subdomain(n.Name) {
			errs = append(errs, apierrors.Invalid(p.String(), n.Name, msg))
		}
	}
	return errs
}

func validateSlicePorts(ports []discoveryv1.EndpointPort, fldPath path) apierrors.FieldErrors {
	if len(ports) > maxSlicePorts {
		return apierrors.FieldErrors{apierrors.TooMany(fldPath.String(), len(ports), maxSlicePorts)}
	}
	var errs apierrors.FieldErrors
	names := map[string]bool{}
	for i := range ports {
		p, pPath := &ports[i], fldPath.index(i)
		name := ""
		if p.Name != nil {
			name = *p.Name
		}
		errs = append(errs, validateLabelField(name, pPath.child("name"))...)
		if names[name] {
			errs = append(errs, apierrors.Duplicate(pPath.child("name").String(), name))
		}
		names[name] = true
		var proto corev1.Protocol
		if p.Protocol != nil {
			proto = *p.Protocol
		}
		errs = append(errs, validatePortProtocol(proto, pPath.child("protocol"))...)
		if p.AppProtocol != nil {
			errs = append(errs, validateQualifiedNameField(*p.AppProtocol, pPath.child("appProtocol"))...)
		}
	}
	return errs
}

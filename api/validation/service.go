package validation

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// kubeletPort may not be a LoadBalancer's port: clouds that open their
// firewalls for a load balancer's ports would expose the kubelet.
const kubeletPort = 10250

var (
	supportedPortProtocols    = []string{string(corev1.ProtocolSCTP), string(corev1.ProtocolTCP), string(corev1.ProtocolUDP)}
	supportedServiceTypes     = []string{string(corev1.ServiceTypeClusterIP), string(corev1.ServiceTypeExternalName), string(corev1.ServiceTypeLoadBalancer), string(corev1.ServiceTypeNodePort)}
	supportedSessionAffinity  = []string{string(corev1.ServiceAffinityClientIP), string(corev1.ServiceAffinityNone)}
	supportedTrafficPolicies  = []string{string(corev1.ServiceExternalTrafficPolicyCluster), string(corev1.ServiceExternalTrafficPolicyLocal)}
	supportedIPFamilies       = []string{string(corev1.IPv4Protocol), string(corev1.IPv6Protocol)}
	supportedIPFamilyPolicies = []string{string(corev1.IPFamilyPolicyPreferDualStack), string(corev1.IPFamilyPolicyRequireDualStack), string(corev1.IPFamilyPolicySingleStack)}
)

// ValidateService checks a defaulted Service whose cluster IP and node
// ports the API server has allocated: a namespaced object named by a DNS-1035
// label (it becomes a DNS name and environment variables), its type and the
// fields each type allows, its ports (named when there are several, unique
// by name and by port and protocol), its selector, session affinity,
// cluster IPs, IP families and traffic policies.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateService).
func ValidateService(svc *corev1.Service) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&svc.ObjectMeta, true, NameIsDNS1035Label, "metadata")
	spec, p := &svc.Spec, path("spec")
	headless := isHeadlessService(svc)
	if len(spec.Ports) == 0 && !headless && spec.Type != corev1.ServiceTypeExternalName {
		errs = append(errs, apierrors.Required(p.child("ports").String(), ""))
	}
	switch spec.Type {
	case corev1.ServiceTypeLoadBalancer:
		for i, port := range spec.Ports {
			if port.Port == kubeletPort {
				errs = append(errs, apierrors.Invalid(p.child("ports").index(i).String(), port.Port,
					fmt.Sprintf("may not expose port %v externally since it is used by kubelet", kubeletPort)))
			}
		}
		if headless {
			errs = append(errs, apierrors.Invalid(p.child("clusterIPs").index(0).String(), spec.ClusterIPs[0], "may not be set to 'None' for LoadBalancer services"))
		}
	case corev1.ServiceTypeNodePort:
		if headless {
			errs = append(errs, apierrors.Invalid(p.child("clusterIPs").index(0).String(), spec.ClusterIPs[0], "may not be set to 'None' for NodePort services"))
		}
	case corev1.ServiceTypeExternalName:
		if len(spec.ClusterIPs) > 0 {
			errs = append(errs, apierrors.Forbidden(p.child("clusterIPs").String(), "may not be set for ExternalName services"))
		}
		if len(spec.IPFamilies) > 0 {
			errs = append(errs, apierrors.Forbidden(p.child("ipFamilies").String(), "may not be set for ExternalName services"))
		}
		if spec.IPFamilyPolicy != nil {
			errs = append(errs, apierrors.Forbidden(p.child("ipFamilyPolicy").String(), "may not be set for ExternalName services"))
		}
		// A trailing dot marks the CNAME as fully qualified.
		if cname := strings.TrimSuffix(spec.ExternalName, "."); cname != "" {
			for _, msg := range IsDNS1123Subdomain(cname) {
				errs = append(errs, apierrors.Invalid(p.child("externalName").String(), cname, msg))
			}
		} else {
			errs = append(errs, apierrors.Required(p.child("externalName").String(), ""))
		}
	}
	names := map[string]bool{}
	for i := range spec.Ports {
		errs = append(errs, validateServicePort(&spec.Ports[i], len(spec.Ports) > 1, names, p.child("ports").index(i))...)
	}
	errs = append(errs, ValidateLabels(spec.Selector, p.child("selector").String())...)
	switch spec.SessionAffinity {
	case "":
		errs = append(errs, apierrors.Required(p.child("sessionAffinity").String(), ""))
	case corev1.ServiceAffinityClientIP:
		errs = append(errs, validateClientIPAffinityConfig(spec.SessionAffinityConfig, p.child("sessionAffinityConfig"))...)
	case corev1.ServiceAffinityNone:
		if spec.SessionAffinityConfig != nil {
			errs = append(errs, apierrors.Forbidden(p.child("sessionAffinityConfig").String(),
				fmt.Sprintf("must not be set when session affinity is %s", corev1.ServiceAffinityNone)))
		}
	default:
		errs = append(errs, apierrors.NotSupported(p.child("sessionAffinity").String(), spec.SessionAffinity, supportedSessionAffinity))
	}
	errs = append(errs, validateServiceClusterIPs(svc)...)
	for i, ip := range spec.ExternalIPs {
		errs = append(errs, validateEndpointIP(ip, p.child("externalIPs").index(i))...)
	}
	switch spec.Type {
	case "":
		errs = append(errs, apierrors.Required(p.child("type").String(), ""))
	case corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeExternalName:
	default:
		errs = append(errs, apierrors.NotSupported(p.child("type").String(), spec.Type, supportedServiceTypes))
	}
	errs = append(errs, validateServicePortsUnique(svc)...)
	if spec.AllocateLoadBalancerNodePorts != nil && spec.Type != corev1.ServiceTypeLoadBalancer {
		errs = append(errs, apierrors.Forbidden(p.child("allocateLoadBalancerNodePorts").String(), "may only be used when `type` is 'LoadBalancer'"))
	}
	if spec.Type == corev1.ServiceTypeLoadBalancer && spec.AllocateLoadBalancerNodePorts == nil {
		errs = append(errs, apierrors.Required("allocateLoadBalancerNodePorts", ""))
	}
	if spec.LoadBalancerClass != nil && spec.Type != corev1.ServiceTypeLoadBalancer {
		errs = append(errs, apierrors.Forbidden(p.child("loadBalancerClass").String(), "may only be used when `type` is 'LoadBalancer'"))
	}
	errs = append(errs, validateServiceTrafficPolicies(svc)...)
	return errs
}

// isHeadlessService reports a Service with clusterIP None.
func isHeadlessService(svc *corev1.Service) bool {
	return len(svc.Spec.ClusterIPs) == 1 && svc.Spec.ClusterIPs[0] == corev1.ClusterIPNone
}

// NeedsHealthCheck reports a Service that needs a health check node port:
// a LoadBalancer that keeps external traffic on the node it arrived on.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/v1/helper (NeedsHealthCheck).
func NeedsHealthCheck(svc *corev1.Service) bool {
	return svc.Spec.Type == corev1.ServiceTypeLoadBalancer && svc.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
}

func validateServicePort(sp *corev1.ServicePort, requireName bool, names map[string]bool, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if requireName && sp.Name == "" {
		errs = append(errs, apierrors.Required(fldPath.child("name").String(), ""))
	} else if sp.Name != "" {
		errs = append(errs, validateLabelField(sp.Name, fldPath.child("name"))...)
		if names[sp.Name] {
			errs = append(errs, apierrors.Duplicate(fldPath.child("name").String(), sp.Name))
		}
		names[sp.Name] = true
	}
	for _, msg := range IsValidPortNum(int(sp.Port)) {
		errs = append(errs, apierrors.Invalid(fldPath.child("port").String(), sp.Port, msg))
	}
	errs = append(errs, validatePortProtocol(sp.Protocol, fldPath.child("protocol"))...)
	errs = append(errs, validatePortNumOrName(sp.TargetPort, fldPath.child("targetPort"))...)
	if sp.AppProtocol != nil {
		errs = append(errs, validateQualifiedNameField(*sp.AppProtocol, fldPath.child("appProtocol"))...)
	}
	return errs
}

func validatePortProtocol(proto corev1.Protocol, fldPath path) apierrors.FieldErrors {
	switch proto {
	case corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
		return nil
	case "":
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), "")}
	}
	return apierrors.FieldErrors{apierrors.NotSupported(fldPath.String(), proto, supportedPortProtocols)}
}

// maxClientIPServiceAffinitySeconds is a day: the longest ClientIP
// affinity upstream allows.
const maxClientIPServiceAffinitySeconds = 86400

func validateClientIPAffinityConfig(cfg *corev1.SessionAffinityConfig, fldPath path) apierrors.FieldErrors {
	switch {
	case cfg == nil:
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), fmt.Sprintf("when session affinity type is %s", corev1.ServiceAffinityClientIP))}
	case cfg.ClientIP == nil:
		return apierrors.FieldErrors{apierrors.Required(fldPath.child("clientIP").String(), fmt.Sprintf("when session affinity type is %s", corev1.ServiceAffinityClientIP))}
	case cfg.ClientIP.TimeoutSeconds == nil:
		return apierrors.FieldErrors{apierrors.Required(fldPath.child("clientIP", "timeoutSeconds").String(), fmt.Sprintf("when session affinity type is %s", corev1.ServiceAffinityClientIP))}
	}
	if t := *cfg.ClientIP.TimeoutSeconds; t <= 0 || t > maxClientIPServiceAffinitySeconds {
		return apierrors.FieldErrors{apierrors.Invalid(fldPath.child("clientIP", "timeoutSeconds").String(), t,
			InclusiveRangeError(1, maxClientIPServiceAffinitySeconds))}
	}
	return nil
}

// validateServiceClusterIPs checks clusterIP and clusterIPs agree, that
// each is an IP (or "None", alone), at most one per family, and that the
// IP families and policy are known and match the IPs.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateServiceClusterIPsRelatedFields).
func validateServiceClusterIPs(svc *corev1.Service) apierrors.FieldErrors {
	spec := &svc.Spec
	// ExternalName services have none of these; checked by type above.
	if spec.Type == corev1.ServiceTypeExternalName {
		return nil
	}
	var errs apierrors.FieldErrors
	ipsPath := path("spec").child("clusterIPs")
	if spec.ClusterIP != "" {
		if len(spec.ClusterIPs) == 0 {
			errs = append(errs, apierrors.Required(ipsPath.String(), ""))
		} else if spec.ClusterIPs[0] != spec.ClusterIP {
			errs = append(errs, apierrors.Invalid(ipsPath.String(), spec.ClusterIPs, "first value must match `clusterIP`"))
		}
	} else if len(spec.ClusterIPs) != 0 {
		errs = append(errs, apierrors.Invalid(ipsPath.String(), spec.ClusterIPs, "must be empty when `clusterIP` is not specified"))
	}
	seen := map[corev1.IPFamily]bool{}
	for i, f := range spec.IPFamilies {
		famPath := path("spec").child("ipFamilies").index(i).String()
		if f != corev1.IPv4Protocol && f != corev1.IPv6Protocol {
			errs = append(errs, apierrors.NotSupported(famPath, f, supportedIPFamilies))
		}
		if seen[f] {
			errs = append(errs, apierrors.Duplicate(famPath, f))
		}
		seen[f] = true
	}
	if pol := spec.IPFamilyPolicy; pol != nil {
		switch *pol {
		case corev1.IPFamilyPolicySingleStack, corev1.IPFamilyPolicyPreferDualStack, corev1.IPFamilyPolicyRequireDualStack:
		default:
			errs = append(errs, apierrors.NotSupported("spec.ipFamilyPolicy", *pol, supportedIPFamilyPolicies))
		}
	}
	invalidIPs := false
	for i, ip := range spec.ClusterIPs {
		if i == 0 && ip == corev1.ClusterIPNone {
			if len(spec.ClusterIPs) > 1 {
				invalidIPs = true
				errs = append(errs, apierrors.Invalid(ipsPath.String(), spec.ClusterIPs, "'None' must be the first and only value"))
			}
			continue
		}
		for _, msg := range IsValidIP(ip) {
			invalidIPs = true
			errs = append(errs, apierrors.Invalid(ipsPath.index(i).String(), ip, msg))
		}
	}
	if len(spec.ClusterIPs) > 2 {
		errs = append(errs, apierrors.Invalid(ipsPath.String(), spec.ClusterIPs, "may only hold up to 2 values"))
	}
	// Family checks on IPs that do not parse would only add noise.
	if invalidIPs {
		return errs
	}
	if len(spec.ClusterIPs) == 2 && isIPv6(spec.ClusterIPs[0]) == isIPv6(spec.ClusterIPs[1]) {
		errs = append(errs, apierrors.Invalid(ipsPath.String(), spec.ClusterIPs, "may specify no more than one IP for each IP family"))
	}
	if !isHeadlessService(svc) {
		for i, ip := range spec.ClusterIPs {
			if i >= len(spec.IPFamilies) {
				break
			}
			switch {
			case spec.IPFamilies[i] == corev1.IPv4Protocol && isIPv6(ip):
				errs = append(errs, apierrors.Invalid(ipsPath.index(i).String(), ip, fmt.Sprintf("expected an IPv4 value as indicated by `ipFamilies[%v]`", i)))
			case spec.IPFamilies[i] == corev1.IPv6Protocol && !isIPv6(ip):
				errs = append(errs, apierrors.Invalid(ipsPath.index(i).String(), ip, fmt.Sprintf("expected an IPv6 value as indicated by `ipFamilies[%v]`", i)))
			}
		}
	}
	return errs
}

func isIPv6(ip string) bool {
	addr, err := netip.ParseAddr(ip)
	return err == nil && addr.Is6() && !addr.Is4In6()
}

// validateServicePortsUnique checks node ports are only used by types that
// have them, and that no node port nor {port, protocol} repeats.
func validateServicePortsUnique(svc *corev1.Service) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	portsPath := path("spec").child("ports")
	type key struct {
		protocol corev1.Protocol
		port     int32
	}
	nodePorts, ports := map[key]bool{}, map[key]bool{}
	for i, port := range svc.Spec.Ports {
		portPath := portsPath.index(i)
		if svc.Spec.Type == corev1.ServiceTypeClusterIP && port.NodePort != 0 {
			errs = append(errs, apierrors.Forbidden(portPath.child("nodePort").String(), "may not be used when `type` is 'ClusterIP'"))
		}
		if port.NodePort != 0 {
			k := key{port.Protocol, port.NodePort}
			if nodePorts[k] {
				errs = append(errs, apierrors.Duplicate(portPath.child("nodePort").String(), port.NodePort))
			}
			nodePorts[k] = true
		}
		k := key{port.Protocol, port.Port}
		if ports[k] {
			errs = append(errs, apierrors.Duplicate(portPath.String(), corev1.ServicePort{Protocol: port.Protocol, Port: port.Port}))
		}
		ports[k] = true
	}
	return errs
}

func validateServiceTrafficPolicies(svc *corev1.Service) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	spec, p := &svc.Spec, path("spec")
	if !corev1.ExternallyAccessible(svc) {
		if spec.ExternalTrafficPolicy != "" {
			errs = append(errs, apierrors.Invalid(p.child("externalTrafficPolicy").String(), spec.ExternalTrafficPolicy,
				"may only be set for externally-accessible services"))
		}
	} else {
		switch spec.ExternalTrafficPolicy {
		case "":
			errs = append(errs, apierrors.Required(p.child("externalTrafficPolicy").String(), ""))
		case corev1.ServiceExternalTrafficPolicyCluster, corev1.ServiceExternalTrafficPolicyLocal:
		default:
			errs = append(errs, apierrors.NotSupported(p.child("externalTrafficPolicy").String(), spec.ExternalTrafficPolicy, supportedTrafficPolicies))
		}
	}
	hcPath := p.child("healthCheckNodePort").String()
	if !NeedsHealthCheck(svc) {
		if spec.HealthCheckNodePort != 0 {
			errs = append(errs, apierrors.Invalid(hcPath, spec.HealthCheckNodePort,
				"may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
		}
	} else if spec.HealthCheckNodePort == 0 {
		errs = append(errs, apierrors.Required(hcPath, ""))
	} else {
		for _, msg := range IsValidPortNum(int(spec.HealthCheckNodePort)) {
			errs = append(errs, apierrors.Invalid(hcPath, spec.HealthCheckNodePort, msg))
		}
	}
	itpPath := p.child("internalTrafficPolicy").String()
	if spec.InternalTrafficPolicy == nil {
		if spec.Type != corev1.ServiceTypeExternalName {
			errs = append(errs, apierrors.Required(itpPath, ""))
		}
	} else {
		switch *spec.InternalTrafficPolicy {
		case corev1.ServiceInternalTrafficPolicyCluster, corev1.ServiceInternalTrafficPolicyLocal:
		default:
			errs = append(errs, apierrors.NotSupported(itpPath, *spec.InternalTrafficPolicy, supportedTrafficPolicies))
		}
	}
	return errs
}

// ValidateServiceUpdate checks an update of a Service: the metadata update
// rules, the new Service, and cluster IPs that do not change once set,
// except when the type changes to or from ExternalName, which has none.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateServiceUpdate).
func ValidateServiceUpdate(svc, old *corev1.Service) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&svc.ObjectMeta, &old.ObjectMeta, "metadata")
	if svc.Spec.Type != corev1.ServiceTypeExternalName && old.Spec.Type != corev1.ServiceTypeExternalName &&
		!(isHeadlessService(svc) && isHeadlessService(old)) {
		ips, oldIPs := svc.Spec.ClusterIPs, old.Spec.ClusterIPs
		ipsPath := path("spec").child("clusterIPs")
		switch {
		case len(ips) == 0 && len(oldIPs) > 0:
			errs = append(errs, apierrors.Invalid(ipsPath.index(0).String(), ips, "primary clusterIP can not be unset"))
		case len(ips) > 0 && len(oldIPs) > 0 && ips[0] != oldIPs[0]:
			errs = append(errs, apierrors.Invalid(ipsPath.index(0).String(), ips, "may not change once set"))
		}
	}
	return append(errs, ValidateService(svc)...)
}

// ValidateServiceStatusUpdate checks a write of a Service's status: the
// load balancer's ingress points are IPs and DNS names.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateServiceStatusUpdate).
func ValidateServiceStatusUpdate(svc, old *corev1.Service) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&svc.ObjectMeta, &old.ObjectMeta, "metadata")
	ingressPath := path("status").child("loadBalancer", "ingress")
	for i, ing := range svc.Status.LoadBalancer.Ingress {
		if ing.IP != "" {
			errs = append(errs, validateIPField(ing.IP, ingressPath.index(i).child("ip"))...)
		}
		if ing.Hostname != "" {
			for _, msg := range IsDNS1123Subdomain(ing.Hostname) {
				errs = append(errs, apierrors.Invalid(ingressPath.index(i).child("hostname").String(), ing.Hostname, msg))
			}
			if _, err := netip.ParseAddr(ing.Hostname); err == nil {
				errs = append(errs, apierrors.Invalid(ingressPath.index(i).child("hostname").String(), ing.Hostname, "must be a DNS name, not an IP address"))
			}
		}
	}
	return errs
}

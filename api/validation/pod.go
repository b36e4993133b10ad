package validation

import (
	"fmt"
	"math"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// The limits of a pod's DNS configuration, as the resolver allows.
const (
	maxDNSNameservers = 3
	maxDNSSearchPaths = 32
)

// ValidatePod checks a defaulted pod being created: its metadata (a
// namespaced object named by a DNS subdomain) and its spec.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidatePodCreate).
func ValidatePod(pod *corev1.Pod) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&pod.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	return append(errs, ValidatePodSpec(&pod.Spec, "spec")...)
}

// ValidatePodSpec checks a defaulted pod spec at fldPath ("spec" for a
// pod, "spec.template.spec" for a workload): volumes; at least one
// container; container names unique DNS labels across containers and init
// containers; images, ports, env, resources, probes and mounts of each
// container; restartPolicy and dnsPolicy; nodeSelector labels; names of
// the node, service account, scheduler and priority class; deadlines;
// the security context's ids and sysctls; tolerations, affinity and
// spread constraints.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidatePodSpec).
func ValidatePodSpec(spec *corev1.PodSpec, fldPath string) apierrors.FieldErrors {
	p := path(fldPath)
	volumes, errs := validateVolumes(spec.Volumes, p.child("volumes"))
	errs = append(errs, validateContainers(spec, volumes, p)...)
	errs = append(errs, validateRestartPolicy(spec.RestartPolicy, p.child("restartPolicy"))...)
	errs = append(errs, validateDNSPolicy(spec.DNSPolicy, p.child("dnsPolicy"))...)
	errs = append(errs, ValidateLabels(spec.NodeSelector, p.child("nodeSelector").String())...)
	errs = append(errs, validateHostNetwork(spec, p.child("containers"))...)
	errs = append(errs, validateImagePullSecrets(spec.ImagePullSecrets, p.child("imagePullSecrets"))...)
	errs = append(errs, validateSubdomainField(spec.ServiceAccountName, p.child("serviceAccountName"))...)
	errs = append(errs, validateSubdomainField(spec.NodeName, p.child("nodeName"))...)
	errs = append(errs, validateSubdomainField(spec.SchedulerName, p.child("schedulerName"))...)
	errs = append(errs, validateSubdomainField(spec.PriorityClassName, p.child("priorityClassName"))...)
	if spec.RuntimeClassName != nil {
		errs = append(errs, validateSubdomainField(*spec.RuntimeClassName, p.child("runtimeClassName"))...)
	}
	errs = append(errs, validateLabelField(spec.Hostname, p.child("hostname"))...)
	errs = append(errs, validateLabelField(spec.Subdomain, p.child("subdomain"))...)
	errs = append(errs, validatePodSecurityContext(spec.SecurityContext, p.child("securityContext"))...)
	if spec.SecurityContext != nil {
		errs = append(errs, validateSysctls(spec, p.child("securityContext").child("sysctls"))...)
	}
	if spec.ActiveDeadlineSeconds != nil {
		if v := *spec.ActiveDeadlineSeconds; v < 1 || v > math.MaxInt32 {
			errs = append(errs, apierrors.Invalid(p.child("activeDeadlineSeconds").String(), v, InclusiveRangeError(1, math.MaxInt32)))
		}
	}
	if spec.TerminationGracePeriodSeconds != nil && *spec.TerminationGracePeriodSeconds < 0 {
		errs = append(errs, apierrors.Invalid(p.child("terminationGracePeriodSeconds").String(), *spec.TerminationGracePeriodSeconds, isNegativeErrorMsg))
	}
	errs = append(errs, ValidateTolerations(spec.Tolerations, p.child("tolerations").String())...)
	errs = append(errs, validateAffinity(spec.Affinity, p.child("affinity"))...)
	errs = append(errs, validateTopologySpreadConstraints(spec.TopologySpreadConstraints, p.child("topologySpreadConstraints"))...)
	errs = append(errs, validateHostAliases(spec.HostAliases, p.child("hostAliases"))...)
	errs = append(errs, validatePodDNSConfig(spec.DNSConfig, spec.DNSPolicy, p.child("dnsConfig"))...)
	for i, gate := range spec.ReadinessGates {
		errs = append(errs, validateQualifiedNameField(string(gate.ConditionType), p.child("readinessGates").index(i).child("conditionType"))...)
	}
	if spec.PreemptionPolicy != nil {
		switch *spec.PreemptionPolicy {
		case corev1.PreemptLowerPriority, corev1.PreemptNever:
		default:
			errs = append(errs, apierrors.NotSupported(p.child("preemptionPolicy").String(), *spec.PreemptionPolicy,
				[]string{string(corev1.PreemptLowerPriority), string(corev1.PreemptNever)}))
		}
	}
	for _, name := range sortedKeys(spec.Overhead) {
		errs = append(errs, validateResourceQuantityValue(name, spec.Overhead[name], p.child("overhead").key(string(name)))...)
	}
	return errs
}

func validateRestartPolicy(policy corev1.RestartPolicy, fldPath path) apierrors.FieldErrors {
	switch policy {
	case corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
		return nil
	case "":
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), "")}
	}
	return apierrors.FieldErrors{apierrors.NotSupported(fldPath.String(), policy, []string{
		string(corev1.RestartPolicyAlways), string(corev1.RestartPolicyOnFailure), string(corev1.RestartPolicyNever)})}
}

func validateDNSPolicy(policy corev1.DNSPolicy, fldPath path) apierrors.FieldErrors {
	switch policy {
	case corev1.DNSClusterFirstWithHostNet, corev1.DNSClusterFirst, corev1.DNSDefault, corev1.DNSNone:
		return nil
	case "":
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), "")}
	}
	return apierrors.FieldErrors{apierrors.NotSupported(fldPath.String(), policy, []string{
		string(corev1.DNSClusterFirstWithHostNet), string(corev1.DNSClusterFirst), string(corev1.DNSDefault), string(corev1.DNSNone)})}
}

// validateHostNetwork checks that with the host's network every container
// port is its own host port (defaulting makes it so when hostPort is unset).
func validateHostNetwork(spec *corev1.PodSpec, containersPath path) apierrors.FieldErrors {
	if !spec.HostNetwork {
		return nil
	}
	var errs apierrors.FieldErrors
	for i, c := range spec.Containers {
		for j, port := range c.Ports {
			if port.HostPort != port.ContainerPort {
				errs = append(errs, apierrors.Invalid(containersPath.index(i).child("ports").index(j).child("containerPort").String(),
					port.ContainerPort, "must match `hostPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}

func validateImagePullSecrets(secrets []corev1.LocalObjectReference, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, s := range secrets {
		if s.Name == "" {
			errs = append(errs, apierrors.Required(fldPath.index(i).child("name").String(), ""))
		}
	}
	return errs
}

// validateSubdomainField checks an optional field that names an object by
// a DNS subdomain.
func validateSubdomainField(value string, fldPath path) apierrors.FieldErrors {
	if value == "" {
		return nil
	}
	var errs apierrors.FieldErrors
	for _, msg := range IsDNS1123Subdomain(value) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), value, msg))
	}
	return errs
}

// validateLabelField checks an optional field that must be a DNS label.
func validateLabelField(value string, fldPath path) apierrors.FieldErrors {
	if value == "" {
		return nil
	}
	var errs apierrors.FieldErrors
	for _, msg := range IsDNS1123Label(value) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), value, msg))
	}
	return errs
}

func validateQualifiedNameField(value string, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for _, msg := range IsQualifiedName(value) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), value, msg))
	}
	return errs
}

func validateIPField(value string, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for _, msg := range IsValidIP(value) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), value, msg))
	}
	return errs
}

func validatePodSecurityContext(sc *corev1.PodSecurityContext, fldPath path) apierrors.FieldErrors {
	if sc == nil {
		return nil
	}
	var errs apierrors.FieldErrors
	errs = append(errs, validateID(sc.RunAsUser, fldPath.child("runAsUser"))...)
	errs = append(errs, validateID(sc.RunAsGroup, fldPath.child("runAsGroup"))...)
	errs = append(errs, validateID(sc.FSGroup, fldPath.child("fsGroup"))...)
	for i, gid := range sc.SupplementalGroups {
		errs = append(errs, validateID(&gid, fldPath.child("supplementalGroups").index(i))...)
	}
	errs = append(errs, validateSeccompProfile(sc.SeccompProfile, fldPath.child("seccompProfile"))...)
	return errs
}

// validateID checks an optional uid or gid.
func validateID(id *int64, fldPath path) apierrors.FieldErrors {
	if id == nil {
		return nil
	}
	var errs apierrors.FieldErrors
	for _, msg := range IsValidUserID(*id) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), *id, msg))
	}
	return errs
}

func validateSeccompProfile(sp *corev1.SeccompProfile, fldPath path) apierrors.FieldErrors {
	if sp == nil {
		return nil
	}
	var errs apierrors.FieldErrors
	switch sp.Type {
	case "Localhost":
		if sp.LocalhostProfile == nil || *sp.LocalhostProfile == "" {
			errs = append(errs, apierrors.Required(fldPath.child("localhostProfile").String(), "must be set when seccomp type is Localhost"))
		}
	case "RuntimeDefault", "Unconfined":
		if sp.LocalhostProfile != nil {
			errs = append(errs, apierrors.Invalid(fldPath.child("localhostProfile").String(), *sp.LocalhostProfile, "can only be set when seccomp type is Localhost"))
		}
	case "":
		errs = append(errs, apierrors.Required(fldPath.child("type").String(), ""))
	default:
		errs = append(errs, apierrors.NotSupported(fldPath.child("type").String(), sp.Type, []string{"Localhost", "RuntimeDefault", "Unconfined"}))
	}
	return errs
}

func validateHostAliases(aliases []corev1.HostAlias, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, a := range aliases {
		errs = append(errs, validateIPField(a.IP, fldPath.index(i).child("ip"))...)
		for j, h := range a.Hostnames {
			for _, msg := range IsDNS1123Subdomain(h) {
				errs = append(errs, apierrors.Invalid(fldPath.index(i).child("hostnames").index(j).String(), h, msg))
			}
		}
	}
	return errs
}

// validatePodDNSConfig checks the extra DNS configuration; with dnsPolicy
// None it is the whole configuration, so it needs a nameserver.
func validatePodDNSConfig(cfg *corev1.PodDNSConfig, policy corev1.DNSPolicy, fldPath path) apierrors.FieldErrors {
	if policy == corev1.DNSNone {
		if cfg == nil {
			return apierrors.FieldErrors{apierrors.Required(fldPath.String(), fmt.Sprintf("must provide `dnsConfig` when `dnsPolicy` is %s", corev1.DNSNone))}
		}
		if len(cfg.Nameservers) == 0 {
			return apierrors.FieldErrors{apierrors.Required(fldPath.child("nameservers").String(), fmt.Sprintf("must provide at least one DNS nameserver when `dnsPolicy` is %s", corev1.DNSNone))}
		}
	}
	if cfg == nil {
		return nil
	}
	var errs apierrors.FieldErrors
	if len(cfg.Nameservers) > maxDNSNameservers {
		errs = append(errs, apierrors.Invalid(fldPath.child("nameservers").String(), cfg.Nameservers, fmt.Sprintf("must not have more than %v nameservers", maxDNSNameservers)))
	}
	for i, ns := range cfg.Nameservers {
		errs = append(errs, validateIPField(ns, fldPath.child("nameservers").index(i))...)
	}
	if len(cfg.Searches) > maxDNSSearchPaths {
		errs = append(errs, apierrors.Invalid(fldPath.child("searches").String(), cfg.Searches, fmt.Sprintf("must not have more than %v search paths", maxDNSSearchPaths)))
	}
	for i, search := range cfg.Searches {
		if search == "." {
			continue
		}
		for _, msg := range IsDNS1123Subdomain(strings.TrimSuffix(search, ".")) {
			errs = append(errs, apierrors.Invalid(fldPath.child("searches").index(i).String(), search, msg))
		}
	}
	for i, opt := range cfg.Options {
		if opt.Name == "" {
			errs = append(errs, apierrors.Required(fldPath.child("options").index(i).String(), "must not be empty"))
		}
	}
	return errs
}

package podsecurity

import (
	"fmt"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// The restricted checks: current pod hardening practice, on top of the
// baseline checks they do not override.

// allowPrivilegeEscalation requires every container to forbid gaining
// privileges (setuid binaries, file capabilities).
//
// Upstream: check_allowPrivilegeEscalation.go.
func allowPrivilegeEscalation(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	if windows(spec) {
		return nil
	}
	var names []string
	visitContainers(spec, func(c *corev1.Container) {
		if c.SecurityContext == nil || c.SecurityContext.AllowPrivilegeEscalation == nil || *c.SecurityContext.AllowPrivilegeEscalation {
			names = append(names, c.Name)
		}
	})
	if len(names) == 0 {
		return nil
	}
	return &violation{reason: "allowPrivilegeEscalation != false",
		detail: containers(names) + " must set securityContext.allowPrivilegeEscalation=false"}
}

// capabilitiesRestricted requires every container to drop ALL
// capabilities, and to add back at most NET_BIND_SERVICE.
//
// Upstream: check_capabilities_restricted.go.
func capabilitiesRestricted(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	if windows(spec) {
		return nil
	}
	var missingDrop, adding []string
	bad := map[string]bool{}
	visitContainers(spec, func(c *corev1.Container) {
		if c.SecurityContext == nil || c.SecurityContext.Capabilities == nil {
			missingDrop = append(missingDrop, c.Name)
			return
		}
		caps := c.SecurityContext.Capabilities
		dropsAll := false
		for _, d := range caps.Drop {
			dropsAll = dropsAll || d == "ALL"
		}
		if !dropsAll {
			missingDrop = append(missingDrop, c.Name)
		}
		ok := true
		for _, a := range caps.Add {
			if a != "NET_BIND_SERVICE" {
				ok = false
				bad[string(a)] = true
			}
		}
		if !ok {
			adding = append(adding, c.Name)
		}
	})
	var details []string
	if len(missingDrop) > 0 {
		details = append(details, containers(missingDrop)+` must set securityContext.capabilities.drop=["ALL"]`)
	}
	if len(adding) > 0 {
		details = append(details, fmt.Sprintf("%s must not include %s in securityContext.capabilities.add", containers(adding), joinQuote(sorted(bad))))
	}
	if len(details) == 0 {
		return nil
	}
	return &violation{reason: "unrestricted capabilities", detail: strings.Join(details, "; ")}
}

// restrictedVolumes allows only the volume types that expose nothing of
// the node: of those minicp's Pod carries, all but hostPath. A volume
// whose source minicp does not know arrives with no source set and is
// refused too (upstream also allows csi, ephemeral and image, which
// minicp's Pod lacks).
//
// Upstream: check_restrictedVolumes.go.
func restrictedVolumes(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	var names []string
	types := map[string]bool{}
	for _, v := range spec.Volumes {
		switch {
		case v.ConfigMap != nil, v.DownwardAPI != nil, v.EmptyDir != nil, v.PersistentVolumeClaim != nil,
			v.Projected != nil, v.Secret != nil:
			continue
		case v.HostPath != nil:
			types["hostPath"] = true
		default:
			types["unknown"] = true
		}
		names = append(names, v.Name)
	}
	if len(names) == 0 {
		return nil
	}
	return &violation{reason: "restricted volume types", detail: fmt.Sprintf("%s %s %s %s %s",
		pluralize("volume", "volumes", len(names)), joinQuote(names), pluralize("uses", "use", len(names)),
		pluralize("restricted volume type", "restricted volume types", len(types)), joinQuote(sorted(types)))}
}

// runAsNonRoot requires the pod, or every container, to run as a user
// other than root, unless the pod has its own user namespace.
//
// Upstream: check_runAsNonRoot.go.
func runAsNonRoot(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	if userNamespaced(spec) {
		return nil
	}
	var setters []string
	podNonRoot := false
	if sc := spec.SecurityContext; sc != nil && sc.RunAsNonRoot != nil {
		if *sc.RunAsNonRoot {
			podNonRoot = true
		} else {
			setters = append(setters, "pod")
		}
	}
	var explicit, implicit []string
	visitContainers(spec, func(c *corev1.Container) {
		switch {
		case c.SecurityContext != nil && c.SecurityContext.RunAsNonRoot != nil:
			if !*c.SecurityContext.RunAsNonRoot {
				explicit = append(explicit, c.Name)
			}
		case !podNonRoot:
			implicit = append(implicit, c.Name)
		}
	})
	if len(explicit) > 0 {
		setters = append(setters, containers(explicit))
	}
	if len(setters) > 0 {
		return &violation{reason: "runAsNonRoot != true",
			detail: strings.Join(setters, " and ") + " must not set securityContext.runAsNonRoot=false"}
	}
	if len(implicit) > 0 {
		return &violation{reason: "runAsNonRoot != true",
			detail: "pod or " + containers(implicit) + " must set securityContext.runAsNonRoot=true"}
	}
	return nil
}

// runAsUser forbids running as uid 0, unless the pod has its own user
// namespace.
//
// Upstream: check_runAsUser.go.
func runAsUser(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	if userNamespaced(spec) {
		return nil
	}
	var setters []string
	if sc := spec.SecurityContext; sc != nil && sc.RunAsUser != nil && *sc.RunAsUser == 0 {
		setters = append(setters, "pod")
	}
	var names []string
	visitContainers(spec, func(c *corev1.Container) {
		if c.SecurityContext != nil && c.SecurityContext.RunAsUser != nil && *c.SecurityContext.RunAsUser == 0 {
			names = append(names, c.Name)
		}
	})
	if len(names) > 0 {
		setters = append(setters, containers(names))
	}
	if len(setters) == 0 {
		return nil
	}
	return &violation{reason: "runAsUser=0", detail: strings.Join(setters, " and ") + " must not set runAsUser=0"}
}

// seccompProfileRestricted requires a confining seccomp profile on the
// pod, or on every container.
//
// Upstream: check_seccompProfile_restricted.go.
func seccompProfileRestricted(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	if windows(spec) {
		return nil
	}
	var setters []string
	bad := map[string]bool{}
	podSet := false
	if sc := spec.SecurityContext; sc != nil && sc.SeccompProfile != nil {
		if validSeccomp(sc.SeccompProfile.Type) {
			podSet = true
		} else {
			setters = append(setters, "pod")
			bad[sc.SeccompProfile.Type] = true
		}
	}
	var explicit, implicit []string
	visitContainers(spec, func(c *corev1.Container) {
		switch {
		case c.SecurityContext != nil && c.SecurityContext.SeccompProfile != nil:
			if !validSeccomp(c.SecurityContext.SeccompProfile.Type) {
				explicit = append(explicit, c.Name)
				bad[c.SecurityContext.SeccompProfile.Type] = true
			}
		case !podSet:
			implicit = append(implicit, c.Name)
		}
	})
	if len(explicit) > 0 {
		setters = append(setters, containers(explicit))
	}
	if len(setters) > 0 {
		return &violation{reason: "seccompProfile", detail: fmt.Sprintf("%s must not set securityContext.seccompProfile.type to %s",
			strings.Join(setters, " and "), joinQuote(sorted(bad)))}
	}
	if len(implicit) > 0 {
		return &violation{reason: "seccompProfile",
			detail: "pod or " + containers(implicit) + ` must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`}
	}
	return nil
}

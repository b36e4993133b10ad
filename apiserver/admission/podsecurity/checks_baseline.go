package podsecurity

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// The baseline checks: each forbids one known privilege escalation and
// allows what a pod gets by default. Their words are upstream's, which
// users and tools match on.
//
// Not checked, since minicp's Pod lacks the fields: Windows HostProcess
// containers (securityContext.windowsOptions) and ephemeral containers.

// sorted returns the members of a set, sorted.
func sorted(set map[string]bool) []string { return slices.Sorted(maps.Keys(set)) }

// appArmorAnnotationPrefix starts the deprecated per-container AppArmor
// annotations, still checked as upstream checks them.
const appArmorAnnotationPrefix = "container.apparmor.security.beta.kubernetes.io/"

// appArmorProfile forbids the Unconfined AppArmor profile, by field or
// by annotation.
//
// Upstream: check_appArmorProfile.go.
func appArmorProfile(meta *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	allowed := func(p *corev1.AppArmorProfile) bool {
		return p == nil || p.Type == "RuntimeDefault" || p.Type == "Localhost"
	}
	var setters []string
	bad := map[string]bool{}
	if sc := spec.SecurityContext; sc != nil && !allowed(sc.AppArmorProfile) {
		setters = append(setters, "pod")
		bad[sc.AppArmorProfile.Type] = true
	}
	var names []string
	visitContainers(spec, func(c *corev1.Container) {
		if c.SecurityContext != nil && !allowed(c.SecurityContext.AppArmorProfile) {
			names = append(names, c.Name)
			bad[c.SecurityContext.AppArmorProfile.Type] = true
		}
	})
	if len(names) > 0 {
		setters = append(setters, containers(names))
	}
	values := sorted(bad)
	var annotations []string
	for k, v := range meta.Annotations {
		if strings.HasPrefix(k, appArmorAnnotationPrefix) && v != "" && v != "runtime/default" && !strings.HasPrefix(v, "localhost/") {
			annotations = append(annotations, fmt.Sprintf("%s=%q", k, v))
		}
	}
	if len(annotations) > 0 {
		slices.Sort(annotations)
		values = append(values, annotations...)
		setters = append(setters, pluralize("annotation", "annotations", len(annotations)))
	}
	if len(setters) == 0 {
		return nil
	}
	return &violation{
		reason: pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", len(values)),
		detail: fmt.Sprintf("%s must not set AppArmor profile type to %s", strings.Join(setters, " and "), joinQuote(values)),
	}
}

// baselineCapabilities may be added: the container runtimes' default
// set, less NET_RAW.
var baselineCapabilities = map[corev1.Capability]bool{
	"AUDIT_WRITE": true, "CHOWN": true, "DAC_OVERRIDE": true, "FOWNER": true, "FSETID": true, "KILL": true, "MKNOD": true,
	"NET_BIND_SERVICE": true, "SETFCAP": true, "SETGID": true, "SETPCAP": true, "SETUID": true, "SYS_CHROOT": true,
}

// capabilitiesBaseline forbids adding capabilities beyond the default
// set.
//
// Upstream: check_capabilities_baseline.go.
func capabilitiesBaseline(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	var names []string
	bad := map[string]bool{}
	visitContainers(spec, func(c *corev1.Container) {
		if c.SecurityContext == nil || c.SecurityContext.Capabilities == nil {
			return
		}
		ok := true
		for _, cap := range c.SecurityContext.Capabilities.Add {
			if !baselineCapabilities[cap] {
				ok = false
				bad[string(cap)] = true
			}
		}
		if !ok {
			names = append(names, c.Name)
		}
	})
	if len(names) == 0 {
		return nil
	}
	return &violation{reason: "non-default capabilities",
		detail: fmt.Sprintf("%s must not include %s in securityContext.capabilities.add", containers(names), joinQuote(sorted(bad)))}
}

// hostNamespaces forbids sharing the node's network, PID or IPC
// namespace.
//
// Upstream: check_hostNamespaces.go.
func hostNamespaces(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	var shared []string
	if spec.HostIPC {
		shared = append(shared, "hostIPC")
	}
	if spec.HostNetwork {
		shared = append(shared, "hostNetwork")
	}
	if spec.HostPID {
		shared = append(shared, "hostPID")
	}
	if len(shared) == 0 {
		return nil
	}
	return &violation{reason: "host namespaces", detail: strings.Join(shared, ", ")}
}

// hostPathVolumes forbids mounting the node's files.
//
// Upstream: check_hostPathVolumes.go.
func hostPathVolumes(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	var names []string
	for _, v := range spec.Volumes {
		if v.HostPath != nil {
			names = append(names, v.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return &violation{reason: "hostPath volumes", detail: pluralize("volume", "volumes", len(names)) + " " + joinQuote(names)}
}

// hostPorts forbids binding ports of the node.
//
// Upstream: check_hostPorts.go.
func hostPorts(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	var names []string
	ports := map[string]bool{}
	visitContainers(spec, func(c *corev1.Container) {
		ok := true
		for _, p := range c.Ports {
			if p.HostPort != 0 {
				ok = false
				ports[strconv.Itoa(int(p.HostPort))] = true
			}
		}
		if !ok {
			names = append(names, c.Name)
		}
	})
	if len(names) == 0 {
		return nil
	}
	return &violation{reason: "hostPort", detail: fmt.Sprintf("%s %s %s %s", containers(names),
		pluralize("uses", "use", len(names)), pluralize("hostPort", "hostPorts", len(ports)), strings.Join(sorted(ports), ", "))}
}

// hostProbesAndHostLifecycle forbids probes and lifecycle hooks that
// reach a host other than the pod's own, which would let a pod make the
// kubelet call services of the node's network.
//
// Upstream: check_hostProbesAndhostLifecycle.go.
func hostProbesAndHostLifecycle(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	names := map[string]bool{}
	hosts := map[string]bool{}
	add := func(c *corev1.Container, httpGet *corev1.HTTPGetAction, tcp *corev1.TCPSocketAction) {
		if httpGet != nil && httpGet.Host != "" {
			names[c.Name], hosts[httpGet.Host] = true, true
		}
		if tcp != nil && tcp.Host != "" {
			names[c.Name], hosts[tcp.Host] = true, true
		}
	}
	visitContainers(spec, func(c *corev1.Container) {
		for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
			if p != nil {
				add(c, p.HTTPGet, p.TCPSocket)
			}
		}
		if c.Lifecycle != nil {
			for _, h := range []*corev1.LifecycleHandler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
				if h != nil {
					add(c, h.HTTPGet, h.TCPSocket)
				}
			}
		}
	})
	if len(names) == 0 {
		return nil
	}
	return &violation{reason: "probe or lifecycle host", detail: fmt.Sprintf("%s %s %s %s", containers(sorted(names)),
		pluralize("uses", "use", len(names)), pluralize("probe or lifecycle host", "probe or lifecycle hosts", len(hosts)), joinQuote(sorted(hosts)))}
}

// privileged forbids privileged containers, which turn off most of the
// isolation.
//
// Upstream: check_privileged.go.
func privileged(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	var names []string
	visitContainers(spec, func(c *corev1.Container) {
		if c.SecurityContext != nil && c.SecurityContext.Privileged != nil && *c.SecurityContext.Privileged {
			names = append(names, c.Name)
		}
	})
	if len(names) == 0 {
		return nil
	}
	return &violation{reason: "privileged", detail: containers(names) + " must not set securityContext.privileged=true"}
}

// procMountBaseline forbids unmasking /proc, except in a pod with its
// own user namespace.
//
// Upstream: check_procMount_baseline.go.
func procMountBaseline(meta *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	if userNamespaced(spec) {
		return nil
	}
	return procMountRestricted(meta, spec)
}

// procMountRestricted forbids unmasking /proc, user namespace or not.
//
// Upstream: check_procMount_restricted.go.
func procMountRestricted(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	var names []string
	bad := map[string]bool{}
	visitContainers(spec, func(c *corev1.Container) {
		if c.SecurityContext != nil && c.SecurityContext.ProcMount != nil && *c.SecurityContext.ProcMount != "Default" {
			names = append(names, c.Name)
			bad[*c.SecurityContext.ProcMount] = true
		}
	})
	if len(names) == 0 {
		return nil
	}
	return &violation{reason: "procMount",
		detail: fmt.Sprintf("%s must not set securityContext.procMount to %s", containers(names), joinQuote(sorted(bad)))}
}

// seLinuxTypes are the SELinux types a pod may ask for: the container
// runtimes' own ("" is the runtime's default).
var seLinuxTypes = map[string]bool{"": true, "container_t": true, "container_init_t": true, "container_kvm_t": true, "container_engine_t": true}

// seLinuxOptions forbids SELinux types beyond the containers' own, and
// any SELinux user or role. Unlike upstream, which reports a user or role
// only next to a bad type, it always says which was set.
//
// Upstream: check_seLinuxOptions.go.
func seLinuxOptions(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	badTypes := map[string]bool{}
	var setUser, setRole bool
	valid := func(o *corev1.SELinuxOptions) bool {
		ok := true
		if !seLinuxTypes[o.Type] {
			ok = false
			badTypes[o.Type] = true
		}
		if o.User != "" {
			ok, setUser = false, true
		}
		if o.Role != "" {
			ok, setRole = false, true
		}
		return ok
	}
	var setters []string
	if sc := spec.SecurityContext; sc != nil && sc.SELinuxOptions != nil && !valid(sc.SELinuxOptions) {
		setters = append(setters, "pod")
	}
	var names []string
	visitContainers(spec, func(c *corev1.Container) {
		if c.SecurityContext != nil && c.SecurityContext.SELinuxOptions != nil && !valid(c.SecurityContext.SELinuxOptions) {
			names = append(names, c.Name)
		}
	})
	if len(names) > 0 {
		setters = append(setters, containers(names))
	}
	if len(setters) == 0 {
		return nil
	}
	var what []string
	if len(badTypes) > 0 {
		what = append(what, pluralize("type", "types", len(badTypes))+" "+joinQuote(sorted(badTypes)))
	}
	if setUser {
		what = append(what, "user may not be set")
	}
	if setRole {
		what = append(what, "role may not be set")
	}
	return &violation{reason: "seLinuxOptions",
		detail: fmt.Sprintf("%s set forbidden securityContext.seLinuxOptions: %s", strings.Join(setters, " and "), strings.Join(what, "; "))}
}

// validSeccomp reports a seccomp profile type that confines: the
// runtime's default or a profile on the node.
func validSeccomp(t string) bool { return t == "RuntimeDefault" || t == "Localhost" }

// seccompProfileBaseline forbids turning seccomp off (Unconfined).
//
// Upstream: check_seccompProfile_baseline.go.
func seccompProfileBaseline(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	var setters []string
	bad := map[string]bool{}
	if sc := spec.SecurityContext; sc != nil && sc.SeccompProfile != nil && !validSeccomp(sc.SeccompProfile.Type) {
		setters = append(setters, "pod")
		bad[sc.SeccompProfile.Type] = true
	}
	var names []string
	visitContainers(spec, func(c *corev1.Container) {
		if c.SecurityContext != nil && c.SecurityContext.SeccompProfile != nil && !validSeccomp(c.SecurityContext.SeccompProfile.Type) {
			names = append(names, c.Name)
			bad[c.SecurityContext.SeccompProfile.Type] = true
		}
	})
	if len(names) > 0 {
		setters = append(setters, containers(names))
	}
	if len(setters) == 0 {
		return nil
	}
	return &violation{reason: "seccompProfile", detail: fmt.Sprintf("%s must not set securityContext.seccompProfile.type to %s",
		strings.Join(setters, " and "), joinQuote(sorted(bad)))}
}

// safeSysctls are namespaced per pod and isolated from other pods: the
// newest list of upstream's (policy v1.32).
var safeSysctls = map[string]bool{
	"kernel.shm_rmid_forced": true, "net.ipv4.ip_local_port_range": true, "net.ipv4.tcp_syncookies": true,
	"net.ipv4.ping_group_range": true, "net.ipv4.ip_unprivileged_port_start": true, "net.ipv4.ip_local_reserved_ports": true,
	"net.ipv4.tcp_keepalive_time": true, "net.ipv4.tcp_fin_timeout": true, "net.ipv4.tcp_keepalive_intvl": true,
	"net.ipv4.tcp_keepalive_probes": true, "net.ipv4.tcp_rmem": true, "net.ipv4.tcp_wmem": true,
}

// sysctls forbids kernel parameters outside the safe set.
//
// Upstream: check_sysctls.go.
func sysctls(_ *metav1.ObjectMeta, spec *corev1.PodSpec) *violation {
	if spec.SecurityContext == nil {
		return nil
	}
	var bad []string
	for _, s := range spec.SecurityContext.Sysctls {
		if !safeSysctls[s.Name] {
			bad = append(bad, s.Name)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return &violation{reason: "forbidden sysctls", detail: strings.Join(bad, ", ")}
}

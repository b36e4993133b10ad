package podsecurity

import (
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// violation is why one check refuses a pod: a short reason, always
// shown, and a detail naming the containers and values at fault.
//
// Upstream: k8s.io/pod-security-admission/policy (CheckResult).
type violation struct {
	reason string
	detail string
}

// checkFunc checks one control of the standards; nil means allowed. It
// must not modify its arguments.
type checkFunc func(meta *metav1.ObjectMeta, spec *corev1.PodSpec) *violation

// check is one control of the standards at the newest version.
type check struct {
	id string
	fn checkFunc
	// overrides names the baseline checks this restricted check replaces
	// at the restricted level: the stricter check covers the same
	// fields, so a pod is not told twice.
	overrides []string
}

// baselineChecks and restrictedChecks are sorted by id, the order in
// which upstream runs them and so the order of the reasons in a message.
// Restricted runs the baseline checks that no restricted check overrides
// first, then the restricted checks.
var (
	baselineChecks = []check{
		{id: "appArmorProfile", fn: appArmorProfile},
		{id: "capabilities_baseline", fn: capabilitiesBaseline},
		{id: "hostNamespaces", fn: hostNamespaces},
		{id: "hostPathVolumes", fn: hostPathVolumes},
		{id: "hostPorts", fn: hostPorts},
		{id: "hostProbesAndHostLifecycle", fn: hostProbesAndHostLifecycle},
		{id: "privileged", fn: privileged},
		{id: "procMount", fn: procMountBaseline},
		{id: "seLinuxOptions", fn: seLinuxOptions},
		{id: "seccompProfile_baseline", fn: seccompProfileBaseline},
		{id: "sysctls", fn: sysctls},
	}
	restrictedChecks = []check{
		{id: "allowPrivilegeEscalation", fn: allowPrivilegeEscalation},
		{id: "capabilities_restricted", fn: capabilitiesRestricted, overrides: []string{"capabilities_baseline"}},
		{id: "procMount_restricted", fn: procMountRestricted, overrides: []string{"procMount"}},
		{id: "restrictedVolumes", fn: restrictedVolumes, overrides: []string{"hostPathVolumes"}},
		{id: "runAsNonRoot", fn: runAsNonRoot},
		{id: "runAsUser", fn: runAsUser},
		{id: "seccompProfile_restricted", fn: seccompProfileRestricted, overrides: []string{"seccompProfile_baseline"}},
	}
)

// checksFor returns the checks of level, in the order they run.
func checksFor(level Level) []check {
	switch level {
	case LevelBaseline:
		return baselineChecks
	case LevelRestricted:
		overridden := map[string]bool{}
		for _, c := range restrictedChecks {
			for _, id := range c.overrides {
				overridden[id] = true
			}
		}
		var out []check
		for _, c := range baselineChecks {
			if !overridden[c.id] {
				out = append(out, c)
			}
		}
		return append(out, restrictedChecks...)
	}
	return nil
}

// evaluate runs the checks of level against a pod or pod template and
// returns what they refuse, in order; nil when the pod is allowed.
//
// Upstream: k8s.io/pod-security-admission/policy (checkRegistry.EvaluatePod).
func evaluate(level Level, meta *metav1.ObjectMeta, spec *corev1.PodSpec) []violation {
	var out []violation
	for _, c := range checksFor(level) {
		if v := c.fn(meta, spec); v != nil {
			out = append(out, *v)
		}
	}
	return out
}

// forbiddenDetail joins violations as messages show them:
// "reason (detail), reason (detail)".
//
// Upstream: k8s.io/pod-security-admission/policy (AggregateCheckResult.ForbiddenDetail).
func forbiddenDetail(vs []violation) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.reason
		if v.detail != "" {
			parts[i] += " (" + v.detail + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// forbiddenReason joins only the reasons, as the warnings about a
// namespace's existing pods show them.
func forbiddenReason(vs []violation) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.reason
	}
	return strings.Join(parts, ", ")
}

// visitContainers calls visit for every init container, then every
// container. minicp's Pod has no ephemeral containers.
func visitContainers(spec *corev1.PodSpec, visit func(c *corev1.Container)) {
	for i := range spec.InitContainers {
		visit(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		visit(&spec.Containers[i])
	}
}

// joinQuote quotes each item and joins them with commas.
func joinQuote(items []string) string {
	if len(items) == 0 {
		return ""
	}
	return `"` + strings.Join(items, `", "`) + `"`
}

func pluralize(singular, plural string, n int) string {
	if n == 1 {
		return singular
	}
	return plural
}

// containers is `container "a"` or `containers "a", "b"`.
func containers(names []string) string {
	return pluralize("container", "containers", len(names)) + " " + joinQuote(names)
}

// windows reports a pod for Windows nodes, where the Linux-only
// restricted controls (privilege escalation, seccomp, capabilities) do
// not apply.
func windows(spec *corev1.PodSpec) bool { return spec.OS != nil && spec.OS.Name == "windows" }

// userNamespaced reports a pod in its own user namespace
// (hostUsers: false), whose root is not the node's: the runAsNonRoot,
// runAsUser and baseline procMount controls do not apply to it.
func userNamespaced(spec *corev1.PodSpec) bool { return spec.HostUsers != nil && !*spec.HostUsers }

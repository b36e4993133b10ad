package validation

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// The grammar of a sysctl name: segments of lower-case alphanumerics,
// '-' and '_' inside, joined by '.' or '/' (net.ipv4.ip_forward, or
// net/ipv4/ip_forward as sysctl.d writes it).
const (
	sysctlSegmentFmt      = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
	sysctlContainSlashFmt = "(" + sysctlSegmentFmt + "[\\./])*" + sysctlSegmentFmt
	// sysctlMaxLength is the longest sysctl name.
	sysctlMaxLength = 253
)

var sysctlContainSlashRegexp = regexp.MustCompile("^" + sysctlContainSlashFmt + "$")

// IsValidSysctlName reports whether name is a sysctl name: at most 253
// characters of the grammar above.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (IsValidSysctlName).
func IsValidSysctlName(name string) bool {
	return len(name) <= sysctlMaxLength && sysctlContainSlashRegexp.MatchString(name)
}

// validateSysctls checks the pod's sysctls: each named, validly and once,
// and none of a kernel namespace the pod shares with the node (net.* with
// hostNetwork, the IPC ones with hostIPC). The message quotes the
// regexp as upstream prints it, anchors included.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (validateSysctls,
// ValidateHostSysctl).
func validateSysctls(spec *corev1.PodSpec, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	seen := map[string]bool{}
	for i, s := range spec.SecurityContext.Sysctls {
		name := fldPath.index(i).child("name").String()
		switch {
		case s.Name == "":
			errs = append(errs, apierrors.Required(name, ""))
		case !IsValidSysctlName(s.Name):
			errs = append(errs, apierrors.Invalid(name, s.Name, fmt.Sprintf("must have at most %d characters and match regex %s",
				sysctlMaxLength, sysctlContainSlashRegexp)))
		case seen[s.Name]:
			errs = append(errs, apierrors.Duplicate(name, s.Name))
		}
		switch ns := sysctlNamespace(s.Name); {
		case spec.HostNetwork && ns == sysctlNetNamespace:
			errs = append(errs, apierrors.Invalid(name, s.Name, "may not be specified when 'hostNetwork' is true"))
		case spec.HostIPC && ns == sysctlIPCNamespace:
			errs = append(errs, apierrors.Invalid(name, s.Name, "may not be specified when 'hostIPC' is true"))
		}
		seen[s.Name] = true
	}
	return errs
}

// sysctlNS is the kernel namespace a sysctl belongs to.
type sysctlNS int

const (
	sysctlUnknownNamespace sysctlNS = iota
	sysctlIPCNamespace
	sysctlNetNamespace
)

// sysctlNamespace returns the namespace of a sysctl, of its name in either
// separator's form: only the namespaces validation needs.
//
// Upstream: k8s.io/component-helpers/node/util/sysctl (GetNamespace).
func sysctlNamespace(name string) sysctlNS {
	name = normalizeSysctlName(name)
	if name == "kernel.sem" {
		return sysctlIPCNamespace
	}
	for _, prefix := range []string{"kernel.shm", "kernel.msg", "fs.mqueue."} {
		if strings.HasPrefix(name, prefix) {
			return sysctlIPCNamespace
		}
	}
	if strings.HasPrefix(name, "net.") {
		return sysctlNetNamespace
	}
	return sysctlUnknownNamespace
}

// normalizeSysctlName turns a name written with '/' separators into the
// '.' form: a '.' in such a name is part of a segment (an interface
// called eno2.100), so the two swap.
//
// Upstream: k8s.io/component-helpers/node/util/sysctl (NormalizeName).
func normalizeSysctlName(name string) string {
	i := strings.IndexAny(name, "./")
	if i < 0 || name[i] == '.' {
		return name
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '.':
			return '/'
		case '/':
			return '.'
		}
		return r
	}, name)
}

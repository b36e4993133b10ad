package podsecurity

import (
	"regexp"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
)

// Level is a Pod Security Standard, from least to most strict.
type Level string

// The levels of the Pod Security Standards.
const (
	LevelPrivileged Level = "privileged"
	LevelBaseline   Level = "baseline"
	LevelRestricted Level = "restricted"
)

// compare orders levels by strictness: negative when l is less strict
// than other, zero when equal, positive when stricter.
func (l Level) compare(other Level) int { return l.rank() - other.rank() }

func (l Level) rank() int {
	switch l {
	case LevelBaseline:
		return 1
	case LevelRestricted:
		return 2
	}
	return 0
}

// The namespace labels that choose a namespace's policy, each mode with
// a level label and a version label.
const (
	labelPrefix         = "pod-security.kubernetes.io/"
	EnforceLevelLabel   = labelPrefix + "enforce"
	EnforceVersionLabel = labelPrefix + "enforce-version"
	AuditLevelLabel     = labelPrefix + "audit"
	AuditVersionLabel   = labelPrefix + "audit-version"
	WarnLevelLabel      = labelPrefix + "warn"
	WarnVersionLabel    = labelPrefix + "warn-version"
)

// VersionLatest is the version a label that names none gets.
const VersionLatest = "latest"

// LevelVersion is one mode's policy: a level, and the version of the
// standards its label names ("latest" or "v1.N"). Every version is
// evaluated with the newest checks; the version only shows in messages.
type LevelVersion struct {
	Level   Level
	Version string
}

// String is "level:version", as messages quote a policy.
func (lv LevelVersion) String() string { return string(lv.Level) + ":" + lv.Version }

// Policy is a namespace's policy for each mode.
type Policy struct {
	Enforce LevelVersion
	Audit   LevelVersion
	Warn    LevelVersion
}

// privilegedPolicy is the policy of a namespace without labels: nothing
// is checked.
var privilegedPolicy = Policy{
	Enforce: LevelVersion{LevelPrivileged, VersionLatest},
	Audit:   LevelVersion{LevelPrivileged, VersionLatest},
	Warn:    LevelVersion{LevelPrivileged, VersionLatest},
}

// versionPattern is what a version label may say besides "latest".
var versionPattern = regexp.MustCompile(`^v1\.(0|[1-9][0-9]*)$`)

// PolicyFromLabels reads a namespace's policy from its labels, with
// privileged:latest for what they leave out. A valid policy comes back
// even with errors: a bad enforce level is enforced as restricted (fail
// closed), a bad audit or warn level as privileged (fail open), and a bad
// version as latest. The errors name the label, for a 422 on the
// namespace.
//
// Upstream: k8s.io/pod-security-admission/api (PolicyToEvaluate).
func PolicyFromLabels(labels map[string]string) (Policy, apierrors.FieldErrors) {
	p := privilegedPolicy
	var errs apierrors.FieldErrors
	level := func(label string, into *Level, fallback Level) {
		v, ok := labels[label]
		if !ok {
			return
		}
		switch l := Level(v); l {
		case LevelPrivileged, LevelBaseline, LevelRestricted:
			*into = l
		default:
			*into = fallback
			errs = append(errs, apierrors.Invalid(labelField(label), v, "must be one of "+
				strings.Join([]string{string(LevelPrivileged), string(LevelBaseline), string(LevelRestricted)}, ", ")))
		}
	}
	version := func(label string, into *string) {
		v, ok := labels[label]
		if !ok {
			return
		}
		if v == VersionLatest || versionPattern.MatchString(v) {
			*into = v
			return
		}
		*into = VersionLatest
		errs = append(errs, apierrors.Invalid(labelField(label), v, `must be "latest" or "v1.x"`))
	}
	level(EnforceLevelLabel, &p.Enforce.Level, LevelRestricted)
	version(EnforceVersionLabel, &p.Enforce.Version)
	level(AuditLevelLabel, &p.Audit.Level, LevelPrivileged)
	version(AuditVersionLabel, &p.Audit.Version)
	level(WarnLevelLabel, &p.Warn.Level, LevelPrivileged)
	version(WarnVersionLabel, &p.Warn.Version)
	return p, errs
}

func labelField(label string) string { return "metadata.labels[" + label + "]" }

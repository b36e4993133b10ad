package validation

import (
	"fmt"
	"math"
	"net/netip"
	"regexp"
	"strings"
)

// The Is* functions check one string against one naming rule and return
// the problems as messages worded exactly as Kubernetes words them; an
// empty result means the string is valid. Callers wrap each message in a
// FieldError with the field's path.
//
// Upstream: k8s.io/apimachinery/pkg/util/validation.

const (
	dns1123LabelFmt    = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	// DNS1123LabelMaxLength is the longest label DNS allows (RFC 1035).
	DNS1123LabelMaxLength = 63

	dns1123SubdomainFmt    = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	// DNS1123SubdomainMaxLength is the longest name DNS allows (RFC 1123).
	DNS1123SubdomainMaxLength = 253

	qnameCharFmt        = "[A-Za-z0-9]"
	qnameExtCharFmt     = "[-A-Za-z0-9_.]"
	qualifiedNameFmt    = "(" + qnameCharFmt + qnameExtCharFmt + "*)?" + qnameCharFmt
	qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	// QualifiedNameMaxLength bounds the name part of a qualified name.
	QualifiedNameMaxLength = 63

	labelValueFmt    = "(" + qualifiedNameFmt + ")?"
	labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	// LabelValueMaxLength bounds label values.
	LabelValueMaxLength = 63

	// portNameMaxLength is the IANA service name limit (RFC 6335).
	portNameMaxLength = 15

	envVarNameFmt    = "[-._a-zA-Z][-._a-zA-Z0-9]*"
	envVarNameErrMsg = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit"
)

var (
	dns1123LabelRegexp     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRegexp = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	qualifiedNameRegexp    = regexp.MustCompile("^" + qualifiedNameFmt + "$")
	labelValueRegexp       = regexp.MustCompile("^" + labelValueFmt + "$")
	portNameCharsetRegexp  = regexp.MustCompile("^[-a-z0-9]+$")
	portNameOneLetter      = regexp.MustCompile("[a-z]")
	envVarNameRegexp       = regexp.MustCompile("^" + envVarNameFmt + "$")
)

// IsDNS1123Label checks a DNS label: at most 63 lower-case alphanumerics or
// '-', starting and ending with an alphanumeric. Namespace names and
// container names are labels.
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, MaxLenError(DNS1123LabelMaxLength))
	}
	if !dns1123LabelRegexp.MatchString(value) {
		if dns1123SubdomainRegexp.MatchString(value) {
			// A valid subdomain that is not a valid label can only be
			// wrong because of its dots.
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, RegexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

const (
	dns1035LabelFmt    = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
)

var dns1035LabelRegexp = regexp.MustCompile("^" + dns1035LabelFmt + "$")

// IsDNS1035Label checks a DNS label in the stricter RFC 1035 sense: like
// IsDNS1123Label, but starting with a letter. Service names are such
// labels, since they become DNS names and environment variable names.
func IsDNS1035Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, MaxLenError(DNS1123LabelMaxLength))
	}
	if !dns1035LabelRegexp.MatchString(value) {
		errs = append(errs, RegexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// IsDNS1123Subdomain checks a DNS subdomain: dot-separated labels, at most
// 253 characters. Most object names (pods, nodes) are subdomains.
func IsDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, MaxLenError(DNS1123SubdomainMaxLength))
	}
	if !dns1123SubdomainRegexp.MatchString(value) {
		errs = append(errs, RegexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// IsQualifiedName checks a label key, annotation key or finalizer: a name of
// at most 63 characters, optionally prefixed by a DNS subdomain and '/'
// ("example.com/MyName").
func IsQualifiedName(value string) []string {
	var errs []string
	var name string
	switch parts := strings.Split(value, "/"); len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part "+EmptyError())
		} else if msgs := IsDNS1123Subdomain(prefix); len(msgs) != 0 {
			for _, msg := range msgs {
				errs = append(errs, "prefix part "+msg)
			}
		}
	default:
		return append(errs, "a qualified name "+RegexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part "+EmptyError())
	} else if len(name) > QualifiedNameMaxLength {
		errs = append(errs, "name part "+MaxLenError(QualifiedNameMaxLength))
	}
	if !qualifiedNameRegexp.MatchString(name) {
		errs = append(errs, "name part "+RegexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue checks a label value: empty, or at most 63
// alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric.
func IsValidLabelValue(value string) []string {
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, MaxLenError(LabelValueMaxLength))
	}
	if !labelValueRegexp.MatchString(value) {
		errs = append(errs, RegexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// IsValidPortName checks an IANA_SVC_NAME (RFC 6335), the name of a
// container port: at most 15 lower-case alphanumerics or '-', at least one
// letter, no leading, trailing or doubled '-'.
func IsValidPortName(port string) []string {
	var errs []string
	if len(port) > portNameMaxLength {
		errs = append(errs, MaxLenError(portNameMaxLength))
	}
	if !portNameCharsetRegexp.MatchString(port) {
		errs = append(errs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !portNameOneLetter.MatchString(port) {
		errs = append(errs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(port, "--") {
		errs = append(errs, "must not contain consecutive hyphens")
	}
	if port != "" && (port[0] == '-' || port[len(port)-1] == '-') {
		errs = append(errs, "must not begin or end with a hyphen")
	}
	return errs
}

// IsValidPortNum checks a TCP/UDP port number, 1 to 65535.
func IsValidPortNum(port int) []string {
	if 1 <= port && port <= 65535 {
		return nil
	}
	return []string{InclusiveRangeError(1, 65535)}
}

// IsEnvVarName checks an environment variable name. Upstream has since
// relaxed this rule behind a feature gate (any printable ASCII but '=');
// minicp keeps the classic rule, which every real manifest satisfies.
func IsEnvVarName(value string) []string {
	var errs []string
	if !envVarNameRegexp.MatchString(value) {
		errs = append(errs, RegexError(envVarNameErrMsg, envVarNameFmt, "my.env-name", "MY_ENV.NAME", "MyEnvName1"))
	}
	errs = append(errs, hasChDirPrefix(value)...)
	return errs
}

// hasChDirPrefix rejects the names "." and ".." and names starting with
// "..", which would walk directories where names become paths.
func hasChDirPrefix(value string) []string {
	switch {
	case value == ".":
		return []string{`must not be '.'`}
	case value == "..":
		return []string{`must not be '..'`}
	case strings.HasPrefix(value, ".."):
		return []string{`must not start with '..'`}
	}
	return nil
}

// IsValidPathSegmentName checks a name that becomes one segment of a URL
// path: it may not be "." or ".." and may not contain '/' or '%'.
func IsValidPathSegmentName(name string) []string {
	for _, illegal := range []string{".", ".."} {
		if name == illegal {
			return []string{fmt.Sprintf("may not be '%s'", illegal)}
		}
	}
	var errs []string
	for _, illegal := range []string{"/", "%"} {
		if strings.Contains(name, illegal) {
			errs = append(errs, fmt.Sprintf("may not contain '%s'", illegal))
		}
	}
	return errs
}

// MaxLenError is the message for a string over its length limit.
func MaxLenError(length int) string {
	return fmt.Sprintf("must be no more than %d characters", length)
}

// EmptyError is the message for an empty string that must not be.
func EmptyError() string { return "must be non-empty" }

// InclusiveRangeError is the message for a number outside [lo, hi].
func InclusiveRangeError(lo, hi int) string {
	return fmt.Sprintf("must be between %d and %d, inclusive", lo, hi)
}

// RegexError is the message for a string that does not match a rule: the
// rule in words, examples, and the regular expression.
func RegexError(msg, fmtStr string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + fmtStr + "')"
	}
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString(" (e.g. ")
	for i, ex := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + ex + "', ")
	}
	b.WriteString("regex used for validation is '" + fmtStr + "')")
	return b.String()
}

const (
	configMapKeyFmt    = "[-._a-zA-Z0-9]+"
	configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"

	httpHeaderNameFmt    = "[-A-Za-z0-9]+"
	httpHeaderNameErrMsg = "a valid HTTP header must consist of alphanumeric characters or '-'"
)

var (
	configMapKeyRegexp   = regexp.MustCompile("^" + configMapKeyFmt + "$")
	httpHeaderNameRegexp = regexp.MustCompile("^" + httpHeaderNameFmt + "$")
)

// IsConfigMapKey checks a key of a ConfigMap or Secret, which becomes a
// file name in volumes.
func IsConfigMapKey(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, MaxLenError(DNS1123SubdomainMaxLength))
	}
	if !configMapKeyRegexp.MatchString(value) {
		errs = append(errs, RegexError(configMapKeyErrMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	errs = append(errs, hasChDirPrefix(value)...)
	return errs
}

// IsHTTPHeaderName checks the name of an HTTP header a probe sends.
func IsHTTPHeaderName(value string) []string {
	if !httpHeaderNameRegexp.MatchString(value) {
		return []string{RegexError(httpHeaderNameErrMsg, httpHeaderNameFmt, "X-Header-Name")}
	}
	return nil
}

// IsValidIP checks an IPv4 or IPv6 address.
func IsValidIP(value string) []string {
	if _, err := netip.ParseAddr(value); err != nil || strings.Contains(value, "%") {
		return []string{"must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"}
	}
	return nil
}

// IsValidCIDR checks an IPv4 or IPv6 CIDR.
func IsValidCIDR(value string) []string {
	if _, err := netip.ParsePrefix(value); err != nil {
		return []string{"must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"}
	}
	return nil
}

// IsValidUserID checks a Linux uid, 0 to 2147483647.
func IsValidUserID(uid int64) []string {
	if 0 <= uid && uid <= math.MaxInt32 {
		return nil
	}
	return []string{InclusiveRangeError(0, math.MaxInt32)}
}

// IsValidGroupID checks a Linux gid, 0 to 2147483647.
func IsValidGroupID(gid int64) []string { return IsValidUserID(gid) }

package schema

import (
	"encoding/hex"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The string formats the API server validates in custom resources: the
// go-openapi formats kube-openapi registers, less those the API server
// strips from CRD schemas, plus Kubernetes' k8s-short-name and
// k8s-long-name. Names are compared without dashes ("date-time" is
// "datetime"). A format not listed is not checked.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/validation
// (supportedVersionedFormats) and k8s.io/kube-openapi/pkg/validation/strfmt.
var formatValidators = map[string]func(string) bool{
	"bsonobjectid": isBSONObjectID,
	"uri":          isRequestURI,
	"email":        isEmail,
	"hostname":     isHostname,
	"ipv4":         isIPv4,
	"ipv6":         isIPv6,
	"cidr":         isCIDR,
	"mac":          isMAC,
	"uuid":         rxUUID.MatchString,
	"uuid3":        rxUUID3.MatchString,
	"uuid4":        rxUUID4.MatchString,
	"uuid5":        rxUUID5.MatchString,
	"isbn":         func(s string) bool { return isISBN(s, 10) || isISBN(s, 13) },
	"isbn10":       func(s string) bool { return isISBN(s, 10) },
	"isbn13":       func(s string) bool { return isISBN(s, 13) },
	"creditcard":   isCreditCard,
	"ssn":          isSSN,
	"hexcolor":     rxHexcolor.MatchString,
	"rgbcolor":     rxRGBcolor.MatchString,
	"byte":         rxBase64.MatchString,
	"password":     func(string) bool { return true },
	"date":         isDate,
	"duration":     isDuration,
	"datetime":     isDateTime,
	"k8sshortname": func(s string) bool { return len(s) <= 63 && rxShortName.MatchString(s) },
	"k8slongname":  func(s string) bool { return len(s) <= 253 && rxLongName.MatchString(s) },
}

// supportedStringFormats are the formats a CRD's string node keeps;
// stripUnsupportedFormat drops the others. It is formatValidators' keys.
var supportedStringFormats = func() map[string]bool {
	m := make(map[string]bool, len(formatValidators))
	for k := range formatValidators {
		m[k] = true
	}
	return m
}()

// knownFormat reports whether the format is validated at all. The
// registry kube-openapi consults also knows formats the API server
// strips (int32 on a string, ...); those only reach here through
// default values, and are not checked there either.
func knownFormat(format string) bool {
	_, ok := formatValidators[normalizeFormat(format)]
	return ok
}

func validFormat(format, data string) bool {
	f, ok := formatValidators[normalizeFormat(format)]
	return !ok || f(data)
}

const (
	hostnamePattern = `^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`
	shortNameFmt    = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
)

var (
	rxHostname  = regexp.MustCompile(hostnamePattern)
	rxUUID      = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID3     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID4     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxUUID5     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxShortName = regexp.MustCompile("^" + shortNameFmt + "$")
	rxLongName  = regexp.MustCompile("^" + shortNameFmt + "(\\." + shortNameFmt + ")*$")
	rxDateTime  = regexp.MustCompile(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)
	rxDuration  = regexp.MustCompile(`((\d+)\s*([A-Za-zµ]+))`)

	// govalidator's patterns, which kube-openapi vendors.
	rxCreditCard          = regexp.MustCompile("^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\\d{3})\\d{11})$")
	rxISBN10              = regexp.MustCompile("^(?:[0-9]{9}X|[0-9]{10})$")
	rxISBN13              = regexp.MustCompile("^(?:[0-9]{13})$")
	rxHexcolor            = regexp.MustCompile("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
	rxRGBcolor            = regexp.MustCompile("^rgb\\(\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*\\)$")
	rxBase64              = regexp.MustCompile("^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$")
	rxSSN                 = regexp.MustCompile(`^\d{3}[- ]?\d{2}[- ]?\d{4}$`)
	rxNotNumber           = regexp.MustCompile("[^0-9]+")
	rxWhiteSpacesAndMinus = regexp.MustCompile(`[\s-]+`)
)

func isHostname(s string) bool {
	if !rxHostname.MatchString(s) || len(s) > 255 {
		return false
	}
	for _, p := range strings.Split(s, ".") {
		if len(p) > 63 {
			return false
		}
	}
	return true
}

func isEmail(s string) bool {
	addr, err := mail.ParseAddress(s)
	return err == nil && addr.Address != ""
}

func isRequestURI(s string) bool {
	_, err := url.ParseRequestURI(s)
	return err == nil
}

// isIPv4 accepts IPv4 with leading zeros in octets, as Kubernetes'
// "sloppy" parser (the pre-1.17 Go parser) does.
func isIPv4(s string) bool { return parseIPSloppy(s) != nil && strings.Contains(s, ".") }

func isIPv6(s string) bool { return net.ParseIP(s) != nil && strings.Contains(s, ":") }

func isCIDR(s string) bool {
	addr, bits, ok := strings.Cut(s, "/")
	if !ok {
		return false
	}
	ip := parseIPSloppy(addr)
	if ip == nil {
		return false
	}
	size := 128
	if ip.To4() != nil && !strings.Contains(addr, ":") {
		size = 32
	}
	n, err := strconv.Atoi(bits)
	return err == nil && n >= 0 && n <= size && bits != "" && (bits == "0" || bits[0] != '+' && bits[0] != '-')
}

// parseIPSloppy is net.ParseIP, but IPv4 octets (alone or at the end of
// an IPv6 address) may have leading zeros and are read as decimal.
//
// Upstream: k8s.io/utils/net (ParseIPSloppy).
func parseIPSloppy(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil {
		return ip
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		v4 := parseIPv4Sloppy(s[i+1:])
		if v4 == nil {
			return nil
		}
		return net.ParseIP(s[:i+1] + v4.String())
	}
	return parseIPv4Sloppy(s)
}

func parseIPv4Sloppy(s string) net.IP {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return nil
	}
	var b [4]byte
	for i, p := range parts {
		if p == "" {
			return nil
		}
		n := 0
		for _, c := range []byte(p) {
			if c < '0' || c > '9' {
				return nil
			}
			n = n*10 + int(c-'0')
			if n > 0xFF {
				return nil
			}
		}
		b[i] = byte(n)
	}
	return net.IPv4(b[0], b[1], b[2], b[3])
}

func isMAC(s string) bool {
	_, err := net.ParseMAC(s)
	return err == nil
}

func isBSONObjectID(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 12
}

func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// isDateTime accepts RFC 3339 date-times, case-insensitively, with
// fractional seconds of any length.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/strfmt (IsDateTime).
func isDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 || !isDate(parts[0]) {
		return false
	}
	m := rxDateTime.FindStringSubmatch(parts[1])
	if len(m) == 0 {
		return false
	}
	return m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

// isDuration accepts Go durations and Scala-style ones ("3 days").
//
// Upstream: k8s.io/kube-openapi/pkg/validation/strfmt (ParseDuration).
func isDuration(s string) bool {
	if _, err := time.ParseDuration(s); err == nil {
		return true
	}
	units := [][]string{
		{"ns", "nano"}, {"us", "µs", "micro"}, {"ms", "milli"}, {"s", "sec"},
		{"m", "min"}, {"h", "hr", "hour"}, {"d", "day"}, {"w", "wk", "week"},
	}
	ok := false
	for _, match := range rxDuration.FindAllStringSubmatch(s, -1) {
		if _, err := strconv.Atoi(match[2]); err != nil {
			return false
		}
		unit := strings.ToLower(strings.TrimSpace(match[3]))
		for _, variants := range units {
			last := len(variants) - 1
			for i, variant := range variants {
				if (last == i && strings.HasPrefix(unit, variant)) || strings.EqualFold(variant, unit) {
					ok = true
				}
			}
		}
	}
	return ok
}

func isSSN(s string) bool { return len(s) == 11 && rxSSN.MatchString(s) }

func isCreditCard(s string) bool {
	sanitized := rxNotNumber.ReplaceAllString(s, "")
	if !rxCreditCard.MatchString(sanitized) {
		return false
	}
	var sum int64
	double := false
	for i := len(sanitized) - 1; i >= 0; i-- {
		n := int64(sanitized[i] - '0')
		if double {
			n *= 2
			if n >= 10 {
				n = n%10 + 1
			}
		}
		sum += n
		double = !double
	}
	return sum%10 == 0
}

func isISBN(s string, version int) bool {
	sanitized := rxWhiteSpacesAndMinus.ReplaceAllString(s, "")
	var checksum int32
	switch version {
	case 10:
		if !rxISBN10.MatchString(sanitized) {
			return false
		}
		for i := int32(0); i < 9; i++ {
			checksum += (i + 1) * int32(sanitized[i]-'0')
		}
		if sanitized[9] == 'X' {
			checksum += 10 * 10
		} else {
			checksum += 10 * int32(sanitized[9]-'0')
		}
		return checksum%11 == 0
	case 13:
		if !rxISBN13.MatchString(sanitized) {
			return false
		}
		factor := []int32{1, 3}
		for i := int32(0); i < 12; i++ {
			checksum += factor[i%2] * int32(sanitized[i]-'0')
		}
		return int32(sanitized[12]-'0')-((10-(checksum%10))%10) == 0
	}
	return false
}

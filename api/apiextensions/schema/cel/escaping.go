package cel

import (
	"regexp"
)

// celReservedSymbols are CEL keywords and reserved words; properties with
// these names are escaped as __name__.
var celReservedSymbols = map[string]bool{
	"true": true, "false": true, "null": true, "in": true,
	"as": true, "break": true, "const": true, "continue": true, "else": true,
	"for": true, "function": true, "if": true, "import": true, "let": true,
	"loop": true, "package": true, "namespace": true, "return": true,
	"var": true, "void": true, "while": true,
}

var (
	expandMatcher   = regexp.MustCompile(`(__|[-./]|[^a-zA-Z0-9-./_])`)
	unexpandMatcher = regexp.MustCompile(`(_{2}[^_]+_{2})`)
	identifierChars = regexp.MustCompile(`^[a-zA-Z0-9_]*$`)
)

// Escape turns a property name into a CEL identifier: keywords become
// __keyword__, and "__", ".", "-" and "/" become __underscores__,
// __dot__, __dash__ and __slash__. Names that cannot be escaped (starting
// with a digit, other characters) report false; such properties are not
// accessible from CEL.
//
// Upstream: k8s.io/apiserver/pkg/cel (Escape).
func Escape(ident string) (string, bool) {
	if ident == "" || ('0' <= ident[0] && ident[0] <= '9') {
		return "", false
	}
	if celReservedSymbols[ident] {
		return "__" + ident + "__", true
	}
	ok := true
	escaped := expandMatcher.ReplaceAllStringFunc(ident, func(s string) string {
		switch s {
		case "__":
			return "__underscores__"
		case ".":
			return "__dot__"
		case "-":
			return "__dash__"
		case "/":
			return "__slash__"
		}
		ok = false
		return ""
	})
	if !ok || !identifierChars.MatchString(escaped) {
		return "", false
	}
	return escaped, true
}

// Unescape reverses Escape; false means ident is not an escaped name.
//
// Upstream: k8s.io/apiserver/pkg/cel (Unescape).
func Unescape(escaped string) (string, bool) {
	ok := true
	out := unexpandMatcher.ReplaceAllStringFunc(escaped, func(s string) string {
		contents := s[2 : len(s)-2]
		switch contents {
		case "underscores":
			return "__"
		case "dot":
			return "."
		case "dash":
			return "-"
		case "slash":
			return "/"
		}
		if celReservedSymbols[contents] {
			if len(s) != len(escaped) {
				ok = false
			}
			return contents
		}
		ok = false
		return ""
	})
	if !ok {
		return "", false
	}
	return out, true
}

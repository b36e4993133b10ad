package shell

import (
	"strings"
	"unicode/utf8"
)

// matchPattern reports whether s matches the shell pattern pat as a whole:
// * matches any string, ? any one character, [abc] [a-z] [!a] one
// character of a class, and \c the character c itself. A '[' without
// its ']' is an ordinary character.
func matchPattern(pat, s string) bool {
	for pat != "" {
		switch pat[0] {
		case '*':
			pat = strings.TrimLeft(pat, "*")
			if pat == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if matchPattern(pat, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
			_, n := utf8.DecodeRuneInString(s)
			pat, s = pat[1:], s[n:]
			continue
		case '[':
			if end := classEnd(pat); end > 0 {
				if s == "" {
					return false
				}
				r, n := utf8.DecodeRuneInString(s)
				if !matchClass(pat[1:end], r) {
					return false
				}
				pat, s = pat[end+1:], s[n:]
				continue
			}
		case '\\':
			if len(pat) > 1 {
				pat = pat[1:]
			}
		}
		if s == "" || s[0] != pat[0] {
			return false
		}
		pat, s = pat[1:], s[1:]
	}
	return s == ""
}

// classEnd returns the index of the ']' that closes the class at pat[0],
// or -1. A ']' right after "[" or "[!" belongs to the class.
func classEnd(pat string) int {
	i := 1
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		i++
	}
	if i < len(pat) && pat[i] == ']' {
		i++
	}
	for ; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case ']':
			return i
		}
	}
	return -1
}

// matchClass reports whether r is in the class body (what is between the
// brackets).
func matchClass(body string, r rune) bool {
	negate := body != "" && (body[0] == '!' || body[0] == '^')
	if negate {
		body = body[1:]
	}
	in := false
	for first := true; body != ""; first = false {
		lo, n := utf8.DecodeRuneInString(body)
		if lo == '\\' && len(body) > 1 {
			lo, n = utf8.DecodeRuneInString(body[1:])
			n++
		} else if lo == ']' && !first {
			break
		}
		body = body[n:]
		hi := lo
		if len(body) > 1 && body[0] == '-' {
			hi, n = utf8.DecodeRuneInString(body[1:])
			body = body[1+n:]
		}
		if lo <= r && r <= hi {
			in = true
		}
	}
	return in != negate
}

// quotePattern escapes the pattern characters of s, for text that was
// quoted in the script.
func quotePattern(s string) string {
	if !strings.ContainsAny(s, `*?[\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// removeAffix is ${v#pat} (shortest prefix), ${v##pat} (longest prefix),
// ${v%pat} (shortest suffix) and ${v%%pat} (longest suffix).
func removeAffix(v, op, pat string) string {
	n := len(v)
	switch op {
	case "#":
		for i := 0; i <= n; i++ {
			if matchPattern(pat, v[:i]) {
				return v[i:]
			}
		}
	case "##":
		for i := n; i >= 0; i-- {
			if matchPattern(pat, v[:i]) {
				return v[i:]
			}
		}
	case "%":
		for i := n; i >= 0; i-- {
			if matchPattern(pat, v[i:]) {
				return v[:i]
			}
		}
	case "%%":
		for i := 0; i <= n; i++ {
			if matchPattern(pat, v[i:]) {
				return v[:i]
			}
		}
	}
	return v
}

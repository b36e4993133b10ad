package schema

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ValidFieldPath resolves a JSON path in the dot notation, optionally
// with ['key'] subscripts (".spec.replicas", ".metadata.labels['a.b']"),
// against s. It returns the path in field path form ("spec.replicas",
// "metadata.labels[a.b]") and the schema of the field, or an error saying
// why the path does not lead to a field: CRDs use it for selectable
// fields and for the fieldPath of CEL rules.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel (ValidFieldPath).
func ValidFieldPath(jsonPath string, s *Structural, allowArrayNotation bool) (string, *Structural, error) {
	var p path
	tokens := splitFieldPath(jsonPath)
	appendToPath := func(name string) error {
		switch {
		case s == nil:
			return errors.New("does not refer to a valid field")
		case s.Properties != nil:
			p = p.child(name)
			val, ok := s.Properties[name]
			if !ok {
				return errors.New("does not refer to a valid field")
			}
			s = &val
		case s.AdditionalProperties != nil:
			p = p.key(name)
			s = s.AdditionalProperties.Structural
		default:
			return errors.New("does not refer to a valid field")
		}
		return nil
	}
	for i := 0; i < len(tokens); i++ {
		switch tok := tokens[i]; tok {
		case "[":
			if !allowArrayNotation {
				return "", nil, errors.New("array notation is not allowed")
			}
			if i++; i >= len(tokens) {
				return "", nil, errors.New("unexpected end of JSON path")
			}
			tok = tokens[i]
			if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
				return "", nil, fmt.Errorf("expected single quoted string but got %s", tok)
			}
			unescaped, err := unescapeSingleQuote(tok[1 : len(tok)-1])
			if err != nil {
				return "", nil, fmt.Errorf("invalid string literal: %w", err)
			}
			if err := appendToPath(unescaped); err != nil {
				return "", nil, err
			}
			if i++; i >= len(tokens) {
				return "", nil, errors.New("unexpected end of JSON path")
			}
			if tokens[i] != "]" {
				return "", nil, fmt.Errorf("expected ] but got %s", tokens[i])
			}
		case ".":
			if i++; i >= len(tokens) {
				return "", nil, errors.New("unexpected end of JSON path")
			}
			if err := appendToPath(tokens[i]); err != nil {
				return "", nil, err
			}
		default:
			return "", nil, fmt.Errorf("expected [ or . but got: %s", tok)
		}
	}
	return p.s, s, nil
}

// splitFieldPath splits a JSON path into the delimiters '.', '[' and ']'
// and the text between them; a single-quoted string is one token, even
// when it holds delimiters (an unterminated one runs to the end).
func splitFieldPath(s string) []string {
	var tokens []string
	for len(s) > 0 {
		if s[0] == '\'' {
			end := len(s)
			for i := 1; i < len(s); i++ {
				if s[i] == '\'' && s[i-1] != '\\' {
					end = i + 1
					break
				}
			}
			tokens = append(tokens, s[:end])
			s = s[end:]
			continue
		}
		i := strings.IndexAny(s, ".[]")
		switch {
		case i == 0:
			tokens = append(tokens, s[:1])
			s = s[1:]
		case i < 0:
			tokens = append(tokens, s)
			s = ""
		default:
			tokens = append(tokens, s[:i])
			s = s[i:]
		}
	}
	return tokens
}

var unescapeMatcher = regexp.MustCompile(`\\.`)

func unescapeSingleQuote(s string) (string, error) {
	var err error
	unescaped := unescapeMatcher.ReplaceAllStringFunc(s, func(m string) string {
		switch m[1] {
		case 'a':
			return "\a"
		case 'b':
			return "\b"
		case 'f':
			return "\f"
		case 'n':
			return "\n"
		case 'r':
			return "\r"
		case 't':
			return "\t"
		case 'v':
			return "\v"
		case '\'':
			return "'"
		case '\\':
			return "\\"
		}
		err = fmt.Errorf("invalid escape char %s", m)
		return ""
	})
	return unescaped, err
}

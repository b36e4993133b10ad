package fields

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Everything returns a selector that matches every set.
func Everything() Selector { return andTerm(nil) }

// OneTermEqualSelector returns a selector for field = value.
func OneTermEqualSelector(field, value string) Selector {
	return andTerm{{Field: field, Operator: Equals, Value: value}}
}

// SelectorFromSet returns a selector that matches sets with every field of
// set at its value; a nil or empty set gives Everything.
func SelectorFromSet(set Set) Selector {
	terms := make(andTerm, 0, len(set))
	for f, v := range set {
		terms = append(terms, Requirement{Field: f, Operator: Equals, Value: v})
	}
	return terms.sorted()
}

// ParseSelector parses a field selector: comma-separated terms
// "field=value", "field==value" or "field!=value". The field is everything
// before the first operator; the value may be empty and must escape ',',
// '=' and '\' with a backslash. An empty string gives Everything.
//
// Upstream: k8s.io/apimachinery/pkg/fields (ParseSelector).
func ParseSelector(selector string) (Selector, error) {
	var terms andTerm
	for _, part := range splitTerms(selector) {
		if part == "" {
			continue
		}
		lhs, op, rhs, ok := splitTerm(part)
		if !ok {
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", selector, part)
		}
		value, err := UnescapeValue(rhs)
		if err != nil {
			return nil, err
		}
		operator := Equals
		if op == "!=" {
			operator = NotEquals
		}
		terms = append(terms, Requirement{Field: lhs, Operator: operator, Value: value})
	}
	return terms.sorted(), nil
}

// splitTerms cuts a selector at the commas that are not escaped; escapes
// stay in the terms.
func splitTerms(selector string) []string {
	if selector == "" {
		return nil
	}
	var terms []string
	start, inSlash := 0, false
	for i, c := range selector {
		switch {
		case inSlash:
			inSlash = false
		case c == '\\':
			inSlash = true
		case c == ',':
			terms = append(terms, selector[start:i])
			start = i + 1
		}
	}
	return append(terms, selector[start:])
}

// termOperators are tried in this order at each position, so "==" and "!="
// win over "=".
var termOperators = []string{"!=", "==", "="}

// splitTerm splits a term at its first operator. Fields cannot be escaped.
func splitTerm(term string) (lhs, op, rhs string, ok bool) {
	for i := range term {
		for _, op := range termOperators {
			if strings.HasPrefix(term[i:], op) {
				return term[:i], op, term[i+len(op):], true
			}
		}
	}
	return "", "", "", false
}

var valueEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`)

// EscapeValue escapes a literal value for use in a field selector.
func EscapeValue(s string) string { return valueEscaper.Replace(s) }

// UnescapeValue undoes EscapeValue. An unknown escape, a trailing
// backslash or an unescaped ',' or '=' is an error.
func UnescapeValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil
	}
	var b strings.Builder
	inSlash := false
	for i, c := range s {
		if inSlash {
			switch c {
			case '\\', ',', '=':
				b.WriteRune(c)
			default:
				return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", string([]rune{'\\', c}))
			}
			inSlash = false
			continue
		}
		switch c {
		case '\\':
			inSlash = true
		case ',', '=':
			return "", fmt.Errorf("invalid field selector: unescaped character in value: %q", c)
		default:
			// The bytes of s, not c: ranging turns each byte of invalid
			// UTF-8 into U+FFFD, and a value must come back as it was sent.
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
		}
	}
	if inSlash {
		return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", `\`)
	}
	return b.String(), nil
}

// andTerm is a conjunction of requirements, sorted by field, then operator
// and value, so String is canonical.
type andTerm []Requirement

func (t andTerm) sorted() andTerm {
	slices.SortFunc(t, func(a, b Requirement) int {
		if c := strings.Compare(a.Field, b.Field); c != 0 {
			return c
		}
		if c := strings.Compare(string(a.Operator), string(b.Operator)); c != 0 {
			return c
		}
		return strings.Compare(a.Value, b.Value)
	})
	return t
}

func (t andTerm) Matches(set Set) bool {
	for _, r := range t {
		if (set[r.Field] == r.Value) != (r.Operator == Equals) {
			return false
		}
	}
	return true
}

func (t andTerm) Empty() bool { return len(t) == 0 }

func (t andTerm) String() string {
	parts := make([]string, len(t))
	for i, r := range t {
		parts[i] = r.Field + string(r.Operator) + EscapeValue(r.Value)
	}
	return strings.Join(parts, ",")
}

func (t andTerm) RequiresExactMatch(field string) (string, bool) {
	for _, r := range t {
		if r.Field == field && r.Operator == Equals {
			return r.Value, true
		}
	}
	return "", false
}

func (t andTerm) Requirements() []Requirement { return slices.Clone(t) }

package fields

import (
	"slices"
	"strings"
)

// Set is a map of field paths to values, the thing a selector matches.
type Set map[string]string

// String is "f1=v1,f2=v2" sorted by field, with values escaped; parsed back
// it selects exactly this set.
func (s Set) String() string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + EscapeValue(s[k])
	}
	return strings.Join(parts, ",")
}

// Selector matches field sets. Selectors are immutable and safe for
// concurrent use.
type Selector interface {
	// Matches reports whether the set satisfies every requirement. A field
	// missing from the set has the value "".
	Matches(Set) bool
	// Empty reports whether the selector has no requirements.
	Empty() bool
	// String is the canonical form, parseable by ParseSelector.
	String() string
	// RequiresExactMatch returns the value a field must equal, when the
	// selector pins it with = or ==; the watch cache indexes on it (a
	// kubelet's spec.nodeName=X).
	RequiresExactMatch(field string) (value string, found bool)
	// Requirements returns the terms, so the API server can reject fields
	// a resource cannot be selected by.
	Requirements() []Requirement
}

// Operator is the relation of a Requirement.
type Operator string

// The operators of field selectors; == parses as Equals.
const (
	Equals    Operator = "="
	NotEquals Operator = "!="
)

// Requirement is one term of a field selector: Field Operator Value.
type Requirement struct {
	Field    string
	Operator Operator
	Value    string
}

// Package fields parses and matches field selectors
// ("metadata.name=x,spec.nodeName!=,status.phase=Running"). Each resource
// declares which fields it can be selected by.
//
// Upstream: k8s.io/apimachinery/pkg/fields.
package fields

// Set is a map of field paths to values, the thing a selector matches.
type Set map[string]string

// Selector matches field sets. Field selectors support only =, == and !=.
type Selector interface {
	// Matches reports whether the set satisfies every requirement.
	Matches(Set) bool
	// Empty reports whether the selector has no requirements.
	Empty() bool
	// String is the canonical form, parseable by Parse.
	String() string
	// RequiresExactMatch returns the value a field must equal, when the
	// selector pins it with = or ==; the watch cache indexes on it (a
	// kubelet's spec.nodeName=X).
	RequiresExactMatch(field string) (value string, found bool)
}

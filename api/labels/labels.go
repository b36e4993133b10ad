// Package labels parses and matches label selectors
// ("app=web,tier in (fe,be),!canary"), as list, watch and controllers use
// them.
//
// Upstream: k8s.io/apimachinery/pkg/labels.
package labels

// Set is a map of labels, the thing a selector matches against.
type Set map[string]string

// Get returns the value of a label and whether it is set.
func (s Set) Get(key string) (string, bool) {
	v, ok := s[key]
	return v, ok
}

// Selector matches label sets. The zero selector from Everything matches
// everything.
type Selector interface {
	// Matches reports whether the set satisfies every requirement.
	Matches(Set) bool
	// Empty reports whether the selector has no requirements.
	Empty() bool
	// String is the canonical form, parseable by Parse.
	String() string
	// RequiresExactMatch returns the value a label must equal, when the
	// selector pins it with = or ==; indexes use it to narrow a search.
	RequiresExactMatch(label string) (value string, found bool)
}

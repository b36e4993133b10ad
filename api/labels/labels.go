package labels

import (
	"slices"
	"strings"
)

// Set is a map of labels, the thing a selector matches against.
type Set map[string]string

// Get returns the value of a label and whether it is set.
func (s Set) Get(key string) (string, bool) {
	v, ok := s[key]
	return v, ok
}

// String is "k1=v1,k2=v2" sorted by key; parsed back it selects exactly
// this set.
func (s Set) String() string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + s[k]
	}
	return strings.Join(parts, ",")
}

// Selector matches label sets. The selector from Everything matches
// everything; the one from Nothing matches nothing. Selectors are
// immutable and safe for concurrent use.
type Selector interface {
	// Matches reports whether the set satisfies every requirement.
	Matches(Set) bool
	// Empty reports whether the selector has no requirements.
	Empty() bool
	// String is the canonical form, parseable by Parse.
	String() string
	// RequiresExactMatch returns the value a label must equal, when the
	// selector pins it with =, == or an "in" with one value; indexes use it
	// to narrow a search.
	RequiresExactMatch(label string) (value string, found bool)
}

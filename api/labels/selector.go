package labels

import (
	"slices"
	"strings"
)

// Everything returns a selector that matches every set.
func Everything() Selector { return internalSelector(nil) }

// Nothing returns a selector that matches no set, what a nil
// metav1.LabelSelector means. Its String is "", like upstream's, so it does
// not survive a round trip through Parse: do not send it to a server.
func Nothing() Selector { return nothingSelector{} }

// SelectorFromSet returns a selector that matches every set containing all
// of set's labels with the same values; a nil or empty set gives
// Everything. Keys and values are not validated: a server rejects invalid
// ones when the selector is sent.
func SelectorFromSet(set Set) Selector {
	reqs := make(internalSelector, 0, len(set))
	for k, v := range set {
		reqs = append(reqs, Requirement{key: k, operator: Equals, values: []string{v}})
	}
	return reqs.sorted()
}

// NewSelector returns a selector that matches when every requirement does.
func NewSelector(reqs ...Requirement) Selector {
	return internalSelector(slices.Clone(reqs)).sorted()
}

// internalSelector is a conjunction of requirements, sorted by key (stably,
// so requirements on one key keep their order).
type internalSelector []Requirement

func (s internalSelector) sorted() internalSelector {
	slices.SortStableFunc(s, func(a, b Requirement) int { return strings.Compare(a.key, b.key) })
	return s
}

func (s internalSelector) Matches(ls Set) bool {
	for _, r := range s {
		if !r.Matches(ls) {
			return false
		}
	}
	return true
}

func (s internalSelector) Empty() bool { return len(s) == 0 }

func (s internalSelector) String() string {
	parts := make([]string, len(s))
	for i, r := range s {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

func (s internalSelector) RequiresExactMatch(label string) (string, bool) {
	for _, r := range s {
		if r.key != label {
			continue
		}
		switch r.operator {
		case Equals, DoubleEquals, In:
			if len(r.values) == 1 {
				return r.values[0], true
			}
		}
		return "", false
	}
	return "", false
}

type nothingSelector struct{}

func (nothingSelector) Matches(Set) bool                         { return false }
func (nothingSelector) Empty() bool                              { return false }
func (nothingSelector) String() string                           { return "" }
func (nothingSelector) RequiresExactMatch(string) (string, bool) { return "", false }

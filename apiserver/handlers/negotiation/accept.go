package negotiation

import (
	"sort"
	"strconv"
	"strings"
)

// acceptClause is one media range of an Accept header:
// type/subtype;param=value;q=weight.
type acceptClause struct {
	Type, SubType string
	Q             float64
	// Params are the clause's parameters but q; nil when there are none.
	Params map[string]string
}

// parseAccept splits an Accept header into its clauses, most preferred
// first. It reads headers exactly as kube-apiserver does, quirks included,
// so that a client gets the same representation from both:
//
//   - a clause without a subtype is dropped, except "*" (read as */*), and
//     so is one with a second subtype ("a/b/c");
//   - a parameter without a value ("k" or "k="), or with a second one
//     ("k=a=b"), is dropped;
//   - a q that does not parse is 0, and a clause with q=0 still counts;
//   - clauses are ordered by insertion sort under goautoneg's comparison: a
//     clause goes before the one ahead of it when its q is higher, or when
//     its type or subtype is concrete and the other's is a wildcard. That
//     is stable, and is the order Go's sort.Sort gives for the 12 clauses
//     or fewer every real client sends.
//
// Upstream: github.com/munnerz/goautoneg (ParseAccept), which
// k8s.io/apiserver's negotiation calls.
func parseAccept(header string) []acceptClause {
	var clauses []acceptClause
	for remaining := header; remaining != ""; {
		var part string
		part, remaining = nextSplit(remaining, ",")
		mediaRange, params := nextSplit(strings.Trim(part, " "), ";")
		c := acceptClause{Q: 1}
		typ, sub := nextSplit(mediaRange, "/")
		c.Type = strings.Trim(typ, " ")
		switch {
		case sub == "" && c.Type == "*":
			c.SubType = "*"
		case sub == "":
			continue
		default:
			sub, rest := nextSplit(sub, "/")
			if rest != "" {
				continue
			}
			c.SubType = strings.Trim(sub, " ")
		}
		if params != "" {
			c.Params = map[string]string{}
		}
		for params != "" {
			var param string
			param, params = nextSplit(params, ";")
			key, value := nextSplit(param, "=")
			if value == "" {
				continue
			}
			if value, rest := nextSplit(value, "="); rest == "" {
				key = strings.Trim(key, " ")
				if key == "q" {
					c.Q, _ = strconv.ParseFloat(value, 32)
				} else {
					c.Params[key] = strings.Trim(value, " ")
				}
			}
		}
		clauses = append(clauses, c)
	}
	sort.Stable(byPreference(clauses))
	return clauses
}

// nextSplit returns what comes before the first sep in s and what comes
// after it; s and "" when there is none. An empty "after" is therefore
// the same as no separator, which is how goautoneg reads "application/"
// (no subtype) and "k=" (no value).
func nextSplit(s, sep string) (item, rest string) {
	item, rest, _ = strings.Cut(s, sep)
	return item, rest
}

// matches reports whether info is in c's media range: the same type
// and subtype, the same type and any subtype, or */*.
func (c acceptClause) matches(info SerializerInfo) bool {
	switch {
	case c.Type == info.MediaTypeType && (c.SubType == info.MediaTypeSubType || c.SubType == "*"):
		return true
	case c.Type == "*" && c.SubType == "*":
		return true
	}
	return false
}

// byPreference orders clauses as goautoneg's acceptSlice does. Its Less
// is not a strict weak order (a concrete type beats a wildcard whatever
// their q), so the result depends on the algorithm: sort.Stable is
// insertion sort for short slices, as sort.Sort is.
type byPreference []acceptClause

func (p byPreference) Len() int      { return len(p) }
func (p byPreference) Swap(i, j int) { p[i], p[j] = p[j], p[i] }
func (p byPreference) Less(i, j int) bool {
	a, b := p[i], p[j]
	switch {
	case a.Q > b.Q:
		return true
	case a.Type != "*" && b.Type == "*":
		return true
	case a.SubType != "*" && b.SubType == "*":
		return true
	}
	return false
}

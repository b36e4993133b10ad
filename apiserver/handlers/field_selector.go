package handlers

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/fields"
)

// checkFieldSelector rejects a field selector on a field the resource
// cannot be selected by, with kube-apiserver's 400
// `"spec.colour" is not a known field selector: only "metadata.name", ...`.
// The selectable fields are what the strategy reports for an empty object.
func (s *Scope) checkFieldSelector(sel fields.Selector) error {
	known := s.selectableFields()
	for _, r := range sel.Requirements() {
		if !slices.Contains(known, r.Field) {
			quoted := make([]string, len(known))
			for i, k := range known {
				quoted[i] = fmt.Sprintf("%q", k)
			}
			return apierrors.NewBadRequest(fmt.Sprintf("field label not supported: %s (%q is not a known field selector: only %s)",
				r.Field, r.Field, strings.Join(quoted, ", ")))
		}
	}
	return nil
}

func (s *Scope) selectableFields() []string {
	set := s.Store.Strategy.SelectableFields(s.Store.New())
	known := []string{"metadata.name"}
	if s.Store.Resource.Namespaced {
		known = append(known, "metadata.namespace")
	}
	for k := range set {
		known = append(known, k)
	}
	sort.Strings(known[1:])
	return known
}

// andSelector is the conjunction of two field selectors.
func andSelector(a, b fields.Selector) fields.Selector {
	reqs := append(a.Requirements(), b.Requirements()...)
	set := make([]string, 0, len(reqs))
	for _, r := range reqs {
		set = append(set, r.Field+string(r.Operator)+fields.EscapeValue(r.Value))
	}
	sel, err := fields.ParseSelector(strings.Join(set, ","))
	if err != nil {
		// Both selectors parsed already, so their terms re-parse.
		panic(err)
	}
	return sel
}

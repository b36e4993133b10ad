package apiserver

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// acceptedNames works out which of crd's requested names it may have:
// each name it was already given, and each new one that no other CRD of
// its group has been given. It returns the names and the NamesAccepted
// condition, False with the first conflict's reason when a requested
// name is taken.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/controller/status
// (NamingConditionController.calculateNamesAndConditions).
func (c *crdController) acceptedNames(crd *apiextensionsv1.CustomResourceDefinition) (apiextensionsv1.CustomResourceDefinitionNames, apiextensionsv1.CustomResourceDefinitionCondition) {
	// The names other CRDs of the group were given: resources (plural,
	// singular and short names share one namespace, as kubectl resolves
	// them) and kinds (kind and list kind).
	resources, kinds := map[string]bool{}, map[string]bool{}
	for name, other := range c.crds {
		if name == crd.Name || other.Spec.Group != crd.Spec.Group {
			continue
		}
		n := other.Status.AcceptedNames
		for _, r := range append([]string{n.Plural, n.Singular}, n.ShortNames...) {
			if r != "" {
				resources[r] = true
			}
		}
		for _, k := range []string{n.Kind, n.ListKind} {
			if k != "" {
				kinds[k] = true
			}
		}
	}
	requested, accepted := crd.Spec.Names, crd.Status.AcceptedNames
	names := accepted
	cond := apiextensionsv1.CustomResourceDefinitionCondition{Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionUnknown}
	// Every conflict is checked, so every name that is free is accepted;
	// the condition reports the last one, as upstream's does.
	conflict := func(reason string, err error) {
		cond.Status, cond.Reason, cond.Message = apiextensionsv1.ConditionFalse, reason, err.Error()
	}
	if err := equalToAcceptedOrFresh(requested.Plural, accepted.Plural, resources); err != nil {
		conflict("PluralConflict", err)
	} else {
		names.Plural = requested.Plural
	}
	if err := equalToAcceptedOrFresh(requested.Singular, accepted.Singular, resources); err != nil {
		conflict("SingularConflict", err)
	} else {
		names.Singular = requested.Singular
	}
	if !slices.Equal(requested.ShortNames, accepted.ShortNames) {
		var taken []string
		for _, short := range requested.ShortNames {
			if !slices.Contains(accepted.ShortNames, short) && resources[short] && !slices.Contains(taken, short) {
				taken = append(taken, fmt.Sprintf("%q is already in use", short))
			}
		}
		switch len(taken) {
		case 0:
			names.ShortNames = requested.ShortNames
		case 1:
			conflict("ShortNamesConflict", errors.New(taken[0]))
		default:
			// Upstream aggregates them: "[a, b]".
			conflict("ShortNamesConflict", errors.New("["+strings.Join(taken, ", ")+"]"))
		}
	}
	if err := equalToAcceptedOrFresh(requested.Kind, accepted.Kind, kinds); err != nil {
		conflict("KindConflict", err)
	} else {
		names.Kind = requested.Kind
	}
	if err := equalToAcceptedOrFresh(requested.ListKind, accepted.ListKind, kinds); err != nil {
		conflict("ListKindConflict", err)
	} else {
		names.ListKind = requested.ListKind
	}
	// Categories group resources across CRDs: they never conflict.
	names.Categories = requested.Categories
	if cond.Status == apiextensionsv1.ConditionUnknown {
		cond.Status, cond.Reason, cond.Message = apiextensionsv1.ConditionTrue, apiextensionsv1.ReasonNoConflicts, "no conflicts found"
	}
	return names, cond
}

// equalToAcceptedOrFresh allows a requested name that is the one already
// accepted, or that no other CRD holds.
func equalToAcceptedOrFresh(requested, accepted string, used map[string]bool) error {
	if requested == accepted || !used[requested] {
		return nil
	}
	return fmt.Errorf("%q is already in use", requested)
}

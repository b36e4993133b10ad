package labels

import (
	"fmt"
	"slices"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// The operators of metav1.LabelSelectorRequirement.
const (
	labelSelectorOpIn           = "In"
	labelSelectorOpNotIn        = "NotIn"
	labelSelectorOpExists       = "Exists"
	labelSelectorOpDoesNotExist = "DoesNotExist"
)

// FromLabelSelector converts the structured selector of a Deployment,
// ReplicaSet or Job. A nil selector selects nothing and an empty one
// everything, as upstream decides. matchLabels become = requirements and
// matchExpressions In, NotIn, Exists or DoesNotExist requirements; an
// unknown operator or an invalid key or value is an error.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (LabelSelectorAsSelector).
func FromLabelSelector(ps *metav1.LabelSelector) (Selector, error) {
	if ps == nil {
		return Nothing(), nil
	}
	if len(ps.MatchLabels)+len(ps.MatchExpressions) == 0 {
		return Everything(), nil
	}
	reqs := make(internalSelector, 0, len(ps.MatchLabels)+len(ps.MatchExpressions))
	// Map order is random; sort first so errors name the same key each time.
	keys := make([]string, 0, len(ps.MatchLabels))
	for k := range ps.MatchLabels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		r, err := NewRequirement(k, Equals, []string{ps.MatchLabels[k]})
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, *r)
	}
	for _, expr := range ps.MatchExpressions {
		var op Operator
		switch expr.Operator {
		case labelSelectorOpIn:
			op = In
		case labelSelectorOpNotIn:
			op = NotIn
		case labelSelectorOpExists:
			op = Exists
		case labelSelectorOpDoesNotExist:
			op = DoesNotExist
		default:
			return nil, fmt.Errorf("%q is not a valid label selector operator", expr.Operator)
		}
		r, err := NewRequirement(expr.Key, op, expr.Values)
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, *r)
	}
	return reqs.sorted(), nil
}

package labels

import (
	"slices"
	"strconv"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/validation"
)

// Operator is the relation a Requirement states between a label and its
// values. The values are spelled as upstream's selection.Operator.
type Operator string

// The operators of label selectors.
const (
	DoesNotExist Operator = "!"
	Equals       Operator = "="
	DoubleEquals Operator = "=="
	In           Operator = "in"
	NotEquals    Operator = "!="
	NotIn        Operator = "notin"
	Exists       Operator = "exists"
	GreaterThan  Operator = "gt"
	LessThan     Operator = "lt"
)

// Requirement is one term of a selector: a key, an operator and values.
// It is immutable once made by NewRequirement.
//
// Upstream: k8s.io/apimachinery/pkg/labels (Requirement).
type Requirement struct {
	key      string
	operator Operator
	// values is never empty for In and NotIn, has exactly one element for
	// =, ==, !=, gt and lt, and is empty for exists and !.
	values []string
}

// NewRequirement validates and returns a requirement. The key must be a
// qualified name and every value a valid label value; In and NotIn need at
// least one value, the equality operators exactly one, Exists and
// DoesNotExist none, and GreaterThan and LessThan one integer. The error is
// an apierrors.FieldErrors whose paths are "key" and "values[i][key]". The
// requirement keeps its own copy of vals.
func NewRequirement(key string, op Operator, vals []string) (*Requirement, error) {
	var errs apierrors.FieldErrors
	if msgs := validation.IsQualifiedName(key); len(msgs) != 0 {
		errs = append(errs, apierrors.Invalid("key", key, strings.Join(msgs, "; ")))
	}
	switch op {
	case In, NotIn:
		if len(vals) == 0 {
			errs = append(errs, apierrors.Invalid("values", vals, "for 'in', 'notin' operators, values set can't be empty"))
		}
	case Equals, DoubleEquals, NotEquals:
		if len(vals) != 1 {
			errs = append(errs, apierrors.Invalid("values", vals, "exact-match compatibility requires one single value"))
		}
	case Exists, DoesNotExist:
		if len(vals) != 0 {
			errs = append(errs, apierrors.Invalid("values", vals, "values set must be empty for exists and does not exist"))
		}
	case GreaterThan, LessThan:
		if len(vals) != 1 {
			errs = append(errs, apierrors.Invalid("values", vals, "for 'Gt', 'Lt' operators, exactly one value is required"))
		}
		for i, v := range vals {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				errs = append(errs, apierrors.Invalid("values["+strconv.Itoa(i)+"]", v, "for 'Gt', 'Lt' operators, the value must be an integer"))
			}
		}
	default:
		errs = append(errs, apierrors.NotSupported("operator", op,
			[]string{string(Equals), string(DoubleEquals), string(NotEquals), string(In), string(NotIn),
				string(Exists), string(DoesNotExist), string(GreaterThan), string(LessThan)}))
	}
	for i, v := range vals {
		if msgs := validation.IsValidLabelValue(v); len(msgs) != 0 {
			errs = append(errs, apierrors.Invalid("values["+strconv.Itoa(i)+"]["+key+"]", v, strings.Join(msgs, "; ")))
		}
	}
	if len(errs) != 0 {
		return nil, errs
	}
	return &Requirement{key: key, operator: op, values: slices.Clone(vals)}, nil
}

// Key returns the label key.
func (r Requirement) Key() string { return r.key }

// Operator returns the operator.
func (r Requirement) Operator() Operator { return r.operator }

// Values returns a copy of the values, sorted.
func (r Requirement) Values() []string {
	v := slices.Clone(r.values)
	slices.Sort(v)
	return v
}

// Matches reports whether ls satisfies the requirement. A missing label
// satisfies NotIn, != and DoesNotExist only; gt and lt need a label whose
// value is an integer.
func (r Requirement) Matches(ls Set) bool {
	v, has := ls[r.key]
	switch r.operator {
	case In, Equals, DoubleEquals:
		return has && slices.Contains(r.values, v)
	case NotIn, NotEquals:
		return !has || !slices.Contains(r.values, v)
	case Exists:
		return has
	case DoesNotExist:
		return !has
	case GreaterThan, LessThan:
		if !has || len(r.values) != 1 {
			return false
		}
		got, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		want, err := strconv.ParseInt(r.values[0], 10, 64)
		if err != nil {
			return false
		}
		return (r.operator == GreaterThan && got > want) || (r.operator == LessThan && got < want)
	}
	return false
}

// String is the requirement in selector syntax with sorted values:
// "a=b", "a!=b", "a in (x,y)", "a notin (x)", "a", "!a", "a>1".
func (r Requirement) String() string {
	var b strings.Builder
	if r.operator == DoesNotExist {
		b.WriteString("!")
	}
	b.WriteString(r.key)
	switch r.operator {
	case Exists, DoesNotExist:
		return b.String()
	case Equals:
		b.WriteString("=")
	case DoubleEquals:
		b.WriteString("==")
	case NotEquals:
		b.WriteString("!=")
	case In:
		b.WriteString(" in (")
	case NotIn:
		b.WriteString(" notin (")
	case GreaterThan:
		b.WriteString(">")
	case LessThan:
		b.WriteString("<")
	}
	b.WriteString(strings.Join(r.Values(), ","))
	if r.operator == In || r.operator == NotIn {
		b.WriteString(")")
	}
	return b.String()
}

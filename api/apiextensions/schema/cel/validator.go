package cel

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/apiextensions/schema"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// Validator evaluates the rules of a schema and of every node below it.
// It is built once per schema and safe for concurrent use.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel (Validator).
type Validator struct {
	items                *Validator
	properties           map[string]*Validator
	additionalProperties *Validator

	schema         *schema.Structural
	rules          []apiextensionsv1.ValidationRule
	compiled       []CompilationResult
	compileErr     error
	isResourceRoot bool
	usesOldSelf    bool
}

// NewValidator compiles the rules of s and below it. It returns nil when
// there are none. isResourceRoot is set for the schema of a whole custom
// resource; perCallLimit is normally PerCallLimit.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel (NewValidator).
func NewValidator(s *schema.Structural, isResourceRoot bool, perCallLimit uint64) *Validator {
	if !hasValidations(s) {
		return nil
	}
	return newValidator(s, isResourceRoot, perCallLimit)
}

func newValidator(s *schema.Structural, isResourceRoot bool, perCallLimit uint64) *Validator {
	v := &Validator{schema: s, rules: s.XValidations, isResourceRoot: isResourceRoot}
	v.compiled, v.compileErr = Compile(s, isResourceRoot, perCallLimit)
	for _, c := range v.compiled {
		v.usesOldSelf = v.usesOldSelf || c.UsesOldSelf
	}
	if s.Items != nil && hasValidations(s.Items) {
		v.items = newValidator(s.Items, s.Items.XEmbeddedResource, perCallLimit)
	}
	for k := range s.Properties {
		p := s.Properties[k]
		if hasValidations(&p) {
			if v.properties == nil {
				v.properties = map[string]*Validator{}
			}
			v.properties[k] = newValidator(&p, p.XEmbeddedResource, perCallLimit)
		}
	}
	if s.AdditionalProperties != nil && hasValidations(s.AdditionalProperties.Structural) {
		ap := s.AdditionalProperties.Structural
		v.additionalProperties = newValidator(ap, ap.XEmbeddedResource, perCallLimit)
	}
	return v
}

func hasValidations(s *schema.Structural) bool {
	if s == nil {
		return false
	}
	if len(s.XValidations) > 0 || hasValidations(s.Items) {
		return true
	}
	if s.AdditionalProperties != nil && hasValidations(s.AdditionalProperties.Structural) {
		return true
	}
	for k := range s.Properties {
		p := s.Properties[k]
		if hasValidations(&p) {
			return true
		}
	}
	return false
}

// Validate evaluates the rules against obj (and, for transition rules,
// oldObj, nil on create), and returns the failures under fldPath ("" for
// a whole object) with what remains of costBudget (normally
// RuntimeCELCostBudget). Once the budget is spent, a negative remainder
// and an error say so and no further rules run. ctx cancels evaluation.
// A nil Validator accepts everything.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel (Validator.Validate).
func (v *Validator) Validate(ctx context.Context, fldPath string, obj, oldObj any, costBudget int64) (apierrors.FieldErrors, int64) {
	return v.validate(ctx, fldPath, obj, oldObj, costBudget)
}

func (v *Validator) validate(ctx context.Context, fldPath string, obj, oldObj any, budget int64) (apierrors.FieldErrors, int64) {
	if v == nil || obj == nil {
		return nil, budget
	}
	errs, budget := v.validateExpressions(ctx, fldPath, obj, oldObj, budget)
	if budget < 0 {
		return errs, budget
	}
	switch obj := obj.(type) {
	case []any:
		if v.items == nil {
			return errs, budget
		}
		oldList, _ := oldObj.([]any)
		old := newMapList(v.schema, oldList)
		for i := range obj {
			var e apierrors.FieldErrors
			e, budget = v.items.validate(ctx, indexPath(fldPath, i), obj[i], old.get(obj[i]), budget)
			errs = append(errs, e...)
			if budget < 0 {
				return errs, budget
			}
		}
	case map[string]any:
		oldMap, _ := oldObj.(map[string]any)
		for _, k := range sortedKeys(obj) {
			var sub *Validator
			var p string
			if pv, ok := v.properties[k]; ok {
				sub, p = pv, childPath(fldPath, k)
			} else if _, known := v.schema.Properties[k]; !known && v.additionalProperties != nil {
				sub, p = v.additionalProperties, keyPath(fldPath, k)
			}
			if sub == nil {
				continue
			}
			var e apierrors.FieldErrors
			e, budget = sub.validate(ctx, p, obj[k], oldMap[k], budget)
			errs = append(errs, e...)
			if budget < 0 {
				return errs, budget
			}
		}
	}
	return errs, budget
}

func (v *Validator) validateExpressions(ctx context.Context, fldPath string, obj, oldObj any, budget int64) (apierrors.FieldErrors, int64) {
	sts := v.schema
	if oldObj != nil {
		if rv := reflect.ValueOf(oldObj); (rv.Kind() == reflect.Map || rv.Kind() == reflect.Slice) && rv.IsNil() {
			oldObj = nil
		}
	}
	if v.compileErr != nil {
		return apierrors.FieldErrors{invalid(fldPath, sts.Type, fmt.Sprintf("rule compiler initialization error: %v", v.compileErr))}, budget
	}
	if len(v.compiled) == 0 {
		return nil, budget
	}
	if budget <= 0 {
		return apierrors.FieldErrors{invalid(fldPath, sts.Type, "validation failed due to running out of cost budget, no further validation rules will be run")}, -1
	}
	if v.isResourceRoot {
		sts = withTypeAndObjectMeta(sts)
	}
	act := &activation{self: toVal(obj, sts)}
	optionalAct := &activation{self: act.self, hasOldSelf: true, oldSelf: types.OptionalNone}
	if oldObj != nil && v.usesOldSelf {
		act.oldSelf, act.hasOldSelf = toVal(oldObj, sts), true
		optionalAct.oldSelf = types.OptionalOf(act.oldSelf)
	}
	var errs apierrors.FieldErrors
	for i, compiled := range v.compiled {
		rule := v.rules[i]
		if compiled.Error != nil {
			errs = append(errs, invalid(fldPath, sts.Type, fmt.Sprintf("rule compile error: %v", compiled.Error)))
			continue
		}
		if compiled.Program == nil {
			continue
		}
		optionalOldSelf := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		if compiled.UsesOldSelf && oldObj == nil && !optionalOldSelf {
			// A transition rule only runs on update, where the old value
			// exists.
			continue
		}
		ruleAct := act
		if optionalOldSelf {
			ruleAct = optionalAct
		}
		result, details, err := compiled.Program.ContextEval(ctx, ruleAct)
		cost := actualCost(details)
		if cost < 0 {
			return append(errs, invalid(fldPath, sts.Type, fmt.Sprintf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleErrorString(rule)))), -1
		}
		if cost > budget {
			return append(errs, invalid(fldPath, sts.Type, "validation failed due to running out of cost budget, no further validation rules will be run")), -1
		}
		budget -= cost
		if err != nil {
			switch msg := err.Error(); {
			case strings.HasPrefix(msg, "no such overload"):
				errs = append(errs, invalid(fldPath, sts.Type, fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", err, ruleErrorString(rule))))
			case strings.HasPrefix(msg, "operation cancelled: actual cost limit exceeded"):
				return append(errs, invalid(fldPath, sts.Type, fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", err, ruleErrorString(rule)))), -1
			default:
				errs = append(errs, invalid(fldPath, sts.Type, fmt.Sprintf("%v evaluating rule: %v", err, ruleErrorString(rule))))
			}
			continue
		}
		if result == types.True {
			continue
		}
		p := fldPath
		if compiled.NormalizedRuleFieldPath != "" {
			p = childPath(fldPath, compiled.NormalizedRuleFieldPath)
		}
		detail, ok := "", false
		if compiled.MessageExpression != nil {
			msg, remaining, msgErr := evalMessageExpression(ctx, compiled.MessageExpression, rule.MessageExpression, act, budget)
			switch {
			case msgErr == nil:
				detail, ok, budget = msg, true, remaining
			case msgErr.Type == ErrorTypeInternal || msgErr.Type == ErrorTypeInvalid:
				return append(errs, invalid(p, sts.Type, msgErr.Error())), -1
			default:
				// The message expression failed: the rule's message is
				// reported instead, as upstream does.
				budget = remaining
			}
		}
		if !ok {
			detail = ruleMessageOrDefault(rule)
		}
		// Upstream omits the value of objects and arrays from the
		// message.
		value := obj
		if sts.Type == "object" || sts.Type == "array" {
			value = apierrors.OmitValue
		}
		errs = append(errs, fieldErrorForReason(p, value, detail, rule.Reason))
	}
	return errs, budget
}

// actualCost is the cost an evaluation reports, or -1.
func actualCost(details *cel.EvalDetails) int64 {
	if details == nil || details.ActualCost() == nil {
		return -1
	}
	c := *details.ActualCost()
	if c > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(c)
}

// evalMessageExpression evaluates a message expression; an error of type
// "" means it failed and the rule's message stands in.
func evalMessageExpression(ctx context.Context, prog cel.Program, src string, act interpreter.Activation, budget int64) (string, int64, *Error) {
	result, details, err := prog.ContextEval(ctx, act)
	cost := actualCost(details)
	if cost < 0 {
		return "", -1, &Error{Type: ErrorTypeInternal, Detail: fmt.Sprintf("runtime cost could not be calculated for messageExpression: %q", src)}
	}
	if cost > budget {
		return "", -1, &Error{Type: ErrorTypeInvalid, Detail: "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"}
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			return "", -1, &Error{Type: ErrorTypeInvalid, Detail: fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", src)}
		}
		return "", budget - cost, &Error{Detail: fmt.Sprintf("messageExpression evaluation failed due to: %v", err.Error())}
	}
	msg, ok := result.Value().(string)
	if !ok {
		return "", budget - cost, &Error{Detail: "messageExpression failed to convert to string"}
	}
	msg = strings.TrimSpace(msg)
	switch {
	case len(msg) > maxEvaluatedMessageExpressionSizeBytes:
		return "", budget - cost, &Error{Detail: fmt.Sprintf("messageExpression beyond allowable length of %d", maxEvaluatedMessageExpressionSizeBytes)}
	case newlineMatcher.MatchString(msg):
		return "", budget - cost, &Error{Detail: "messageExpression should not contain line breaks"}
	case msg == "":
		return "", budget - cost, &Error{Detail: "messageExpression should evaluate to a non-empty string"}
	}
	return msg, budget - cost, nil
}

var newlineMatcher = regexp.MustCompile(`[\n]+`)

func ruleMessageOrDefault(rule apiextensionsv1.ValidationRule) string {
	if rule.Message == "" {
		return "failed rule: " + ruleErrorString(rule)
	}
	return strings.TrimSpace(rule.Message)
}

func ruleErrorString(rule apiextensionsv1.ValidationRule) string {
	if rule.Message != "" {
		return strings.TrimSpace(rule.Message)
	}
	return strings.TrimSpace(rule.Rule)
}

// activation binds self and oldSelf.
type activation struct {
	self, oldSelf ref.Val
	hasOldSelf    bool
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case ScopedVarName:
		return a.self, true
	case OldScopedVarName:
		return a.oldSelf, a.hasOldSelf
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

func fieldErrorForReason(p string, value any, detail string, reason *apiextensionsv1.FieldValueErrorReason) *apierrors.FieldError {
	if reason != nil {
		switch *reason {
		case apiextensionsv1.FieldValueForbidden:
			return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueForbidden, Field: pathString(p), Detail: detail}
		case apiextensionsv1.FieldValueRequired:
			return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueRequired, Field: pathString(p), Detail: detail}
		case apiextensionsv1.FieldValueDuplicate:
			return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueDuplicate, Field: pathString(p), BadValue: value}
		}
	}
	return invalid(p, value, detail)
}

func invalid(p string, value any, detail string) *apierrors.FieldError {
	return &apierrors.FieldError{Type: metav1.CauseTypeFieldValueInvalid, Field: pathString(p), BadValue: value, Detail: detail}
}

// Field paths as upstream's field.Path prints them; "" is the root,
// printed "<nil>".
func pathString(p string) string {
	if p == "" {
		return "<nil>"
	}
	return p
}

func childPath(p, name string) string {
	if p == "" {
		return name
	}
	return p + "." + name
}

func keyPath(p, k string) string { return p + "[" + k + "]" }

func indexPath(p string, i int) string { return p + "[" + strconv.Itoa(i) + "]" }

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slicesSort(keys)
	return keys
}

package cel

import (
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	"github.com/minicp/minicp/api/apiextensions/schema"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// The cost limits of CEL rules, as upstream sets them.
//
// Upstream: k8s.io/apiserver/pkg/apis/cel (config.go).
const (
	// PerCallLimit bounds the runtime cost of one evaluation of one rule
	// or message expression: about a millisecond of CPU.
	PerCallLimit = 1000000
	// RuntimeCELCostBudget bounds the summed runtime cost of all rules of
	// one object: about 10 milliseconds of CPU per request.
	RuntimeCELCostBudget = 10000000
	// checkFrequency is how many comprehension steps run between checks
	// of the context and the cost limit.
	checkFrequency = 100
	// maxEvaluatedMessageExpressionSizeBytes bounds a message expression's result.
	maxEvaluatedMessageExpressionSizeBytes = 5 * 1024
)

// The variable names of a rule.
const (
	ScopedVarName    = "self"
	OldScopedVarName = "oldSelf"
)

// ErrorType classifies a compilation error: Invalid for a bad rule,
// Internal for a failure of the machinery.
type ErrorType string

// The error types.
const (
	ErrorTypeInvalid  ErrorType = "Invalid"
	ErrorTypeInternal ErrorType = "Internal"
)

// Error is a compilation error of one rule or message expression.
type Error struct {
	Type   ErrorType
	Detail string
}

func (e *Error) Error() string { return e.Detail }

// CompilationResult is one compiled rule. Program is nil when the rule
// did not compile (Error says why) or is empty.
type CompilationResult struct {
	Program cel.Program
	Error   *Error
	// UsesOldSelf makes the rule a transition rule.
	UsesOldSelf bool
	// MessageExpression is nil when there is none or it did not compile
	// (MessageExpressionError says why).
	MessageExpression      cel.Program
	MessageExpressionError *Error
	// NormalizedRuleFieldPath is the rule's fieldPath as a field path
	// ("spec.replicas"), "" for the node itself.
	NormalizedRuleFieldPath string
}

// envOptions is the environment of CRD validation rules.
//
// Upstream: k8s.io/apiserver/pkg/cel/environment (base.go), at compatibility version 1.36.
func envOptions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		regexLibrary(),
		listsLibrary(),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		cel.ASTValidators(
			cel.ValidateDurationLiterals(),
			cel.ValidateTimestampLiterals(),
			cel.ValidateRegexLiterals(),
			cel.ValidateHomogeneousAggregateLiterals(),
		),
		ext.Strings(ext.StringsVersion(2)),
		ext.Sets(),
		ext.TwoVarComprehensions(),
		ext.Lists(ext.ListsVersion(3)),
	}
}

// programOptions limit each evaluation to perCallLimit and track its cost.
func programOptions(perCallLimit uint64) []cel.ProgramOption {
	return []cel.ProgramOption{
		cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost),
		cel.CostLimit(perCallLimit),
		cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
		cel.InterruptCheckFrequency(checkFrequency),
	}
}

// newEnvs returns the environments of a node's rules: self and oldSelf of
// the node's type, and one where oldSelf is optional.
func newEnvs(d *declType, registry map[string]*declType) (env, optionalEnv *cel.Env, err error) {
	base := append(envOptions(), withDeclTypes(registry))
	env, err = cel.NewEnv(append(base,
		cel.Variable(ScopedVarName, d.celType),
		cel.Variable(OldScopedVarName, d.celType))...)
	if err != nil {
		return nil, nil, err
	}
	optionalEnv, err = cel.NewEnv(append(base,
		cel.Variable(ScopedVarName, d.celType),
		cel.Variable(OldScopedVarName, types.NewOptionalType(d.celType)))...)
	return env, optionalEnv, err
}

// Compile compiles the rules of the node s (not of the nodes below it).
// isResourceRoot gives the node apiVersion, kind and metadata, as the
// root of a custom resource and embedded resources have. The error is
// for a node CEL cannot type, or a broken environment; errors of single
// rules are in the results.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel (Compile).
func Compile(s *schema.Structural, isResourceRoot bool, perCallLimit uint64) ([]CompilationResult, error) {
	if len(s.XValidations) == 0 {
		return nil, nil
	}
	registry := map[string]*declType{}
	d := newDeclType(s, isResourceRoot, "selfType", registry)
	if d == nil {
		return nil, errFailedDeclType
	}
	env, optionalEnv, err := newEnvs(d, registry)
	if err != nil {
		return nil, err
	}
	results := make([]CompilationResult, len(s.XValidations))
	for i, rule := range s.XValidations {
		e := env
		if rule.OptionalOldSelf != nil && *rule.OptionalOldSelf {
			e = optionalEnv
		}
		results[i] = compileRule(s, rule, e, perCallLimit)
	}
	return results, nil
}

var errFailedDeclType = &Error{Type: ErrorTypeInternal, Detail: "failed to convert to declType for CEL validation rules"}

func compileRule(s *schema.Structural, rule apiextensionsv1.ValidationRule, env *cel.Env, perCallLimit uint64) (res CompilationResult) {
	if strings.TrimSpace(rule.Rule) == "" {
		return res
	}
	ast, issues := env.Compile(rule.Rule)
	if issues != nil && issues.Err() != nil {
		res.Error = &Error{Type: ErrorTypeInvalid, Detail: "compilation failed: " + issues.String()}
		return res
	}
	if ast.OutputType() != cel.BoolType {
		res.Error = &Error{Type: ErrorTypeInvalid, Detail: "cel expression must evaluate to a bool"}
		return res
	}
	for _, ref := range ast.NativeRep().ReferenceMap() {
		if ref.Name == OldScopedVarName {
			res.UsesOldSelf = true
			break
		}
	}
	prog, err := env.Program(ast, programOptions(perCallLimit)...)
	if err != nil {
		res.Error = &Error{Type: ErrorTypeInvalid, Detail: "program instantiation failed: " + err.Error()}
		return res
	}
	res.Program = prog
	if rule.MessageExpression != "" {
		ast, issues := env.Compile(rule.MessageExpression)
		switch {
		case issues != nil && issues.Err() != nil:
			res.MessageExpressionError = &Error{Type: ErrorTypeInvalid, Detail: "messageExpression compilation failed: " + issues.String()}
		case ast.OutputType() != cel.StringType:
			res.MessageExpressionError = &Error{Type: ErrorTypeInvalid, Detail: "messageExpression must evaluate to a string"}
		default:
			msgProg, err := env.Program(ast, programOptions(perCallLimit)...)
			if err != nil {
				res.MessageExpressionError = &Error{Type: ErrorTypeInvalid, Detail: "messageExpression instantiation failed: " + err.Error()}
			} else {
				res.MessageExpression = msgProg
			}
		}
	}
	if rule.FieldPath != "" {
		if p, _, err := schema.ValidFieldPath(rule.FieldPath, s, true); err == nil {
			res.NormalizedRuleFieldPath = p
		}
	}
	return res
}

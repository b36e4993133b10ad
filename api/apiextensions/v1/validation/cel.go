package validation

import (
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/apiextensions/schema"
	"github.com/minicp/minicp/api/apiextensions/schema/cel"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// compileRules compiles the CEL rules of one node and reports what does
// not compile, message expressions that do not, oldSelf where old values
// cannot be matched, and optionalOldSelf on rules without oldSelf. The
// estimated cost is not checked.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation
// (the CEL part of ValidateCustomResourceDefinitionOpenAPISchema).
func compileRules(s *apiextensionsv1.JSONSchemaProps, fldPath path, ssv schemaValidator, scope celScope) apierrors.FieldErrors {
	rulesPath := fldPath.child("x-kubernetes-validations")
	ss, err := schema.NewStructural(s)
	if err != nil {
		return apierrors.FieldErrors{internalError(rulesPath, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err))}
	}
	results, err := cel.Compile(ss, scope.isResourceRoot, cel.PerCallLimit)
	if err != nil {
		return apierrors.FieldErrors{internalError(rulesPath, err)}
	}
	rules := toInternalSchema(s).XValidations
	var all apierrors.FieldErrors
	for i, r := range results {
		p := rulesPath.index(i)
		if r.Error != nil {
			all = append(all, invalid(p.child("rule"), rules[i], r.Error.Detail))
		}
		if r.MessageExpressionError != nil {
			all = append(all, invalid(p.child("messageExpression"), rules[i], r.MessageExpressionError.Detail))
		}
		if r.UsesOldSelf {
			if ssv.uncorrelatable != "" {
				all = append(all, invalid(p.child("rule"), s.XValidations[i].Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", ssv.uncorrelatable)))
			}
		} else if s.XValidations[i].OptionalOldSelf != nil {
			all = append(all, invalid(p.child("optionalOldSelf"), *s.XValidations[i].OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
	return all
}

// internalError is upstream's field.InternalError.
func internalError(p path, err error) *apierrors.FieldError {
	return &apierrors.FieldError{Type: "InternalError", Field: p.String(), Detail: err.Error()}
}

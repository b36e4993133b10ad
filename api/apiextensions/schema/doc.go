// Package schema is the structural-schema engine of custom resources: it
// turns the OpenAPI v3 schema of a CustomResourceDefinition version
// (apiextensionsv1.JSONSchemaProps) into a Structural schema and, with it,
// validates, defaults and prunes custom resources given as decoded JSON.
//
// Values are what encoding/json decodes into any, with numbers as the API
// server decodes them: a number literal that parses as an int64 is an
// int64, any other number a float64 (so 1 is int64(1), 1.0 and 1e3 are
// float64). Objects are map[string]any, arrays []any, plus string, bool
// and nil. Other Go integer and float kinds are accepted too.
//
// The API server uses it in this order for every version of a CRD:
//
//  1. s, err := NewStructural(version.Schema.OpenAPIV3Schema), then
//     PruneDefaults(s): once per CRD version, when the CRD is installed.
//  2. When decoding a request body or reading from storage:
//     Prune(obj, s, true) (its result are the 'unknown field' warnings),
//     PruneNonNullableNullsWithoutDefaults(obj, s), Coerce(obj, s, false,
//     dropInvalid), then Default(obj, s).
//  3. On create and update: Validate(s, obj, "") (and, for the status
//     subresource, Validate(&statusSchema, obj["status"], "status")); then,
//     unless cel.BlockingError(errs) says the object is too broken, the
//     CEL rules with a cel.Validator built once per version
//     (api/apiextensions/schema/cel).
//
// The CRD's own validation (api/apiextensions/v1/validation) uses
// ValidateStructural and ValidateDefaults to reject schemas that are not
// structural or whose defaults are invalid.
//
// Error wording and field paths are upstream's, including its quirks (an
// anyOf failure is reported at the path "<nil>", map keys are joined with
// dots): the compat/apiextensions module runs the same tables through
// upstream and compares.
//
// On the request path of a custom resource, pruning and defaulting run
// when the body is decoded, and validation after mutating admission and
// before validating admission.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema (and its
// defaulting, pruning, objectmeta and listtype packages),
// k8s.io/apiextensions-apiserver/pkg/apiserver/validation and
// k8s.io/kube-openapi/pkg/validation/validate.
package schema

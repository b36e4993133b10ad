// Package validation checks CustomResourceDefinitions the way the API
// server does before it persists them: names, group, scope, versions,
// schemas (which must be structural, with valid and pruned defaults),
// subresources, printer columns, selectable fields, conversion and the
// stored versions. Problems are apierrors.FieldErrors with upstream's
// field paths and wording.
//
// Like upstream, it reports problems as the internal form of a CRD has
// them: when every version has the same schema (and so a CRD with one
// version), the schema is validated once, at spec.validation.openAPIV3Schema,
// and likewise identical subresources at spec.subresources, columns at
// spec.additionalPrinterColumns and selectable fields at
// spec.selectableFields; the webhook settings are at
// spec.conversion.webhookClientConfig and
// spec.conversion.conversionReviewVersions. These are the paths kubectl
// shows for an invalid CRD.
//
// It is its own package because it uses the schema engine
// (api/apiextensions/schema), which imports the CRD types. The CEL rules
// of x-kubernetes-validations are checked for their shape and compiled
// (api/apiextensions/schema/cel); their estimated cost is not checked.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation.
package validation

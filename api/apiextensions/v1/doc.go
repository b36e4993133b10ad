// Package v1 holds the apiextensions.k8s.io/v1 kinds: the
// CustomResourceDefinition, which adds a resource to the API server at run
// time, its list, the OpenAPI v3 subset (JSONSchemaProps) a CRD describes
// its custom resources with, its defaults (SetDefaults), its registration
// (AddToScheme) and its validation (ValidateCustomResourceDefinition and
// ValidateCustomResourceDefinitionUpdate).
//
// Import it as apiextensionsv1. Field names, JSON spellings and protobuf
// field numbers match k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1,
// and so do the JSON tags word for word: a CRD decoded and encoded again
// gives the bytes upstream gives (compat/apiextensions checks this), which
// is why some struct fields say omitempty where it has no effect.
//
// The schema engine that validates, defaults and prunes custom resources
// against a CRD's schema lives in api/apiextensions/schema; this package
// is only the API. A CRD adds a kind of one's own to the API: the API
// server stores and serves its objects as it does built-in ones, and an
// operator's controller acts on them.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.
package v1

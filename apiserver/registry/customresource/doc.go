// Package customresource is the registry strategy of custom resources:
// the objects of the kinds CustomResourceDefinitions install at run time.
// Each served version of a CRD gets a Strategy built from that version's
// schema and subresources; the API server serves it with the same
// registry store, watch cache and handlers as a built-in kind.
//
// On the request path it sits where a built-in kind's strategy does:
// after decoding (where the schema's pruning and defaulting ran) and
// mutating admission, it checks the object's metadata and validates it
// against the structural schema, before validating admission and etcd.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresource.
package customresource

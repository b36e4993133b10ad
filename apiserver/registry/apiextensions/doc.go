// Package apiextensions is the registry strategy of
// CustomResourceDefinitions: what a client may write to a CRD, its
// validation, and its deletion, which waits until every object of the
// resource it defines is gone.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition.
package apiextensions

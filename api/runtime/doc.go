// Package runtime holds what generic code needs to handle any kind: the
// Object interface, group/version/kind/resource names, the Scheme that maps
// a GroupVersionKind to its Go type and a GroupVersionResource to its
// ResourceInfo, deep copies, and the codecs: JSON, YAML, and Kubernetes
// protobuf (the k8s\x00 envelope around messages laid out by the types'
// protobuf tags).
//
// The terms: a kind is a Go type, a resource is a set of HTTP paths, and
// the Scheme keeps track of which Go type corresponds to a given GVK.
// Routing and discovery in the API server both read the resources
// registered here, so the two never disagree.
package runtime

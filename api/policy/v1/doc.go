// Package v1 holds the policy/v1 kinds: the PodDisruptionBudget, which
// bounds how many of an application's pods voluntary disruptions (a node
// drain, an eviction) may take down at once, and the Eviction, the body a
// client POSTs to pods/{name}/eviction to ask for a pod to be deleted
// within those bounds. Their types, registration (AddToScheme) and the
// DisruptionAllowed condition.
//
// Import it as policyv1. Field names, JSON spellings and protobuf field
// numbers match upstream. The Eviction of policy/v1beta1 has the same
// shape: the API server accepts either spelling of it.
//
// Upstream: k8s.io/api/policy/v1.
package v1

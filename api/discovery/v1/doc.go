// Package v1 holds the discovery.k8s.io/v1 kinds: the EndpointSlice,
// which lists some of the network endpoints behind a Service (at most a
// hundred, as the EndpointSlice controller writes them) with their
// readiness, node and pod. kube-proxy and cluster DNS read slices rather
// than Endpoints: a change to one pod rewrites one small slice, not one
// object holding every address of the Service.
//
// Import it as discoveryv1. Field names, JSON spellings and protobuf
// field numbers match k8s.io/api/discovery/v1.
//
// Upstream: k8s.io/api/discovery/v1.
package v1

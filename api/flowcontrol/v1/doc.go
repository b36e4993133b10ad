// Package v1 holds the flowcontrol.apiserver.k8s.io/v1 kinds of API
// Priority and Fairness: FlowSchemas, which sort requests into flows by
// who asks and for what, and PriorityLevelConfigurations, which give each
// level its share of the API server's concurrency and say whether the
// requests that find no free seat queue or are rejected. It also holds
// the configuration every cluster starts with (bootstrap.go).
//
// Import it as flowcontrolv1. Field names, JSON spellings and protobuf
// field numbers match upstream.
//
// Upstream: k8s.io/api/flowcontrol/v1 and
// k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap.
package v1

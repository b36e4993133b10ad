// Package flowcontrol holds the rules of the flowcontrol.apiserver.k8s.io
// resources, flowschemas and prioritylevelconfigurations: spec and
// status are written apart (the API server's flow control configuration
// controller writes status), both count generations, and kubectl gets
// them as upstream's printers print them.
//
// Upstream: k8s.io/kubernetes/pkg/registry/flowcontrol.
package flowcontrol

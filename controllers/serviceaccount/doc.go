// Package serviceaccount is the ServiceAccount controller: it makes sure
// every active namespace has the service accounts pods run as by default,
// "default" (the one a pod without spec.serviceAccountName gets). It
// creates it when a namespace appears and again when someone deletes it,
// and leaves Terminating namespaces alone: nothing new may be created in
// them, and their content is the namespace controller's to delete.
//
// It watches namespaces (each change enqueues the namespace) and service
// accounts (a deletion enqueues its namespace), reads both through the
// Manager's cache, and writes only creates through the API server.
//
// Upstream's controller-manager pairs a service account controller with
// a token controller; this is the service account half (minicp issues no
// token secrets).
//
// Upstream: k8s.io/kubernetes/pkg/controller/serviceaccount
// (serviceaccounts_controller.go).
package serviceaccount

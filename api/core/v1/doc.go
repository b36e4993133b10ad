// Package v1 holds the kinds of the core API group, version v1: Namespace,
// Pod, Node, Binding, Event, Service, Endpoints, ConfigMap, Secret and
// ServiceAccount, with their lists, the constants they use, their defaults
// (SetDefaults) and their registration (AddToScheme).
//
// Import it as corev1. Field names and JSON spellings match
// k8s.io/api/core/v1, so a manifest written for a real cluster decodes here
// without unknown fields, and kubectl and client-go read what minicp
// writes. Fields are a subset of upstream's: the ones the minicp control
// plane uses, and the ones real manifests, kubectl and kubelets commonly
// send. The json tags are upstream's, word for word, and the fields are in
// upstream's order, so an object encodes to the bytes kube-apiserver
// writes, empty structs ("status": {}, "resources": {}) and null times
// included; compat/wire checks it.
//
// Kinds are Go types, persisted as objects and listed as lists, served by
// resources registered in the Scheme. A Pod's life crosses most of them:
// kubectl creates it through the API server, the scheduler binds it to a
// Node (Binding), the kubelet reports its PodStatus, and Events record
// each step.
//
// Upstream: k8s.io/api/core/v1.
package v1

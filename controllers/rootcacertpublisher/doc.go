// Package rootcacertpublisher is the root CA certificate publisher: it
// keeps a ConfigMap named kube-root-ca.crt in every namespace whose
// ca.crt is the CA bundle that verifies the API server, so that a pod
// can trust https://kubernetes.default.svc (the ServiceAccount admission
// plugin mounts it into every pod's kube-api-access volume).
//
// It watches namespaces (a new or changed namespace is enqueued) and
// ConfigMaps (a change to or deletion of a kube-root-ca.crt enqueues its
// namespace), reads both through the Manager's cache, and creates or
// updates the ConfigMap through the API server, putting back what
// someone changed or deleted.
//
// Upstream: k8s.io/kubernetes/pkg/controller/certificates/rootcacertpublisher.
package rootcacertpublisher

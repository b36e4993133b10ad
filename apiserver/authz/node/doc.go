// Package node is the Node authorizer: what a kubelet, authenticated as
// system:node:<name> in system:nodes, may do. It sits on the
// authorization hop beside RBAC (kube-apiserver's usual
// --authorization-mode=Node,RBAC) and subdivides by node what the
// system:node rules grant every node alike: a node reads only the
// Secrets, ConfigMaps, PersistentVolumeClaims and ServiceAccount tokens
// of the pods bound to it, its own Node and Lease, and lists only its own
// pods. What it may write (its own Node, its pods' status, mirror pods) is
// the NodeRestriction admission plugin's to check, since the authorizer
// does not see the object.
//
// The relations come from a Graph: the API server's pods watch cache,
// indexed by the objects each pod references (ReferenceKeys), so a
// decision is an index lookup, kept current by the cache's own watch.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/auth/authorizer/node.
package node

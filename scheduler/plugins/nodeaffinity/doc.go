// Package nodeaffinity is the NodeAffinity plugin: a pod fits only nodes
// that have every label of its spec.nodeSelector and match one of the terms
// of its required node affinity (Filter), and prefers nodes that match its
// preferred terms, by their weights (Score).
//
// A term is a list of requirements that must all hold:
// matchExpressions on the node's labels (In, NotIn, Exists, DoesNotExist,
// and Gt and Lt, which compare the label as an integer) and matchFields on
// its name (metadata.name In or NotIn one name). A term with no
// requirements matches no node.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity
// and k8s.io/component-helpers/scheduling/corev1/nodeaffinity.
package nodeaffinity

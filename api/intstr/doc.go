// Package intstr holds IntOrString, the field type that is either a number
// or a string on the wire: a container port given as 8080 or "http", a
// Deployment's maxSurge given as 1 or "25%".
//
// Upstream: k8s.io/apimachinery/pkg/util/intstr.
package intstr

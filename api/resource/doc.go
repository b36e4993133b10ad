// Package resource holds Quantity, the fixed-point number that resource
// amounts are written in: "100m" CPU, "128Mi" memory, "2" pods.
//
// A Quantity keeps its value as an int64 count of thousandths (milli-units)
// and the suffix family it was written in, so "1.5Gi" prints as "1536Mi" and
// "0.5" as "500m", as Kubernetes prints them. Upstream keeps arbitrary
// precision; minicp trades that for a plain int64, which bounds the range
// (see Quantity) and the precision (a thousandth of a unit).
//
// Upstream: k8s.io/apimachinery/pkg/api/resource.
package resource

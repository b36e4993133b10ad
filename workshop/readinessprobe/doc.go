// Package readinessprobe is the workshop's kubelet exercise: the check
// behind a container's readiness probe, which decides whether a pod is
// Ready and so whether Services send it traffic. The learner writes Check
// (check.go); see README.md.
package readinessprobe

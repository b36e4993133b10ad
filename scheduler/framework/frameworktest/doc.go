// Package frameworktest builds the pods and nodes of scheduler tests in
// one line each, with MakePod and MakeNode. Quantities are strings parsed
// with resource.MustParse, so a typo panics the test that made it.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/testing (MakePod, MakeNode).
package frameworktest

// Package suites runs controller-runtime's own test suites against minicp
// and counts their Ginkgo specs: the bar of the envtest drop-in (`make
// compat`, through cmd/crsuites).
//
// For each package it builds the test binary from the module cache with
// `go test -c` (nothing is copied from controller-runtime), counts the
// specs with a Ginkgo dry run, starts a minicp with no controllers (as
// envtest runs none) through minicpenv, writes its kubeconfig, and runs
// the binary in the package's directory with KUBECONFIG set and
// USE_EXISTING_CLUSTER=true: each suite's BeforeSuite starts an
// envtest.Environment, which then loads the kubeconfig (config.GetConfig)
// instead of starting kube-apiserver, and installs the suite's CRDs and
// webhooks into minicp over the wire. Ginkgo's JSON report
// (--ginkgo.json-report) gives the result of every spec.
package suites

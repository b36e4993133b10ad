// Package healthz serves a manager's health checks over HTTP, in the
// format kube-apiserver and kube-controller-manager use: /healthz (is the
// process alive and working) and /readyz (is it ready to do its job), each
// "ok" with 200, or the failed checks with 500; ?verbose lists every
// check. A prober (a kubelet's liveness and readiness probes, or a human
// with curl) reads them.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/healthz.
package healthz

// Package apiserver is minicp's kube-apiserver: the only component that
// talks to etcd, serving the Kubernetes REST API over HTTP.
//
// A request passes, in order:
//
//	panic recovery -> request info -> metrics -> authentication ->
//	audit -> impersonation -> authorization -> limits -> router -> decode ->
//	mutating admission -> schema validation -> validating admission -> etcd
//
// The filters live in apiserver/filters, the verbs in apiserver/handlers,
// per-resource rules and the storage-to-Status translation in
// apiserver/registry, admission plugins in apiserver/admission. This
// package wires them: routes, discovery (/api, /apis), /version, /healthz,
// /readyz, /livez, /metrics (apiserver/metrics), /debug/pprof, and the
// resources of the Scheme. Audit events go to an apiserver/audit Sink.
package apiserver

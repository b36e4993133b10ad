// Package tracing follows a request through the control plane as
// OpenTelemetry spans: the API server's filters, admission and etcd
// transaction, the watch cache's dispatch, each component's informer
// delivery, a controller's reconcile, the scheduler's decision and the
// kubelet's sync, and the writes these cause in turn.
//
// A Kubernetes request does not end when the API server answers: the
// write it made reaches the components through watches, and their
// reactions are new requests. A trace context travels with a request
// (in its context in process, in the traceparent header over HTTP), but
// not through a watch, so the API server records which span wrote each
// etcd revision (Revisions) and whoever receives the event at that
// revision links its span to the writer's. Following parents and links
// forward from one request gives the causal chain that Timeline prints.
//
// Spans are kept in memory by a Recorder, which feeds `minicp trace`,
// the examples and the web view. A nil *Tracing traces nothing at no
// cost, which is what a cluster does unless tracing is asked for.
package tracing

// Package audit holds the audit.k8s.io/v1 Event the API server records
// for every request, and the Sinks that receive them.
//
// The audit filter (apiserver/filters.WithAudit) sits after
// authentication on the request path, so it knows who asked; once the
// response is complete it builds one Event (level Metadata, stage
// ResponseComplete: who did what to which object, the response code and
// the timestamps) and hands it to the server's Sink. The API server never
// opens files: whoever configures it picks the Sink. NewLogSink writes a
// Debug record per Event to a logger (the default); NewWriterSink writes
// one JSON Event per line to an io.Writer, the format of kube-apiserver's
// --audit-log-path, which `minicp up --audit-log-path` opens for it.
//
// Upstream: k8s.io/apiserver/pkg/apis/audit/v1 (Event) and
// k8s.io/apiserver/pkg/audit (Sink).
package audit

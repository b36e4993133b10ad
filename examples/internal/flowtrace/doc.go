// Package flowtrace is what the flow examples (job-flow, deployment-flow)
// share to tell a flow from the cluster's traces: a Trace over the spans
// one request caused, in causal order (tracing.Timeline), with lookups by
// parent and by link, and Writes, the objects each traced etcd revision
// wrote, so a printer can say what a write changed (an exit code, a
// replica count) next to the span that made it.
//
// The spans say who did what because of what, and when; the objects say
// what was written. Neither comes from log records.
package flowtrace

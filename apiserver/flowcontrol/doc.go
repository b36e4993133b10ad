// Package flowcontrol is API Priority and Fairness: the dispatcher that
// decides, for every request that is not long-running, when it may run.
// It sits in the "limits" filter, after authentication and authorization
// and before the handler.
//
// Each request is classified by the FlowSchema with the lowest
// matchingPrecedence that matches it (match.go), which names a priority
// level and how to split its requests into flows (by user, by namespace,
// or one flow). Each level gets a share of the server's concurrency
// limit, nominalConcurrencyShares out of the sum over all levels. An
// exempt level runs its requests at once; a Reject level runs a request
// if a seat is free and rejects it (429) otherwise; a Queue level puts it
// in one of its queues, chosen by shuffle sharding from the flow's hand
// (shuffle.go), and dispatches queued requests with fair queuing across
// queues (queueset.go): a flow that sends many requests fills its own
// queues and waits, while other flows' requests still pass.
//
// The Controller holds the configuration (Update rebuilds it from the
// FlowSchemas and PriorityLevelConfigurations, which the API server's
// configuration controller reads from its watch caches) and dispatches
// (Handle).
//
// What is simpler than upstream, and why:
//   - Every request takes one seat (no work estimator): minicp's lists are
//     small.
//   - Fair queuing charges each request one unit of virtual time
//     (start-time fair queuing), instead of upstream's measured service
//     time: flows are served in turn, request by request.
//   - No borrowing between levels (lendablePercent and
//     borrowingLimitPercent are stored and validated, not used).
//   - Watches, like every long-running request, never take a seat
//     (upstream holds one while a watch initializes).
//
// Upstream: k8s.io/apiserver/pkg/util/flowcontrol (apf_controller.go,
// apf_filter.go, rule.go) and its fairqueuing/queueset and
// shufflesharding packages.
package flowcontrol

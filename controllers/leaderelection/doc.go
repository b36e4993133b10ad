// Package leaderelection makes one of several identical processes the
// leader, through a coordination.k8s.io/v1 Lease: the leader renews the
// Lease every RetryPeriod, and the others take it over once it expires.
// It is how two controller-managers on one cluster never act at once.
//
// The Lease's life, as each candidate sees it:
//
//	            empty or expired: update (or create) it,
//	            leaseTransitions+1 when the holder changes
//	candidate -------------------------------------------> leader
//	    ^     <--- held by another and not expired: retry  |  |
//	    |          every RetryPeriod (jittered)            |  | renew every RetryPeriod
//	    |                                                  |  |
//	    +-- released (holderIdentity "") or expired <------+  +--> renew failing for
//	        by the leader stopping                                 RenewDeadline: lost
//
// A Lease is expired when renewTime + leaseDurationSeconds is before now
// on the candidate's clock. Every write carries the resourceVersion read,
// so of two candidates racing for one Lease the API server lets exactly
// one win (409 Conflict for the other).
//
// Why it matters: once a cluster runs several control-plane processes on
// one etcd cluster, each with its controllers, exactly one copy of a
// controller may act, because controllers assume they are the only writer
// of what they manage.
//
// Upstream: k8s.io/client-go/tools/leaderelection (LeaderElector,
// LeaseLock).
package leaderelection

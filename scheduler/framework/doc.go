// Package framework is the scheduling framework: the plugin interfaces
// (PreFilter, Filter, PreScore, Score with NormalizeScore), the per-cycle
// state plugins share (CycleState), the result type every plugin returns
// (Status), the scheduler's view of a node (NodeInfo: the node plus the pods
// assigned or assumed on it, with their requests summed), and the runner
// that drives one scheduling cycle over a set of nodes (Framework).
//
// It sits between the scheduling queue and the binding loop:
//
//	queue -> Framework.SchedulePod:
//	           PreFilter -> Filter (each node)      "predicates"
//	           PreScore -> Score (each feasible node)
//	             -> NormalizeScore -> x weight      "priorities"
//	           -> SelectHost
//	      -> bind (pods/binding)
//
// When no node fits, SchedulePod returns a *FitError whose Error() is the
// message of the FailedScheduling event, word for word as upstream builds
// it: "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had
// untolerated taint {dedicated: gpu}. preemption: ...".
//
// The package owns no goroutine beyond one call: Filter and Score fan out
// over nodes on up to Options.Parallelism goroutines, and every call waits
// for its goroutines before it returns. Results never depend on that
// fan-out: feasible nodes keep their input order and ties are broken only
// by the caller's *rand.Rand.
//
// Filter plugins are what the scheduler once called predicates, and Score
// plugins what it called priorities; the plugins themselves live in
// scheduler/plugins and the configuration file (the modern form of the
// old --policy-config-file) in scheduler/config.
//
// Upstream: k8s.io/kube-scheduler/framework (interfaces),
// k8s.io/kubernetes/pkg/scheduler/framework (NodeInfo, runtime) and
// pkg/scheduler/schedule_one.go (schedulePod, selectHost).
package framework

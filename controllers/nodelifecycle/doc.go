// Package nodelifecycle is the node lifecycle controller and the taint
// eviction controller: together they notice nodes whose kubelet has
// stopped, and move their pods away.
//
// Where they sit:
//
//	kubelet --(Lease renewTime every 10s, Ready lastHeartbeatTime)--> API server
//	  Node, Lease, Pod informers -> node lifecycle controller (per node)
//	    heartbeats past NodeMonitorGracePeriod -> conditions Unknown (nodes/status)
//	    -> NoSchedule taints by condition, NoExecute taint (unreachable / not-ready)
//	  Node, Pod informers -> taint eviction controller (per pod)
//	    NoExecute taint not tolerated -> DisruptionTarget condition, pod deleted
//	    (tolerated for tolerationSeconds -> deleted that much later)
//
// What the node lifecycle controller owns:
//
//   - node health: a node's heartbeats are its Lease's renewTime and its
//     Ready condition's lastHeartbeatTime; when neither changed for
//     NodeMonitorGracePeriod (50s, v1.32's default) of the controller's
//     clock, the kubelet's conditions (Ready, MemoryPressure,
//     DiskPressure, PIDPressure) become Unknown with reason
//     NodeStatusUnknown, and the Node gets a NodeNotReady event;
//   - TaintNodesByCondition: NoSchedule taints that mirror the conditions
//     (not-ready, unreachable, memory-pressure, disk-pressure,
//     pid-pressure, network-unavailable) and the cordon (unschedulable);
//   - taint-based eviction: the NoExecute taint node.kubernetes.io/
//     unreachable on a node whose Ready is Unknown, node.kubernetes.io/
//     not-ready when it is False, removed when it is True again, added at
//     a pace per zone (one node every 10s), paused in a zone that is
//     mostly down and everywhere when every node is down (then the
//     control plane, not the nodes, is the likely cause);
//   - the Ready condition of the pods of a node that stops being ready,
//     set False so that Services stop sending them traffic.
//
// The taint eviction controller deletes the pods of NoExecute-tainted
// nodes unless they tolerate the taints; the DefaultTolerationSeconds
// admission plugin gives every pod 300 seconds for not-ready and
// unreachable, so a node's pods move five minutes after it goes away.
//
// All time is the manager's clock: a test steps a clocktest.Fake past the
// grace period instead of waiting for it.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle and
// k8s.io/kubernetes/pkg/controller/tainteviction.
package nodelifecycle

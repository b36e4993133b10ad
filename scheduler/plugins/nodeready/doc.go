// Package nodeready is the NodeReady plugin, which is minicp's own: it
// keeps pods off nodes whose Ready condition is not True (missing, False or
// Unknown), unless the pod tolerates the taint upstream would put on such
// a node.
//
// Upstream has no such plugin any more. Its node lifecycle controller
// taints a node whose Ready condition is False with
// node.kubernetes.io/not-ready and one whose condition is Unknown (the
// kubelet stopped reporting) with node.kubernetes.io/unreachable, the
// kubelet registers new nodes with the not-ready taint, and TaintToleration
// does the rest. minicp's node lifecycle controller maintains those
// taints too, but its simulated kubelets do not register with the
// not-ready taint, and a cluster may run without the controller
// (--controllers), so this plugin reads the condition directly and treats
// it as the taint it stands for: a pod that
// tolerates node.kubernetes.io/not-ready:NoSchedule (or unreachable) may
// still land there. The rejection reason is that of upstream's old
// CheckNodeCondition predicate, "node(s) were not ready".
package nodeready

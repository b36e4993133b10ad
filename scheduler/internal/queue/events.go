package queue

// EventResource is the kind of object a ClusterEvent is about.
type EventResource string

// The resources whose changes can make an unschedulable pod schedulable.
const (
	// Node is a Node object.
	Node EventResource = "Node"
	// AssignedPod is a pod bound to a node (or assumed there): its
	// deletion frees resources.
	AssignedPod EventResource = "AssignedPod"
	// WildCard matches every resource; events of the queue itself (the
	// periodic flush) use it.
	WildCard EventResource = "*"
)

// ActionType is a set of changes, as bits, so one node update can carry
// several (its labels and its taints changed).
type ActionType int64

// The action types. The UpdateNode* bits say which scheduling property of
// a node changed; an update that changes none (a heartbeat) is no event.
const (
	Add ActionType = 1 << iota
	Delete
	UpdateNodeAllocatable
	UpdateNodeLabel
	// UpdateNodeTaint covers spec.taints and spec.unschedulable, which
	// upstream treats as the node.kubernetes.io/unschedulable taint.
	UpdateNodeTaint
	UpdateNodeCondition

	// All is every action.
	All ActionType = 1<<iota - 1
)

// ClusterEvent is a change in the cluster that may make unschedulable
// pods schedulable.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework (ClusterEvent).
type ClusterEvent struct {
	Resource   EventResource
	ActionType ActionType
	// Label names the event in logs.
	Label string
}

// The events the scheduler raises.
var (
	// NodeAdd is a node added.
	NodeAdd = ClusterEvent{Resource: Node, ActionType: Add, Label: "NodeAdd"}
	// AssignedPodDelete is a bound pod deleted (or finished, or an
	// assumed pod forgotten): its resources are free.
	AssignedPodDelete = ClusterEvent{Resource: AssignedPod, ActionType: Delete, Label: "AssignedPodDelete"}
	// UnschedulableTimeout is the periodic flush of pods that stayed
	// unschedulable too long; it matches every plugin.
	UnschedulableTimeout = ClusterEvent{Resource: WildCard, ActionType: All, Label: "UnschedulableTimeout"}
)

// IsWildCard reports whether ce matches every registration.
func (ce ClusterEvent) IsWildCard() bool { return ce.Resource == WildCard && ce.ActionType == All }

// Match reports whether ce is an event that registered asks for: the same
// resource (or a wildcard) and at least one common action.
func (ce ClusterEvent) Match(registered ClusterEvent) bool {
	return ce.IsWildCard() || registered.IsWildCard() ||
		(ce.Resource == registered.Resource && ce.ActionType&registered.ActionType != 0)
}

package names

// The in-tree plugins.
const (
	// NodeResourcesFit filters on requests vs allocatable and scores with
	// the LeastAllocated strategy.
	NodeResourcesFit = "NodeResourcesFit"
	// NodeResourcesBalancedAllocation scores how evenly cpu and memory
	// would be used.
	NodeResourcesBalancedAllocation = "NodeResourcesBalancedAllocation"
	// NodeName filters on spec.nodeName.
	NodeName = "NodeName"
	// NodeAffinity filters on spec.nodeSelector and required node
	// affinity, and scores preferred node affinity.
	NodeAffinity = "NodeAffinity"
	// TaintToleration filters on NoSchedule and NoExecute taints and
	// scores PreferNoSchedule ones.
	TaintToleration = "TaintToleration"
	// NodeUnschedulable filters out cordoned nodes.
	NodeUnschedulable = "NodeUnschedulable"
	// NodeReady filters out nodes whose Ready condition is not True. It is
	// minicp's; upstream has no such plugin.
	NodeReady = "NodeReady"
)

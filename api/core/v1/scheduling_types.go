package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// Affinity holds a pod's scheduling constraints relative to nodes and to
// other pods.
type Affinity struct {
	NodeAffinity    *NodeAffinity    `json:"nodeAffinity,omitempty" protobuf:"bytes,1,opt,name=nodeAffinity"`
	PodAffinity     *PodAffinity     `json:"podAffinity,omitempty" protobuf:"bytes,2,opt,name=podAffinity"`
	PodAntiAffinity *PodAntiAffinity `json:"podAntiAffinity,omitempty" protobuf:"bytes,3,opt,name=podAntiAffinity"`
}

// NodeAffinity constrains the nodes a pod may run on (required) and
// prefers some of them (preferred).
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  *NodeSelector             `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,1,opt,name=requiredDuringSchedulingIgnoredDuringExecution"`
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,2,rep,name=preferredDuringSchedulingIgnoredDuringExecution"`
}

// NodeSelector matches a node when any of its terms does.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms" protobuf:"bytes,1,rep,name=nodeSelectorTerms"`
}

// NodeSelectorTerm matches a node when all its requirements do.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty" protobuf:"bytes,1,rep,name=matchExpressions"`
	MatchFields      []NodeSelectorRequirement `json:"matchFields,omitempty" protobuf:"bytes,2,rep,name=matchFields"`
}

// NodeSelectorRequirement is one requirement on a node's labels (or, in
// matchFields, its metadata.name).
type NodeSelectorRequirement struct {
	Key      string               `json:"key" protobuf:"bytes,1,opt,name=key"`
	Operator NodeSelectorOperator `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=NodeSelectorOperator"`
	Values   []string             `json:"values,omitempty" protobuf:"bytes,3,rep,name=values"`
}

// NodeSelectorOperator is the relation of a NodeSelectorRequirement.
type NodeSelectorOperator string

// The node selector operators.
const (
	NodeSelectorOpIn           NodeSelectorOperator = "In"
	NodeSelectorOpNotIn        NodeSelectorOperator = "NotIn"
	NodeSelectorOpExists       NodeSelectorOperator = "Exists"
	NodeSelectorOpDoesNotExist NodeSelectorOperator = "DoesNotExist"
	NodeSelectorOpGt           NodeSelectorOperator = "Gt"
	NodeSelectorOpLt           NodeSelectorOperator = "Lt"
)

// PreferredSchedulingTerm adds Weight (1-100) to the score of nodes that
// match Preference.
type PreferredSchedulingTerm struct {
	Weight     int32            `json:"weight" protobuf:"varint,1,opt,name=weight"`
	Preference NodeSelectorTerm `json:"preference" protobuf:"bytes,2,opt,name=preference"`
}

// PodAffinity attracts a pod to nodes running matching pods.
type PodAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,1,rep,name=requiredDuringSchedulingIgnoredDuringExecution"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,2,rep,name=preferredDuringSchedulingIgnoredDuringExecution"`
}

// PodAntiAffinity keeps a pod away from nodes running matching pods.
type PodAntiAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,1,rep,name=requiredDuringSchedulingIgnoredDuringExecution"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,2,rep,name=preferredDuringSchedulingIgnoredDuringExecution"`
}

// PodAffinityTerm selects pods (by labels, in namespaces) and the topology
// domain ("kubernetes.io/hostname", "topology.kubernetes.io/zone") they
// must share with the pod.
type PodAffinityTerm struct {
	LabelSelector     *metav1.LabelSelector `json:"labelSelector,omitempty" protobuf:"bytes,1,opt,name=labelSelector"`
	Namespaces        []string              `json:"namespaces,omitempty" protobuf:"bytes,2,rep,name=namespaces"`
	TopologyKey       string                `json:"topologyKey" protobuf:"bytes,3,opt,name=topologyKey"`
	NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector,omitempty" protobuf:"bytes,4,opt,name=namespaceSelector"`
	MatchLabelKeys    []string              `json:"matchLabelKeys,omitempty" protobuf:"bytes,5,opt,name=matchLabelKeys"`
	MismatchLabelKeys []string              `json:"mismatchLabelKeys,omitempty" protobuf:"bytes,6,opt,name=mismatchLabelKeys"`
}

// WeightedPodAffinityTerm adds Weight (1-100) to nodes satisfying the term.
type WeightedPodAffinityTerm struct {
	Weight          int32           `json:"weight" protobuf:"varint,1,opt,name=weight"`
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm" protobuf:"bytes,2,opt,name=podAffinityTerm"`
}

// Toleration lets a pod schedule onto (or stay on) a node with a matching
// taint.
type Toleration struct {
	// Key empty with operator Exists matches every taint.
	Key string `json:"key,omitempty" protobuf:"bytes,1,opt,name=key"`
	// Operator is Equal (the default) or Exists.
	Operator TolerationOperator `json:"operator,omitempty" protobuf:"bytes,2,opt,name=operator,casttype=TolerationOperator"`
	Value    string             `json:"value,omitempty" protobuf:"bytes,3,opt,name=value"`
	// Effect empty matches every effect.
	Effect TaintEffect `json:"effect,omitempty" protobuf:"bytes,4,opt,name=effect,casttype=TaintEffect"`
	// TolerationSeconds bounds how long a NoExecute taint is tolerated.
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty" protobuf:"varint,5,opt,name=tolerationSeconds"`
}

// TolerationOperator is the relation of a Toleration to a taint's value.
type TolerationOperator string

// The toleration operators.
const (
	TolerationOpExists TolerationOperator = "Exists"
	TolerationOpEqual  TolerationOperator = "Equal"
)

// Taint repels pods that do not tolerate it from a node.
type Taint struct {
	Key    string      `json:"key" protobuf:"bytes,1,opt,name=key"`
	Value  string      `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
	Effect TaintEffect `json:"effect" protobuf:"bytes,3,opt,name=effect,casttype=TaintEffect"`
	// TimeAdded is set for NoExecute taints.
	TimeAdded *metav1.Time `json:"timeAdded,omitempty" protobuf:"bytes,4,opt,name=timeAdded"`
}

// TaintEffect is what a taint does to pods that do not tolerate it.
type TaintEffect string

// The taint effects.
const (
	// TaintEffectNoSchedule keeps new pods off the node.
	TaintEffectNoSchedule TaintEffect = "NoSchedule"
	// TaintEffectPreferNoSchedule makes the scheduler avoid the node.
	TaintEffectPreferNoSchedule TaintEffect = "PreferNoSchedule"
	// TaintEffectNoExecute also evicts running pods.
	TaintEffectNoExecute TaintEffect = "NoExecute"
)

// The taints the node lifecycle controller puts on unhealthy nodes.
const (
	TaintNodeNotReady      = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable   = "node.kubernetes.io/unreachable"
	TaintNodeUnschedulable = "node.kubernetes.io/unschedulable"
)

// TopologySpreadConstraint spreads matching pods evenly across the domains
// of a topology key.
type TopologySpreadConstraint struct {
	MaxSkew     int32  `json:"maxSkew" protobuf:"varint,1,opt,name=maxSkew"`
	TopologyKey string `json:"topologyKey" protobuf:"bytes,2,opt,name=topologyKey"`
	// WhenUnsatisfiable is DoNotSchedule or ScheduleAnyway.
	WhenUnsatisfiable  UnsatisfiableConstraintAction `json:"whenUnsatisfiable" protobuf:"bytes,3,opt,name=whenUnsatisfiable,casttype=UnsatisfiableConstraintAction"`
	LabelSelector      *metav1.LabelSelector         `json:"labelSelector,omitempty" protobuf:"bytes,4,opt,name=labelSelector"`
	MinDomains         *int32                        `json:"minDomains,omitempty" protobuf:"varint,5,opt,name=minDomains"`
	NodeAffinityPolicy *NodeInclusionPolicy          `json:"nodeAffinityPolicy,omitempty" protobuf:"bytes,6,opt,name=nodeAffinityPolicy"`
	NodeTaintsPolicy   *NodeInclusionPolicy          `json:"nodeTaintsPolicy,omitempty" protobuf:"bytes,7,opt,name=nodeTaintsPolicy"`
	MatchLabelKeys     []string                      `json:"matchLabelKeys,omitempty" protobuf:"bytes,8,opt,name=matchLabelKeys"`
}

// UnsatisfiableConstraintAction says what to do with a pod that would
// break a spread constraint.
type UnsatisfiableConstraintAction string

// The actions of TopologySpreadConstraint.
const (
	DoNotSchedule  UnsatisfiableConstraintAction = "DoNotSchedule"
	ScheduleAnyway UnsatisfiableConstraintAction = "ScheduleAnyway"
)

// NodeInclusionPolicy is Honor or Ignore.
type NodeInclusionPolicy string

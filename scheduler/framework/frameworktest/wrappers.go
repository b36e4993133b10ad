package frameworktest

import (
	"fmt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/resource"
)

// ResourceList parses a map of quantity strings into a ResourceList.
func ResourceList(m map[corev1.ResourceName]string) corev1.ResourceList {
	if m == nil {
		return nil
	}
	rl := make(corev1.ResourceList, len(m))
	for name, q := range m {
		rl[name] = resource.MustParse(q)
	}
	return rl
}

// PodWrapper builds a Pod. Each method changes the pod and returns the
// wrapper; Obj returns the pod.
type PodWrapper struct{ corev1.Pod }

// MakePod returns a pod named "pod" in namespace "default" with no
// containers.
func MakePod() *PodWrapper {
	p := &PodWrapper{}
	p.Pod.Name = "pod"
	p.Pod.Namespace = "default"
	return p
}

// Obj returns the pod.
func (p *PodWrapper) Obj() *corev1.Pod { return &p.Pod }

// Name sets the name.
func (p *PodWrapper) Name(name string) *PodWrapper { p.Pod.Name = name; return p }

// Namespace sets the namespace.
func (p *PodWrapper) Namespace(ns string) *PodWrapper { p.Pod.Namespace = ns; return p }

// UID sets the UID.
func (p *PodWrapper) UID(uid string) *PodWrapper { p.Pod.UID = uid; return p }

// Node sets spec.nodeName.
func (p *PodWrapper) Node(name string) *PodWrapper { p.Spec.NodeName = name; return p }

// Req adds a container that requests rl (nil: requests nothing).
func (p *PodWrapper) Req(rl map[corev1.ResourceName]string) *PodWrapper {
	p.Spec.Containers = append(p.Spec.Containers, corev1.Container{
		Name:      fmt.Sprintf("c%d", len(p.Spec.Containers)),
		Resources: corev1.ResourceRequirements{Requests: ResourceList(rl)},
	})
	return p
}

// InitReq adds an init container that requests rl.
func (p *PodWrapper) InitReq(rl map[corev1.ResourceName]string) *PodWrapper {
	p.Spec.InitContainers = append(p.Spec.InitContainers, corev1.Container{
		Name:      fmt.Sprintf("i%d", len(p.Spec.InitContainers)),
		Resources: corev1.ResourceRequirements{Requests: ResourceList(rl)},
	})
	return p
}

// SidecarReq adds a sidecar: an init container with restartPolicy Always
// that requests rl.
func (p *PodWrapper) SidecarReq(rl map[corev1.ResourceName]string) *PodWrapper {
	always := corev1.ContainerRestartPolicyAlways
	p.InitReq(rl)
	p.Spec.InitContainers[len(p.Spec.InitContainers)-1].RestartPolicy = &always
	return p
}

// Overhead sets spec.overhead.
func (p *PodWrapper) Overhead(rl map[corev1.ResourceName]string) *PodWrapper {
	p.Spec.Overhead = ResourceList(rl)
	return p
}

// NodeSelector sets spec.nodeSelector.
func (p *PodWrapper) NodeSelector(m map[string]string) *PodWrapper {
	p.Spec.NodeSelector = m
	return p
}

// Toleration adds a toleration.
func (p *PodWrapper) Toleration(key string, op corev1.TolerationOperator, value string, effect corev1.TaintEffect) *PodWrapper {
	p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: key, Operator: op, Value: value, Effect: effect})
	return p
}

func (p *PodWrapper) nodeAffinity() *corev1.NodeAffinity {
	if p.Spec.Affinity == nil {
		p.Spec.Affinity = &corev1.Affinity{}
	}
	if p.Spec.Affinity.NodeAffinity == nil {
		p.Spec.Affinity.NodeAffinity = &corev1.NodeAffinity{}
	}
	return p.Spec.Affinity.NodeAffinity
}

// RequiredNodeAffinity adds a required node selector term (terms are
// ORed).
func (p *PodWrapper) RequiredNodeAffinity(term corev1.NodeSelectorTerm) *PodWrapper {
	na := p.nodeAffinity()
	if na.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{}
	}
	req := na.RequiredDuringSchedulingIgnoredDuringExecution
	req.NodeSelectorTerms = append(req.NodeSelectorTerms, term)
	return p
}

// PreferredNodeAffinity adds a preferred term with weight.
func (p *PodWrapper) PreferredNodeAffinity(weight int32, term corev1.NodeSelectorTerm) *PodWrapper {
	na := p.nodeAffinity()
	na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution,
		corev1.PreferredSchedulingTerm{Weight: weight, Preference: term})
	return p
}

// Priority sets spec.priority.
func (p *PodWrapper) Priority(prio int32) *PodWrapper { p.Spec.Priority = &prio; return p }

// PreemptionPolicy sets spec.preemptionPolicy.
func (p *PodWrapper) PreemptionPolicy(policy corev1.PreemptionPolicy) *PodWrapper {
	p.Spec.PreemptionPolicy = &policy
	return p
}

// NodeWrapper builds a Node. Each method changes the node and returns the
// wrapper; Obj returns the node.
type NodeWrapper struct{ corev1.Node }

// MakeNode returns a node named "node" whose Ready condition is True and
// which has no resources: set them with Capacity.
func MakeNode() *NodeWrapper {
	n := &NodeWrapper{}
	n.Node.Name = "node"
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
	return n
}

// Obj returns the node.
func (n *NodeWrapper) Obj() *corev1.Node { return &n.Node }

// Name sets the name (and the kubernetes.io/hostname label, as the
// kubelet does).
func (n *NodeWrapper) Name(name string) *NodeWrapper {
	n.Node.Name = name
	return n.Label(corev1.LabelHostname, name)
}

// Label sets a label.
func (n *NodeWrapper) Label(k, v string) *NodeWrapper {
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	n.Labels[k] = v
	return n
}

// Capacity sets status.capacity and status.allocatable to rl.
func (n *NodeWrapper) Capacity(rl map[corev1.ResourceName]string) *NodeWrapper {
	n.Status.Capacity = ResourceList(rl)
	n.Status.Allocatable = ResourceList(rl)
	return n
}

// Allocatable sets status.allocatable only (nil: unset, so the scheduler
// falls back to capacity).
func (n *NodeWrapper) Allocatable(rl map[corev1.ResourceName]string) *NodeWrapper {
	n.Status.Allocatable = ResourceList(rl)
	return n
}

// Taint adds a taint.
func (n *NodeWrapper) Taint(key, value string, effect corev1.TaintEffect) *NodeWrapper {
	n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: key, Value: value, Effect: effect})
	return n
}

// Unschedulable sets spec.unschedulable (cordons the node).
func (n *NodeWrapper) Unschedulable(u bool) *NodeWrapper { n.Spec.Unschedulable = u; return n }

// Ready sets the status of the Ready condition; "" removes the condition.
func (n *NodeWrapper) Ready(status corev1.ConditionStatus) *NodeWrapper {
	n.Status.Conditions = nil
	if status != "" {
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: status}}
	}
	return n
}

// In is a NodeSelectorRequirement on a label: key In values.
func In(key string, values ...string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: key, Operator: corev1.NodeSelectorOpIn, Values: values}
}

// Term is a NodeSelectorTerm of match expressions.
func Term(exprs ...corev1.NodeSelectorRequirement) corev1.NodeSelectorTerm {
	return corev1.NodeSelectorTerm{MatchExpressions: exprs}
}

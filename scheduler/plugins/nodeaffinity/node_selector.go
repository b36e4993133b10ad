package nodeaffinity

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
)

// nodeNameField is the only node field a matchFields requirement can name.
const nodeNameField = "metadata.name"

// RequiredNodeAffinity is what a pod requires of a node's labels and name:
// every label of spec.nodeSelector, and one of the terms of the required
// node affinity. It is parsed once per pod and matched against many nodes.
//
// Upstream: k8s.io/component-helpers/scheduling/corev1/nodeaffinity
// (RequiredNodeAffinity).
type RequiredNodeAffinity struct {
	nodeSelector map[string]string
	// terms is nil when the pod has no required node affinity; a non-nil
	// empty slice matches no node.
	terms []nodeSelectorTerm
}

// GetRequiredNodeAffinity parses pod's spec.nodeSelector and required node
// affinity.
func GetRequiredNodeAffinity(pod *corev1.Pod) RequiredNodeAffinity {
	r := RequiredNodeAffinity{nodeSelector: pod.Spec.NodeSelector}
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		terms := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
		r.terms = make([]nodeSelectorTerm, len(terms))
		for i := range terms {
			r.terms[i] = newNodeSelectorTerm(&terms[i])
		}
	}
	return r
}

// IsEmpty reports whether the pod requires nothing, so every node matches.
func (r RequiredNodeAffinity) IsEmpty() bool { return len(r.nodeSelector) == 0 && r.terms == nil }

// Match reports whether node has every label of the node selector and
// matches at least one required term (terms are ORed, the requirements of
// a term ANDed).
func (r RequiredNodeAffinity) Match(node *corev1.Node) bool {
	for k, v := range r.nodeSelector {
		if got, ok := node.Labels[k]; !ok || got != v {
			return false
		}
	}
	if r.terms == nil {
		return true
	}
	for i := range r.terms {
		if r.terms[i].match(node) {
			return true
		}
	}
	return false
}

// PreferredSchedulingTerms are a pod's preferred node affinity terms,
// parsed once.
//
// Upstream: nodeaffinity.PreferredSchedulingTerms.
type PreferredSchedulingTerms struct {
	terms   []nodeSelectorTerm
	weights []int64
}

// NewPreferredSchedulingTerms parses terms.
func NewPreferredSchedulingTerms(terms []corev1.PreferredSchedulingTerm) PreferredSchedulingTerms {
	p := PreferredSchedulingTerms{
		terms:   make([]nodeSelectorTerm, len(terms)),
		weights: make([]int64, len(terms)),
	}
	for i := range terms {
		p.terms[i] = newNodeSelectorTerm(&terms[i].Preference)
		p.weights[i] = int64(terms[i].Weight)
	}
	return p
}

// Score is the sum of the weights of the terms node matches.
func (p PreferredSchedulingTerms) Score(node *corev1.Node) int64 {
	var s int64
	for i := range p.terms {
		if p.terms[i].match(node) {
			s += p.weights[i]
		}
	}
	return s
}

// nodeSelectorTerm is a parsed NodeSelectorTerm.
type nodeSelectorTerm struct {
	labels []labels.Requirement
	fields []fieldRequirement
	// valid is false for a term that matches no node: an empty one, or one
	// with a requirement that does not parse (the API server validates
	// pods, so only objects that bypassed it have those).
	valid bool
}

// fieldRequirement is metadata.name In (or NotIn) one name.
type fieldRequirement struct {
	name  string
	notIn bool
}

// operators maps node selector operators to label selector ones.
var operators = map[corev1.NodeSelectorOperator]labels.Operator{
	corev1.NodeSelectorOpIn:           labels.In,
	corev1.NodeSelectorOpNotIn:        labels.NotIn,
	corev1.NodeSelectorOpExists:       labels.Exists,
	corev1.NodeSelectorOpDoesNotExist: labels.DoesNotExist,
	corev1.NodeSelectorOpGt:           labels.GreaterThan,
	corev1.NodeSelectorOpLt:           labels.LessThan,
}

// newNodeSelectorTerm parses term. matchExpressions become label
// requirements, validated as upstream's label selectors are (Gt and Lt
// take one integer); matchFields may only say metadata.name In or NotIn
// one value.
//
// Upstream: nodeaffinity.newNodeSelectorTerm,
// nodeSelectorRequirementsAsSelector and
// nodeSelectorRequirementsAsFieldSelector.
func newNodeSelectorTerm(term *corev1.NodeSelectorTerm) nodeSelectorTerm {
	t := nodeSelectorTerm{valid: len(term.MatchExpressions)+len(term.MatchFields) > 0}
	for _, expr := range term.MatchExpressions {
		op, ok := operators[expr.Operator]
		if !ok {
			return nodeSelectorTerm{}
		}
		req, err := labels.NewRequirement(expr.Key, op, expr.Values)
		if err != nil {
			return nodeSelectorTerm{}
		}
		t.labels = append(t.labels, *req)
	}
	for _, expr := range term.MatchFields {
		if expr.Key != nodeNameField || len(expr.Values) != 1 {
			return nodeSelectorTerm{}
		}
		switch expr.Operator {
		case corev1.NodeSelectorOpIn:
			t.fields = append(t.fields, fieldRequirement{name: expr.Values[0]})
		case corev1.NodeSelectorOpNotIn:
			t.fields = append(t.fields, fieldRequirement{name: expr.Values[0], notIn: true})
		default:
			return nodeSelectorTerm{}
		}
	}
	return t
}

func (t *nodeSelectorTerm) match(node *corev1.Node) bool {
	if !t.valid {
		return false
	}
	set := labels.Set(node.Labels)
	for i := range t.labels {
		if !t.labels[i].Matches(set) {
			return false
		}
	}
	for _, f := range t.fields {
		if (node.Name == f.name) == f.notIn {
			return false
		}
	}
	return true
}

package framework

import (
	"fmt"
	"sync/atomic"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// PodInfo is a pod with its requests computed once, so adding it to and
// removing it from a NodeInfo is a few additions. A PodInfo is immutable:
// when the pod changes, make a new one.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework (PodInfo).
type PodInfo struct {
	Pod *corev1.Pod
	// Requests is PodRequests(Pod) with no defaults: what fitting counts.
	Requests Resource
	// NonZeroRequests holds only MilliCPU and Memory, computed with
	// PodRequestsOptions.NonZero: what scoring counts.
	NonZeroRequests Resource
}

// NewPodInfo computes pod's requests. It keeps pod; the caller must not
// modify it afterwards.
func NewPodInfo(pod *corev1.Pod) *PodInfo {
	nz := PodRequests(pod, PodRequestsOptions{NonZero: true})
	return &PodInfo{
		Pod:             pod,
		Requests:        PodRequests(pod, PodRequestsOptions{}),
		NonZeroRequests: Resource{MilliCPU: nz.MilliCPU, Memory: nz.Memory},
	}
}

// generation is the source of NodeInfo.Generation: one counter for all
// NodeInfos, so a cache can tell which of many changed since a snapshot.
var generation atomic.Int64

func nextGeneration() int64 { return generation.Add(1) }

// NodeInfo is the scheduler's view of one node: the Node object and the
// pods assigned to it (bound, or assumed by the scheduler before the bind
// completes), with their requests summed.
//
// Invariants: Requested is the sum of Pods' Requests, NonZeroRequested the
// sum of their NonZeroRequests, and Allocatable is derived from the node
// alone. Generation changes on every mutation.
//
// A NodeInfo is not safe for concurrent mutation. The scheduler's cache
// owns one per node and hands the framework Clones; plugins only read
// them, from many goroutines at once.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework (NodeInfo).
type NodeInfo struct {
	node *corev1.Node
	// Pods are the pods on the node, in no particular order.
	Pods []*PodInfo
	// Requested is the sum of the pods' requests.
	Requested Resource
	// NonZeroRequested is the sum of the pods' NonZeroRequests (MilliCPU
	// and Memory only).
	NonZeroRequested Resource
	// Allocatable is node.status.allocatable, or node.status.capacity for
	// a node that reports no allocatable.
	Allocatable Resource
	// Generation is a number no other NodeInfo state had: it is taken from
	// a process-wide counter on every mutation.
	Generation int64
}

// NewNodeInfo returns the NodeInfo of node (which may be nil while only
// its pods are known) with pods on it.
func NewNodeInfo(node *corev1.Node, pods ...*corev1.Pod) *NodeInfo {
	n := &NodeInfo{Generation: nextGeneration()}
	if node != nil {
		n.SetNode(node)
	}
	for _, p := range pods {
		n.AddPod(p)
	}
	return n
}

// Node returns the node, or nil if it is not known yet.
func (n *NodeInfo) Node() *corev1.Node { return n.node }

// SetNode sets (or replaces) the node and recomputes Allocatable. It keeps
// node; the caller must not modify it afterwards.
func (n *NodeInfo) SetNode(node *corev1.Node) {
	n.node = node
	alloc := node.Status.Allocatable
	if alloc == nil {
		// The API server defaults allocatable to capacity on write; this
		// covers nodes that never went through it (tests, old objects).
		alloc = node.Status.Capacity
	}
	n.Allocatable = NewResource(alloc)
	n.Generation = nextGeneration()
}

// AddPod adds pod to the node. The scheduler cache calls it both for pods
// bound to the node and for a pod it assumes there before the bind
// completes.
func (n *NodeInfo) AddPod(pod *corev1.Pod) { n.AddPodInfo(NewPodInfo(pod)) }

// AddPodInfo adds an already computed PodInfo.
func (n *NodeInfo) AddPodInfo(pi *PodInfo) {
	n.Pods = append(n.Pods, pi)
	n.update(pi, 1)
}

// RemovePod removes the pod with pod's key (its UID, or namespace/name
// when it has none) and subtracts the requests it was added with, so a
// pod that changed since it was added is still removed exactly. It returns
// an error if no such pod is on the node.
//
// A node runs at most a few hundred pods ("pods" allocatable, 110 by
// default), so a linear scan is cheaper than keeping an index up to date.
func (n *NodeInfo) RemovePod(pod *corev1.Pod) error {
	key := podKey(pod)
	for i, pi := range n.Pods {
		if podKey(pi.Pod) != key {
			continue
		}
		last := len(n.Pods) - 1
		n.Pods[i] = n.Pods[last]
		n.Pods[last] = nil // let the backing array forget the pod
		n.Pods = n.Pods[:last]
		n.update(pi, -1)
		return nil
	}
	return fmt.Errorf("no pod %s on node %s", key, n.nodeName())
}

func (n *NodeInfo) update(pi *PodInfo, sign int64) {
	n.Requested.addResource(pi.Requests, sign)
	n.NonZeroRequested.addResource(pi.NonZeroRequests, sign)
	n.Generation = nextGeneration()
}

// Clone returns a copy that shares the Node and the PodInfos (both are
// immutable) but owns its pod list and sums, so the copy and n can change
// independently. It keeps n's Generation.
//
// Upstream: NodeInfo.Snapshot.
func (n *NodeInfo) Clone() *NodeInfo {
	return &NodeInfo{
		node:             n.node,
		Pods:             append([]*PodInfo(nil), n.Pods...),
		Requested:        n.Requested.Clone(),
		NonZeroRequested: n.NonZeroRequested.Clone(),
		Allocatable:      n.Allocatable.Clone(),
		Generation:       n.Generation,
	}
}

// String describes the node and its sums, for logs and test failures.
func (n *NodeInfo) String() string {
	return fmt.Sprintf("&NodeInfo{Node: %s, Pods: %d, Requested: %+v, NonZeroRequested: %+v, Allocatable: %+v}",
		n.nodeName(), len(n.Pods), n.Requested, n.NonZeroRequested, n.Allocatable)
}

func (n *NodeInfo) nodeName() string {
	if n.node == nil {
		return "<nil>"
	}
	return n.node.Name
}

// podKey identifies a pod across updates: its UID, which the API server
// assigns on create. Pods built in tests often have none, so they fall
// back to namespace/name (upstream returns an error instead).
func podKey(pod *corev1.Pod) string {
	if pod.UID != "" {
		return string(pod.UID)
	}
	return pod.Namespace + "/" + pod.Name
}

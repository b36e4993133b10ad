package garbagecollector

import (
	"fmt"
	"slices"
	"sync"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// objectReference identifies an object of the graph: the coordinates an
// ownerReference gives (apiVersion, kind, name, uid) and the namespace,
// which an ownerReference leaves to be the dependent's. A virtual node's
// objectReference is what a dependent claims, and may be wrong.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (objectReference).
type objectReference struct {
	metav1.OwnerReference
	Namespace string
}

// String renders the reference as upstream logs it, also used in the
// OwnerRefInvalidNamespace event.
func (r objectReference) String() string {
	return fmt.Sprintf("[%s/%s, namespace: %s, name: %s, uid: %s]", r.APIVersion, r.Kind, r.Namespace, r.Name, r.UID)
}

// gvk is the kind the reference names.
func (r objectReference) gvk() runtime.GroupVersionKind {
	return runtime.ParseGroupVersion(r.APIVersion).WithKind(r.Kind)
}

// node is one object of the ownership graph. The graph builder's single
// goroutine is the only writer; the collector's workers read nodes
// concurrently, so every field but identity is read and written under mu.
// identity never changes: a node whose identity must change is replaced by
// a clone in uidToNode.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector (node),
// which keeps one lock per field; one lock is simpler, and nothing here
// holds it across a call.
type node struct {
	identity objectReference

	// mu guards the fields below.
	mu sync.Mutex
	// dependents are the nodes whose ownerReferences name this node's uid.
	dependents map[*node]struct{}
	// owners are the object's ownerReferences as last observed (nil for a
	// virtual node). The slice is replaced, never modified in place.
	owners []metav1.OwnerReference
	// beingDeleted records a deletionTimestamp: a one-way trip.
	beingDeleted bool
	// deletingDependents records a deletionTimestamp with the
	// foregroundDeletion finalizer: the collector deletes the dependents
	// first.
	deletingDependents bool
	// virtual marks a node made up for an owner a dependent names but no
	// informer has shown yet.
	virtual bool
}

func newNode(identity objectReference) *node {
	return &node{identity: identity, dependents: map[*node]struct{}{}}
}

// clone copies n, dependents and owners included, for a replacement
// under another identity. Only the graph builder calls it.
func (n *node) clone() *node {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := newNode(n.identity)
	for dep := range n.dependents {
		c.dependents[dep] = struct{}{}
	}
	c.owners = slices.Clone(n.owners)
	c.beingDeleted, c.deletingDependents, c.virtual = n.beingDeleted, n.deletingDependents, n.virtual
	return c
}

func (n *node) markBeingDeleted() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.beingDeleted = true
}

func (n *node) isBeingDeleted() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.beingDeleted
}

func (n *node) markDeletingDependents() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.deletingDependents = true
}

func (n *node) isDeletingDependents() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.deletingDependents
}

func (n *node) markObserved() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.virtual = false
}

func (n *node) isObserved() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return !n.virtual
}

// getOwners returns the owners; the slice is shared, never modify it.
func (n *node) getOwners() []metav1.OwnerReference {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.owners
}

// setOwners takes ownership of owners.
func (n *node) setOwners(owners []metav1.OwnerReference) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.owners = owners
}

func (n *node) addDependent(dep *node) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.dependents[dep] = struct{}{}
}

func (n *node) deleteDependent(dep *node) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.dependents, dep)
}

func (n *node) dependentsLength() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.dependents)
}

// getDependents returns a snapshot of the dependents: the graph may change
// the moment it returns.
func (n *node) getDependents() []*node {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]*node, 0, len(n.dependents))
	for dep := range n.dependents {
		out = append(out, dep)
	}
	return out
}

// blockingDependents returns the dependents whose reference to n has
// blockOwnerDeletion=true: those a foreground deletion of n waits for. A
// snapshot, like getDependents.
func (n *node) blockingDependents() []*node {
	var out []*node
	for _, dep := range n.getDependents() {
		for _, ref := range dep.getOwners() {
			if ref.UID == n.identity.UID && ref.BlockOwnerDeletion != nil && *ref.BlockOwnerDeletion {
				out = append(out, dep)
				break
			}
		}
	}
	return out
}

// uidToNode is the graph: every node by uid. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (concurrentUIDToNode).
type uidToNode struct {
	// mu guards nodes.
	mu    sync.RWMutex
	nodes map[string]*node
}

func newUIDToNode() *uidToNode { return &uidToNode{nodes: map[string]*node{}} }

func (m *uidToNode) write(n *node) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nodes[n.identity.UID] = n
}

func (m *uidToNode) read(uid string) (*node, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, ok := m.nodes[uid]
	return n, ok
}

func (m *uidToNode) delete(uid string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.nodes, uid)
}

package garbagecollector

import (
	"context"
	"slices"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// identityFromEvent is the identity the event shows for its object.
func identityFromEvent(ev *event) objectReference {
	return objectReference{
		OwnerReference: metav1.OwnerReference{
			APIVersion: ev.gvk.GroupVersion().String(), Kind: ev.gvk.Kind,
			Name: ev.meta.Name, UID: ev.meta.UID,
		},
		Namespace: ev.meta.Namespace,
	}
}

// processGraphChange applies one event to the graph and queues the work
// it makes:
//
//	add/update of an unknown uid   -> new node, linked to its owners
//	add/update of a known uid      -> owners relinked; being deleted noted
//	  either, starting deletion    -> orphan finalizer: attemptToOrphan;
//	                                  foregroundDeletion: node and dependents to attemptToDelete
//	delete                         -> node removed; its dependents, and its owners
//	                                  waiting for their dependents, to attemptToDelete
//
// The first informer event for a virtual node makes it observed, under the
// identity the informer shows; dependents that named it otherwise are
// checked again.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GraphBuilder.processGraphChanges). The collector watches each resource
// at one version, its preferred one, so an observed node's apiVersion and
// kind change only when a CRD changes its preferred version; the upstream
// branch that follows such a change is left out.
func (gb *graphBuilder) processGraphChange(ctx context.Context, ev *event) {
	uid := ev.meta.UID
	if uid == "" {
		return // the API server gives every object a uid; nothing to link
	}
	gb.log.DebugContext(ctx, "graph change", "kind", ev.gvk.Kind, "namespace", ev.meta.Namespace,
		"name", ev.meta.Name, "uid", uid, "event", ev.eventType, "virtual", ev.virtual)
	existing, found := gb.uidToNode.read(uid)
	if found && !ev.virtual && !existing.isObserved() {
		existing = gb.observeVirtualNode(ctx, existing, identityFromEvent(ev))
	}
	switch {
	case ev.eventType != deleteEvent && !found:
		n := newNode(identityFromEvent(ev))
		n.owners = slices.Clone(ev.meta.OwnerReferences)
		n.beingDeleted = beingDeleted(ev.meta)
		n.deletingDependents = n.beingDeleted && hasFinalizer(ev.meta, metav1.FinalizerDeleteDependents)
		gb.insertNode(ctx, n)
		// The informer may fold a creation and the start of a deletion
		// into one event.
		gb.processTransitions(ev.oldMeta, ev.meta, n)
	case ev.eventType != deleteEvent:
		added, removed, changed := referencesDiffs(existing.getOwners(), ev.meta.OwnerReferences)
		if len(added) > 0 || len(removed) > 0 || len(changed) > 0 {
			// An owner waiting for its blocking dependents may be waiting
			// for this one no more.
			gb.addUnblockedOwnersToDeleteQueue(removed, changed)
			existing.setOwners(slices.Clone(ev.meta.OwnerReferences))
			gb.addDependentToOwners(ctx, existing, added)
			gb.removeDependentFromOwners(existing, removed)
		}
		if beingDeleted(ev.meta) {
			existing.markBeingDeleted()
		}
		gb.processTransitions(ev.oldMeta, ev.meta, existing)
	case found:
		gb.processDelete(ev, existing)
	}
}

// observeVirtualNode marks a virtual node observed by an informer event
// showing identity. When the dependents named the owner otherwise, the
// node is replaced by one with the observed identity, and the dependents
// whose reference does not match it are checked again: a reference to a
// namespaced owner from another namespace is invalid, and reported.
func (gb *graphBuilder) observeVirtualNode(ctx context.Context, n *node, identity objectReference) *node {
	if identity != n.identity {
		_, invalid := partitionDependents(n.getDependents(), identity)
		for _, dep := range invalid {
			if identity.Namespace != "" && dep.identity.Namespace != identity.Namespace {
				gb.log.DebugContext(ctx, "owner reference to another namespace", "dependent", dep.identity.String(), "owner", identity.String())
				gb.reportInvalidNamespaceOwnerRef(dep, identity.UID)
			}
			gb.attemptToDelete.add(dep)
		}
		n = n.clone()
		n.identity = identity
		gb.uidToNode.write(n)
	}
	n.markObserved()
	return n
}

// processDelete removes the node of a deleted object and queues what
// depended on it. A virtual delete (an identity the API server does not
// know) removes the node only if every dependent agrees on the identity;
// otherwise the node stays, under the next identity to verify.
func (gb *graphBuilder) processDelete(ev *event, existing *node) {
	deleted := identityFromEvent(ev)
	if ev.virtual {
		if !gb.keepAfterVirtualDelete(existing, deleted) {
			gb.removeAndQueueDependents(existing, deleted)
		}
		return
	}
	gb.removeAndQueueDependents(existing, deleted)
}

// keepAfterVirtualDelete handles a virtual delete of identity deleted:
// the dependents naming exactly that identity are queued (their owner is
// verified absent), and it reports whether the node must stay because
// other dependents name its uid otherwise.
func (gb *graphBuilder) keepAfterVirtualDelete(existing *node, deleted objectReference) bool {
	if !existing.isObserved() {
		matching, nonmatching := partitionDependents(existing.getDependents(), deleted)
		if len(nonmatching) == 0 {
			return false
		}
		if len(matching) > 0 {
			gb.absentOwnerCache.add(deleted)
			for _, dep := range matching {
				gb.attemptToDelete.add(dep)
			}
		}
		if existing.identity == deleted {
			// Verify the next identity the other dependents give.
			if alt := getAlternateOwnerIdentity(nonmatching, deleted); alt != nil {
				replacement := existing.clone()
				replacement.identity = *alt
				gb.uidToNode.write(replacement)
				gb.attemptToDelete.add(replacement)
			}
		}
		return true
	}
	if existing.identity == deleted {
		return false
	}
	// An observed object is never removed on a made-up event that names it
	// otherwise; the dependents that name it that way are wrong.
	matching, _ := partitionDependents(existing.getDependents(), deleted)
	if len(matching) > 0 {
		gb.absentOwnerCache.add(deleted)
		for _, dep := range matching {
			gb.attemptToDelete.add(dep)
		}
	}
	return true
}

// removeAndQueueDependents removes n from the graph, queues its dependents
// (their owner is gone) and its owners waiting for their dependents (one
// fewer now).
func (gb *graphBuilder) removeAndQueueDependents(n *node, deleted objectReference) {
	gb.removeNode(n)
	deps := n.getDependents()
	if len(deps) > 0 {
		gb.absentOwnerCache.add(deleted)
	}
	for _, dep := range deps {
		gb.attemptToDelete.add(dep)
	}
	for _, ref := range n.getOwners() {
		if owner, ok := gb.uidToNode.read(ref.UID); ok && owner.isDeletingDependents() {
			gb.attemptToDelete.add(owner)
		}
	}
}

// processTransitions queues the work a deletion with a collector
// finalizer starts: orphaning the dependents, or deleting them first.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GraphBuilder.processTransitions).
func (gb *graphBuilder) processTransitions(oldMeta, newMeta *metav1.ObjectMeta, n *node) {
	if deletionStartsWithFinalizer(oldMeta, newMeta, metav1.FinalizerOrphanDependents) {
		gb.attemptToOrphan.add(n)
		return
	}
	if deletionStartsWithFinalizer(oldMeta, newMeta, metav1.FinalizerDeleteDependents) {
		// A node that was virtual was made without the flag.
		n.markDeletingDependents()
		for _, dep := range n.getDependents() {
			gb.attemptToDelete.add(dep)
		}
		gb.attemptToDelete.add(n)
	}
}

// addUnblockedOwnersToDeleteQueue queues the owners that a dependent
// stopped blocking, by dropping its reference to them or unsetting
// blockOwnerDeletion: a foreground deletion may now finish.
func (gb *graphBuilder) addUnblockedOwnersToDeleteQueue(removed []metav1.OwnerReference, changed []ownerRefPair) {
	for _, ref := range removed {
		if !isBlocking(ref) {
			continue
		}
		if owner, ok := gb.uidToNode.read(ref.UID); ok {
			gb.attemptToDelete.add(owner)
		}
	}
	for _, c := range changed {
		if isBlocking(c.oldRef) && !isBlocking(c.newRef) {
			if owner, ok := gb.uidToNode.read(c.newRef.UID); ok {
				gb.attemptToDelete.add(owner)
			}
		}
	}
}

// insertNode adds n to the graph and links it to its owners.
func (gb *graphBuilder) insertNode(ctx context.Context, n *node) {
	gb.uidToNode.write(n)
	gb.addDependentToOwners(ctx, n, n.getOwners())
}

// removeNode removes n from the graph and unlinks it from its owners.
func (gb *graphBuilder) removeNode(n *node) {
	gb.uidToNode.delete(n.identity.UID)
	gb.removeDependentFromOwners(n, n.getOwners())
}

// removeDependentFromOwners unlinks n from the owners refs name.
func (gb *graphBuilder) removeDependentFromOwners(n *node, refs []metav1.OwnerReference) {
	for _, ref := range refs {
		if owner, ok := gb.uidToNode.read(ref.UID); ok {
			owner.deleteDependent(n)
		}
	}
}

// addDependentToOwners links n to the owners refs name. An owner not in
// the graph gets a virtual node, queued to attemptToDelete so that a
// worker asks the API server whether it exists. A reference that does not
// match an owner already in the graph (another namespace, other
// coordinates) queues n itself, to verify its owners; a reference to a
// namespaced owner observed in another namespace is reported as an
// OwnerRefInvalidNamespace event.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GraphBuilder.addDependentToOwners).
func (gb *graphBuilder) addDependentToOwners(ctx context.Context, n *node, refs []metav1.OwnerReference) {
	potentiallyInvalid := false
	for _, ref := range refs {
		if ref.UID == "" {
			continue // the API server rejects it; never link by no uid
		}
		owner, ok := gb.uidToNode.read(ref.UID)
		if !ok {
			// Until verified, the owner is taken to be where the
			// dependent is.
			owner = newNode(objectReference{OwnerReference: ownerReferenceCoordinates(ref), Namespace: n.identity.Namespace})
			owner.virtual = true
			gb.uidToNode.write(owner)
		}
		owner.addDependent(n)
		if !ok {
			gb.attemptToDelete.add(owner)
			continue
		}
		if potentiallyInvalid {
			continue
		}
		ownerIsNamespaced := owner.identity.Namespace != ""
		switch {
		case ownerIsNamespaced && owner.identity.Namespace != n.identity.Namespace:
			if owner.isObserved() {
				gb.log.DebugContext(ctx, "owner reference to another namespace", "dependent", n.identity.String(), "owner", owner.identity.String())
				gb.reportInvalidNamespaceOwnerRef(n, ref.UID)
			}
			potentiallyInvalid = true
		case !ownerReferenceMatchesCoordinates(ref, owner.identity.OwnerReference):
			potentiallyInvalid = true
		case !ownerIsNamespaced && owner.identity.Namespace != n.identity.Namespace && !owner.isObserved():
			// A virtual owner made by a cluster-scoped dependent: it may be
			// a namespaced kind such a dependent cannot refer to.
			potentiallyInvalid = true
		}
	}
	if potentiallyInvalid {
		gb.attemptToDelete.add(n)
	}
}

// reportInvalidNamespaceOwnerRef records a Warning event on n about its
// reference to ownerUID, a namespaced owner outside n's namespace, which
// the collector treats as absent.
func (gb *graphBuilder) reportInvalidNamespaceOwnerRef(n *node, ownerUID string) {
	i := slices.IndexFunc(n.getOwners(), func(ref metav1.OwnerReference) bool { return ref.UID == ownerUID })
	if i < 0 {
		return
	}
	ref := n.getOwners()[i]
	invalid := objectReference{OwnerReference: ownerReferenceCoordinates(ref), Namespace: n.identity.Namespace}
	obj, err := gb.scheme.New(n.identity.gvk())
	if err != nil {
		return // a kind the scheme cannot make an object of: no event
	}
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return
	}
	meta.Namespace, meta.Name, meta.UID = n.identity.Namespace, n.identity.Name, n.identity.UID
	gb.recorder.Eventf(obj, corev1.EventTypeWarning, "OwnerRefInvalidNamespace",
		"ownerRef %s does not exist in namespace %q", invalid, n.identity.Namespace)
}

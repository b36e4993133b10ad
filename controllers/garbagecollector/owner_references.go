package garbagecollector

import (
	"slices"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func beingDeleted(meta *metav1.ObjectMeta) bool { return meta.DeletionTimestamp != nil }

func hasFinalizer(meta *metav1.ObjectMeta, finalizer string) bool {
	return slices.Contains(meta.Finalizers, finalizer)
}

// deletionStartsWithFinalizer reports whether newMeta is being deleted
// with finalizer while oldMeta (nil for a new object) was not: the moment
// the collector must start orphaning or deleting the dependents.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (deletionStartsWithFinalizer).
func deletionStartsWithFinalizer(oldMeta, newMeta *metav1.ObjectMeta, finalizer string) bool {
	if !beingDeleted(newMeta) || !hasFinalizer(newMeta, finalizer) {
		return false
	}
	return oldMeta == nil || !beingDeleted(oldMeta) || !hasFinalizer(oldMeta, finalizer)
}

// ownerReferenceCoordinates keeps the fields that identify the owner.
func ownerReferenceCoordinates(ref metav1.OwnerReference) metav1.OwnerReference {
	return metav1.OwnerReference{UID: ref.UID, Name: ref.Name, Kind: ref.Kind, APIVersion: ref.APIVersion}
}

// ownerReferenceMatchesCoordinates reports whether a and b name the same
// owner the same way.
func ownerReferenceMatchesCoordinates(a, b metav1.OwnerReference) bool {
	return a.UID == b.UID && a.Name == b.Name && a.Kind == b.Kind && a.APIVersion == b.APIVersion
}

// ownerReferenceEqual compares every field, the pointed-to booleans by
// value.
func ownerReferenceEqual(a, b metav1.OwnerReference) bool {
	return ownerReferenceMatchesCoordinates(a, b) && boolPtrEqual(a.Controller, b.Controller) &&
		boolPtrEqual(a.BlockOwnerDeletion, b.BlockOwnerDeletion)
}

func boolPtrEqual(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func isBlocking(ref metav1.OwnerReference) bool {
	return ref.BlockOwnerDeletion != nil && *ref.BlockOwnerDeletion
}

// ownerRefPair is one owner's reference before and after a change.
type ownerRefPair struct {
	oldRef, newRef metav1.OwnerReference
}

// referencesDiffs compares two ownerReferences lists by uid.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (referencesDiffs).
func referencesDiffs(oldRefs, newRefs []metav1.OwnerReference) (added, removed []metav1.OwnerReference, changed []ownerRefPair) {
	oldByUID := make(map[string]metav1.OwnerReference, len(oldRefs))
	for _, ref := range oldRefs {
		oldByUID[ref.UID] = ref
	}
	for _, ref := range newRefs {
		old, ok := oldByUID[ref.UID]
		if !ok {
			added = append(added, ref)
			continue
		}
		if !ownerReferenceEqual(old, ref) {
			changed = append(changed, ownerRefPair{oldRef: old, newRef: ref})
		}
		delete(oldByUID, ref.UID)
	}
	// In the old order, so the result does not depend on map iteration.
	for _, ref := range oldRefs {
		if _, ok := oldByUID[ref.UID]; ok {
			removed = append(removed, ref)
			delete(oldByUID, ref.UID)
		}
	}
	return added, removed, changed
}

// partitionDependents splits dependents into those whose reference to
// owner.UID matches owner's coordinates (and namespace, for a namespaced
// owner) and those that name it otherwise. A dependent with several
// references to the uid can be in both.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (partitionDependents).
func partitionDependents(dependents []*node, owner objectReference) (matching, nonmatching []*node) {
	ownerIsNamespaced := owner.Namespace != ""
	for _, dep := range dependents {
		match, mismatch := false, false
		if ownerIsNamespaced && owner.Namespace != dep.identity.Namespace {
			// A namespaced owner can only own objects of its namespace.
			mismatch = true
		} else {
			for _, ref := range dep.getOwners() {
				if ref.UID != owner.UID {
					continue
				}
				if ownerReferenceMatchesCoordinates(ref, owner.OwnerReference) {
					match = true
				} else {
					mismatch = true
				}
			}
		}
		if match {
			matching = append(matching, dep)
		}
		if mismatch {
			nonmatching = append(nonmatching, dep)
		}
	}
	return matching, nonmatching
}

// referenceLessThan orders references by kind, apiVersion, namespace, name
// and uid: kinds first, so cluster-scoped and namespaced references of one
// kind sort together.
func referenceLessThan(a, b objectReference) bool {
	switch {
	case a.Kind != b.Kind:
		return a.Kind < b.Kind
	case a.APIVersion != b.APIVersion:
		return a.APIVersion < b.APIVersion
	case a.Namespace != b.Namespace:
		return a.Namespace < b.Namespace
	case a.Name != b.Name:
		return a.Name < b.Name
	}
	return a.UID < b.UID
}

// getAlternateOwnerIdentity looks among deps' references to absent.UID for
// another identity the owner might have (other coordinates, or another
// namespace), once absent is verified not to exist. It returns the first
// alternate after absent in referenceLessThan order, wrapping around to
// the first; nil when there is none. Cycling through the alternates this
// way verifies each in turn.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (getAlternateOwnerIdentity).
func getAlternateOwnerIdentity(deps []*node, absent objectReference) *objectReference {
	absentIsClusterScoped := absent.Namespace == ""
	seen := map[objectReference]bool{absent: true}
	var first, firstFollowing *objectReference
	for _, dep := range deps {
		for _, ref := range dep.getOwners() {
			if ref.UID != absent.UID {
				continue
			}
			if ownerReferenceMatchesCoordinates(ref, absent.OwnerReference) &&
				(absentIsClusterScoped || absent.Namespace == dep.identity.Namespace) {
				continue // the identity just verified absent
			}
			alt := objectReference{OwnerReference: ownerReferenceCoordinates(ref), Namespace: dep.identity.Namespace}
			if absentIsClusterScoped && alt.APIVersion == absent.APIVersion && alt.Kind == absent.Kind {
				// This kind is known to be cluster-scoped.
				alt.Namespace = ""
			}
			if seen[alt] {
				continue
			}
			seen[alt] = true
			if first == nil || referenceLessThan(alt, *first) {
				first = &alt
			}
			if referenceLessThan(absent, alt) && (firstFollowing == nil || referenceLessThan(alt, *firstFollowing)) {
				firstFollowing = &alt
			}
		}
	}
	if firstFollowing != nil {
		return firstFollowing
	}
	return first
}

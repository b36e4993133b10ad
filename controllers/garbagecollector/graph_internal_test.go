package garbagecollector

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func ownerRef(kind, name, uid string, block *bool) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: "v1", Kind: kind, Name: name, UID: uid, BlockOwnerDeletion: block}
}

func dependent(ns, name string, owners ...metav1.OwnerReference) *node {
	n := newNode(objectReference{OwnerReference: metav1.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: name, UID: "uid-" + name}, Namespace: ns})
	n.owners = owners
	return n
}

func TestReferencesDiffs(t *testing.T) {
	yes, no := true, false
	a, b, c := ownerRef("ConfigMap", "a", "1", nil), ownerRef("ConfigMap", "b", "2", &yes), ownerRef("ConfigMap", "c", "3", nil)
	bUnblocked := ownerRef("ConfigMap", "b", "2", &no)
	tests := []struct {
		name           string
		old, new       []metav1.OwnerReference
		added, removed []metav1.OwnerReference
		changed        []ownerRefPair
	}{
		{name: "none", old: nil, new: nil},
		{name: "same", old: []metav1.OwnerReference{a, b}, new: []metav1.OwnerReference{b, a}},
		{name: "added", old: []metav1.OwnerReference{a}, new: []metav1.OwnerReference{a, c}, added: []metav1.OwnerReference{c}},
		{name: "removed in old order", old: []metav1.OwnerReference{a, b, c}, new: nil, removed: []metav1.OwnerReference{a, b, c}},
		{name: "changed blockOwnerDeletion", old: []metav1.OwnerReference{b}, new: []metav1.OwnerReference{bUnblocked},
			changed: []ownerRefPair{{oldRef: b, newRef: bUnblocked}}},
		{name: "equal pointers by value", old: []metav1.OwnerReference{b}, new: []metav1.OwnerReference{ownerRef("ConfigMap", "b", "2", new(true))}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			added, removed, changed := referencesDiffs(tc.old, tc.new)
			assert.Equal(t, tc.added, added, "added")
			assert.Equal(t, tc.removed, removed, "removed")
			assert.Equal(t, tc.changed, changed, "changed")
		})
	}
}

func TestPartitionDependents(t *testing.T) {
	owner := objectReference{OwnerReference: ownerRefCoordinates("ConfigMap", "owner", "u"), Namespace: "default"}
	good := dependent("default", "good", ownerRef("ConfigMap", "owner", "u", nil))
	wrongName := dependent("default", "wrong-name", ownerRef("ConfigMap", "other", "u", nil))
	elsewhere := dependent("other", "elsewhere", ownerRef("ConfigMap", "owner", "u", nil))
	both := dependent("default", "both", ownerRef("ConfigMap", "owner", "u", nil), ownerRef("Secret", "owner", "u", nil))

	matching, nonmatching := partitionDependents([]*node{good, wrongName, elsewhere, both}, owner)
	assert.ElementsMatch(t, []*node{good, both}, matching)
	assert.ElementsMatch(t, []*node{wrongName, elsewhere, both}, nonmatching)

	// A cluster-scoped owner can own objects of every namespace.
	clusterOwner := owner
	clusterOwner.Namespace = ""
	matching, nonmatching = partitionDependents([]*node{good, elsewhere}, clusterOwner)
	assert.ElementsMatch(t, []*node{good, elsewhere}, matching)
	assert.Empty(t, nonmatching)
}

func ownerRefCoordinates(kind, name, uid string) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: "v1", Kind: kind, Name: name, UID: uid}
}

// Alternates are visited in order, wrapping around, so each identity the
// dependents give is verified once per round.
func TestGetAlternateOwnerIdentity(t *testing.T) {
	deps := []*node{
		dependent("default", "p1", ownerRef("ConfigMap", "a", "u", nil)),
		dependent("default", "p2", ownerRef("ConfigMap", "b", "u", nil)),
		dependent("default", "p3", ownerRef("Secret", "a", "u", nil)),
		dependent("default", "p4", ownerRef("ConfigMap", "zzz", "other-uid", nil)),
	}
	ident := func(kind, name string) objectReference {
		return objectReference{OwnerReference: ownerRefCoordinates(kind, name, "u"), Namespace: "default"}
	}
	tests := []struct {
		absent objectReference
		want   *objectReference
	}{
		{absent: ident("ConfigMap", "a"), want: new(ident("ConfigMap", "b"))},
		{absent: ident("ConfigMap", "b"), want: new(ident("Secret", "a"))},
		{absent: ident("Secret", "a"), want: new(ident("ConfigMap", "a"))}, // wraps around
	}
	for _, tc := range tests {
		t.Run(tc.absent.String(), func(t *testing.T) {
			assert.Equal(t, tc.want, getAlternateOwnerIdentity(deps, tc.absent))
		})
	}
	assert.Nil(t, getAlternateOwnerIdentity(deps[:1], ident("ConfigMap", "a")), "no other identity")
}

func TestBlockingDependents(t *testing.T) {
	yes, no := true, false
	owner := newNode(objectReference{OwnerReference: ownerRefCoordinates("ConfigMap", "owner", "u"), Namespace: "default"})
	blocking := dependent("default", "blocking", ownerRef("ConfigMap", "owner", "u", &yes))
	unblocked := dependent("default", "unblocked", ownerRef("ConfigMap", "owner", "u", &no))
	unset := dependent("default", "unset", ownerRef("ConfigMap", "owner", "u", nil))
	blocksAnother := dependent("default", "blocks-another", ownerRef("ConfigMap", "owner", "u", nil), ownerRef("ConfigMap", "x", "x", &yes))
	for _, d := range []*node{blocking, unblocked, unset, blocksAnother} {
		owner.addDependent(d)
	}
	assert.Equal(t, []*node{blocking}, owner.blockingDependents())
}

func TestReferenceCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := newReferenceCache(3)
	ref := func(i int) objectReference {
		return objectReference{OwnerReference: ownerRefCoordinates("ConfigMap", fmt.Sprint(i), fmt.Sprint(i)), Namespace: "default"}
	}
	for i := range 3 {
		c.add(ref(i))
	}
	require.True(t, c.has(ref(0)), "0 is used: now the most recent")
	c.add(ref(3))
	assert.False(t, c.has(ref(1)), "1 was the least recently used: evicted")
	for _, i := range []int{0, 2, 3} {
		assert.True(t, c.has(ref(i)), "%d kept", i)
	}
	blocking := ref(2)
	blocking.BlockOwnerDeletion = new(true)
	assert.True(t, c.has(blocking), "blockOwnerDeletion does not make another owner")
}

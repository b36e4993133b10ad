package garbagecollector_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
)

// Deleting an owner with Orphan removes its reference from every
// dependent, then lets the owner go; the dependents stay, keeping their
// other owners.
func TestOrphanLeavesDependentsWithoutTheReference(t *testing.T) {
	e := newStartedEnv(t)
	cms, pods := e.cs.ConfigMaps("default"), e.cs.Pods("default")
	parent := e.createConfigMap(t, "default", "parent")
	other := e.createConfigMap(t, "default", "other")
	controller := cmRef(parent, ptr(true))
	controller.Controller = ptr(true)
	e.createPod(t, "default", "only-parent", controller)
	e.createPod(t, "default", "two-owners", controller, cmRef(other, nil))
	e.createConfigMap(t, "default", "cm-kid", cmRef(parent, nil))
	e.waitIdle(t)

	log := watchChanges(t, e.cs, "default")
	deleteWith(t, cms, "parent", metav1.DeletePropagationOrphan)
	waiting := log.waitFor(t, "parent waiting to orphan", func(c change) bool {
		return c.name == "parent" && c.typ == watch.Modified && c.meta.DeletionTimestamp != nil
	})
	assert.Equal(t, []string{"orphan"}, waiting.meta.Finalizers)
	parentGone := log.waitDeleted(t, "ConfigMap", "parent")

	// Every dependent lost the reference before the owner went.
	for _, kid := range []struct{ kind, name string }{{"Pod", "only-parent"}, {"Pod", "two-owners"}, {"ConfigMap", "cm-kid"}} {
		orphaned := log.waitFor(t, kid.name+" orphaned", func(c change) bool {
			return c.kind == kid.kind && c.name == kid.name && c.typ == watch.Modified &&
				!slices.ContainsFunc(c.meta.OwnerReferences, func(r metav1.OwnerReference) bool { return r.UID == parent.UID })
		})
		assert.Less(t, orphaned.rv, parentGone.rv, "%s orphaned (rv %d) before the owner went (rv %d)", kid.name, orphaned.rv, parentGone.rv)
	}

	e.waitIdle(t)
	p, ok := get(t, pods, "only-parent")
	require.True(t, ok, "orphaned, not deleted")
	assert.Empty(t, p.OwnerReferences)
	p, ok = get(t, pods, "two-owners")
	require.True(t, ok, "orphaned, not deleted")
	assert.Equal(t, []string{other.UID}, ownerUIDs(p), "the other owner's reference stays")
	cm, ok := get(t, cms, "cm-kid")
	require.True(t, ok, "orphaned, not deleted")
	assert.Empty(t, cm.OwnerReferences)
}

// The deprecated orphanDependents=true orphans as Orphan does.
func TestOrphanDependentsOption(t *testing.T) {
	e := newStartedEnv(t)
	cms, pods := e.cs.ConfigMaps("default"), e.cs.Pods("default")
	parent := e.createConfigMap(t, "default", "parent")
	e.createPod(t, "default", "kid", cmRef(parent, nil))
	e.waitIdle(t)

	require.NoError(t, cms.Delete(t.Context(), "parent", metav1.DeleteOptions{OrphanDependents: ptr(true)}))
	waitGone(t, cms, "parent")
	e.waitIdle(t)
	p, ok := get(t, pods, "kid")
	require.True(t, ok, "orphaned, not deleted")
	assert.Empty(t, p.OwnerReferences)
}

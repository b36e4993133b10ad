package garbagecollector_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
)

// Deleting the root of root <- child <- grandchild (the default,
// Background) deletes the child once the root is gone, and the grandchild
// once the child is; an unrelated object stays.
func TestBackgroundCascadeThroughThreeLevels(t *testing.T) {
	e := newStartedEnv(t)
	cms, pods := e.cs.ConfigMaps("default"), e.cs.Pods("default")
	root := e.createConfigMap(t, "default", "root")
	child := e.createConfigMap(t, "default", "child", cmRef(root, nil))
	e.createPod(t, "default", "grandchild", cmRef(child, nil))
	bystander := e.createPod(t, "default", "bystander")
	e.waitIdle(t)
	_, ok := get(t, pods, "grandchild")
	require.True(t, ok, "nothing is collected while its owners exist")

	require.NoError(t, cms.Delete(t.Context(), "root", metav1.DeleteOptions{}))
	waitGone(t, cms, "child")
	waitGone(t, pods, "grandchild")

	e.waitIdle(t)
	got, ok := get(t, pods, "bystander")
	require.True(t, ok, "an object without owners is never garbage")
	assert.Equal(t, bystander.UID, got.UID)
}

// A ReplicaSet's pods go with it.
func TestBackgroundDeleteOfReplicaSet(t *testing.T) {
	e := newStartedEnv(t)
	e.createReplicaSet(t, "web", "web-1", "web-2")
	e.waitIdle(t)

	require.NoError(t, e.cs.ReplicaSets("default").Delete(t.Context(), "web", metav1.DeleteOptions{}))
	for _, name := range []string{"web-1", "web-2"} {
		waitGone(t, e.cs.Pods("default"), name)
	}
}

// A dependent with two owners loses only the reference to the one
// deleted; it goes when the second goes.
func TestDependentWithTwoOwnersSurvivesOne(t *testing.T) {
	e := newStartedEnv(t)
	cms, pods := e.cs.ConfigMaps("default"), e.cs.Pods("default")
	first := e.createConfigMap(t, "default", "first")
	second := e.createConfigMap(t, "default", "second")
	shared := e.createPod(t, "default", "shared", cmRef(first, nil), cmRef(second, nil))
	e.waitIdle(t)

	require.NoError(t, cms.Delete(t.Context(), "first", metav1.DeleteOptions{}))
	got := waitFor(t, pods, "shared", "the reference to first removed", func(p *corev1.Pod, exists bool) bool {
		require.True(t, exists, "shared still has an owner: it must not be deleted")
		return len(p.OwnerReferences) == 1
	})
	assert.Equal(t, []string{second.UID}, ownerUIDs(got), "only the live owner is left")
	assert.Equal(t, shared.UID, got.UID, "the same pod, patched")

	e.waitIdle(t)
	_, ok := get(t, pods, "shared")
	require.True(t, ok, "still there once the collector is idle")

	require.NoError(t, cms.Delete(t.Context(), "second", metav1.DeleteOptions{}))
	waitGone(t, pods, "shared")
}

// Owners that never existed, or whose name now belongs to another object
// (another uid), are found absent at startup by a live lookup, and their
// dependents are deleted; a dependent of a live owner stays.
func TestDanglingOwnerAtStartup(t *testing.T) {
	e := newEnv(t)
	pods := e.cs.Pods("default")
	live := e.createConfigMap(t, "default", "live")
	e.createPod(t, "default", "never-existed", metav1.OwnerReference{
		APIVersion: "v1", Kind: "ConfigMap", Name: "ghost", UID: "00000000-0000-0000-0000-00000000dead"})
	e.createPod(t, "default", "stale-uid", metav1.OwnerReference{
		APIVersion: "v1", Kind: "ConfigMap", Name: "live", UID: "00000000-0000-0000-0000-00000000beef"})
	e.createPod(t, "default", "owned", cmRef(live, nil))

	e.start(t)
	waitGone(t, pods, "never-existed")
	waitGone(t, pods, "stale-uid")
	e.waitIdle(t)
	_, ok := get(t, pods, "owned")
	assert.True(t, ok, "a pod whose owner exists stays")
	_, ok = get(t, e.cs.ConfigMaps("default"), "live")
	assert.True(t, ok, "the owner named by a stale reference is not touched")
}

// A cluster-scoped owner (a Node) can own namespaced objects.
func TestClusterScopedOwner(t *testing.T) {
	e := newStartedEnv(t)
	node, err := e.cs.Nodes().Create(t.Context(), &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, client.WriteOptions{})
	require.NoError(t, err)
	e.seen.created(t, "nodes", node)
	e.createPod(t, "default", "on-node", ref(node, "v1", "Node", nil))
	e.waitIdle(t)
	_, ok := get(t, e.cs.Pods("default"), "on-node")
	require.True(t, ok, "a cluster-scoped owner is a valid owner")

	require.NoError(t, e.cs.Nodes().Delete(t.Context(), "n1", metav1.DeleteOptions{}))
	waitGone(t, e.cs.Pods("default"), "on-node")
}

// A reference to a namespaced owner in another namespace is invalid: the
// collector records an OwnerRefInvalidNamespace event on the dependent and
// treats the owner as absent.
func TestOwnerInAnotherNamespace(t *testing.T) {
	e := newStartedEnv(t)
	e.createNamespace(t, "other")
	owner := e.createConfigMap(t, "other", "owner")
	// The owner is in the graph before the dependent shows up.
	e.waitIdle(t)
	e.createPod(t, "default", "misplaced", cmRef(owner, nil))

	waitGone(t, e.cs.Pods("default"), "misplaced")
	ev := waitForEvent(t, e.cs, "default", "OwnerRefInvalidNamespace")
	assert.Equal(t, "misplaced", ev.InvolvedObject.Name)
	assert.Equal(t, corev1.EventTypeWarning, ev.Type)
	assert.Contains(t, ev.Message, `does not exist in namespace "default"`)
	assert.Equal(t, "garbage-collector-controller", ev.Source.Component)
	_, ok := get(t, e.cs.ConfigMaps("other"), "owner")
	assert.True(t, ok, "the owner itself is not touched")
}

// An ownerReference whose uid is a live owner's but whose name is not
// names no object: the dependent is garbage.
func TestReferenceWithWrongNameDangles(t *testing.T) {
	e := newStartedEnv(t)
	owner := e.createConfigMap(t, "default", "owner")
	e.waitIdle(t)
	bad := cmRef(owner, nil)
	bad.Name = "not-the-owner"
	e.createPod(t, "default", "misnamed", bad)
	good := e.createPod(t, "default", "named", cmRef(owner, nil))

	waitGone(t, e.cs.Pods("default"), "misnamed")
	e.waitIdle(t)
	got, ok := get(t, e.cs.Pods("default"), "named")
	require.True(t, ok, "a correct reference to the same owner keeps its dependent")
	assert.Equal(t, good.UID, got.UID)
}

// A cluster-scoped object cannot have a namespaced owner: the reference is
// invalid, not dangling, and the object is left alone.
func TestClusterScopedDependentOfNamespacedKindIsKept(t *testing.T) {
	e := newStartedEnv(t)
	owner := e.createConfigMap(t, "default", "owner")
	node, err := e.cs.Nodes().Create(t.Context(), &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1",
		OwnerReferences: []metav1.OwnerReference{cmRef(owner, nil)}}}, client.WriteOptions{})
	require.NoError(t, err)
	e.seen.created(t, "nodes", node)
	e.waitIdle(t)
	_, ok := get(t, e.cs.Nodes(), "n1")
	assert.True(t, ok, "not collected while its owner exists")

	require.NoError(t, e.cs.ConfigMaps("default").Delete(t.Context(), "owner", metav1.DeleteOptions{}))
	waitGone(t, e.cs.ConfigMaps("default"), "owner")
	e.waitIdle(t)
	_, ok = get(t, e.cs.Nodes(), "n1")
	assert.True(t, ok, "an invalid reference does not make the node garbage")
}

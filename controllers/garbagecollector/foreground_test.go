package garbagecollector_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
)

// A foreground deletion deletes the dependents before the owner, and
// their own dependents before them:
//
//	root <- pod       (blocking)
//	root <- mid <- leaf (blocking)
//
// The order is read from the watch events' revisions.
func TestForegroundDeletesDependentsFirst(t *testing.T) {
	e := newStartedEnv(t)
	block := ptr(true)
	root := e.createConfigMap(t, "default", "root")
	mid := e.createConfigMap(t, "default", "mid", cmRef(root, block))
	e.createPod(t, "default", "pod", cmRef(root, block))
	e.createPod(t, "default", "leaf", cmRef(mid, block))
	e.waitIdle(t)

	log := watchChanges(t, e.cs, "default")
	deleteWith(t, e.cs.ConfigMaps("default"), "root", metav1.DeletePropagationForeground)

	waiting := log.waitFor(t, "root waiting for its dependents", func(c change) bool {
		return c.kind == "ConfigMap" && c.name == "root" && c.typ == watch.Modified && c.meta.DeletionTimestamp != nil
	})
	assert.Equal(t, []string{"foregroundDeletion"}, waiting.meta.Finalizers)

	rootGone := log.waitDeleted(t, "ConfigMap", "root")
	midGone := log.waitDeleted(t, "ConfigMap", "mid")
	podGone := log.waitDeleted(t, "Pod", "pod")
	leafGone := log.waitDeleted(t, "Pod", "leaf")
	assert.Less(t, podGone.rv, rootGone.rv, "pod deleted (rv %d) before root (rv %d)", podGone.rv, rootGone.rv)
	assert.Less(t, midGone.rv, rootGone.rv, "mid deleted (rv %d) before root (rv %d)", midGone.rv, rootGone.rv)
	assert.Less(t, leafGone.rv, midGone.rv, "leaf deleted (rv %d) before mid (rv %d)", leafGone.rv, midGone.rv)

	// mid had dependents of its own: it was deleted in the foreground too.
	midWaiting := log.waitFor(t, "mid waiting for leaf", func(c change) bool {
		return c.kind == "ConfigMap" && c.name == "mid" && c.typ == watch.Modified && c.meta.DeletionTimestamp != nil
	})
	assert.Contains(t, midWaiting.meta.Finalizers, "foregroundDeletion")
	assert.Less(t, midWaiting.rv, leafGone.rv, "mid started waiting before leaf went")
}

// Only dependents with blockOwnerDeletion=true hold a foreground
// deletion: a non-blocking dependent is deleted too, but the owner does
// not wait for it. Each dependent here has a finalizer of its own, so it
// stays (being deleted) until the test removes it.
func TestForegroundWaitsOnlyForBlockingDependents(t *testing.T) {
	e := newStartedEnv(t)
	cms, pods := e.cs.ConfigMaps("default"), e.cs.Pods("default")
	owner := e.createConfigMap(t, "default", "owner")
	held := func(name string, block bool) {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Finalizers: []string{"example.com/hold"},
				OwnerReferences: []metav1.OwnerReference{cmRef(owner, ptr(block))}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
		}
		e.createPodObject(t, p)
	}
	held("blocking", true)
	held("free", false)
	e.waitIdle(t)

	deleteWith(t, cms, "owner", metav1.DeletePropagationForeground)
	beingDeleted := func(p *corev1.Pod, exists bool) bool { return exists && p.DeletionTimestamp != nil }
	waitFor(t, pods, "blocking", "deletion started by the collector", beingDeleted)
	waitFor(t, pods, "free", "deletion started by the collector", beingDeleted)
	e.waitIdle(t)
	got, ok := get(t, cms, "owner")
	require.True(t, ok, "the owner waits for its blocking dependent")
	assert.Equal(t, []string{"foregroundDeletion"}, got.Finalizers)

	// The blocking dependent goes: so does the owner, while the
	// non-blocking one is still there.
	release(t, e, "blocking")
	waitGone(t, pods, "blocking")
	waitGone(t, cms, "owner")
	_, ok = get(t, pods, "free")
	assert.True(t, ok, "the owner did not wait for the non-blocking dependent")

	release(t, e, "free")
	waitGone(t, pods, "free")
}

// A foreground deletion with only non-blocking dependents finishes at
// once, even while they stay.
func TestForegroundWithoutBlockingDependents(t *testing.T) {
	e := newStartedEnv(t)
	cms, pods := e.cs.ConfigMaps("default"), e.cs.Pods("default")
	owner := e.createConfigMap(t, "default", "owner")
	e.createPodObject(t, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "free", Finalizers: []string{"example.com/hold"},
			OwnerReferences: []metav1.OwnerReference{cmRef(owner, nil)}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	})
	e.waitIdle(t)

	deleteWith(t, cms, "owner", metav1.DeletePropagationForeground)
	waitGone(t, cms, "owner")
	got := waitFor(t, pods, "free", "deletion started by the collector",
		func(p *corev1.Pod, exists bool) bool { return exists && p.DeletionTimestamp != nil })
	assert.Equal(t, []string{"example.com/hold"}, got.Finalizers, "its own finalizer holds it")
	release(t, e, "free")
	waitGone(t, pods, "free")
}

// release removes a test pod's hold finalizer.
func release(t *testing.T, e *env, name string) {
	t.Helper()
	_, err := e.cs.Pods("default").Patch(t.Context(), name, client.MergePatchType,
		[]byte(`{"metadata":{"finalizers":null}}`), client.WriteOptions{})
	require.NoError(t, err, "release %s", name)
}

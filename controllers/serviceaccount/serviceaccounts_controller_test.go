package serviceaccount_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
)

// TestDefaultServiceAccountInEveryNamespace: the system namespaces the API
// server made before the controller started, and a namespace made after,
// each get a "default" service account, created once.
func TestDefaultServiceAccountInEveryNamespace(t *testing.T) {
	h := newHarness(t)
	ctx := testContext(t)
	w := h.watchServiceAccounts(t, ctx)
	_, err := h.cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}, client.WriteOptions{})
	require.NoError(t, err, "create namespace team-a")

	want := []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic, metav1.NamespaceNodeLease, "team-a"}
	missing := map[string]bool{}
	for _, ns := range want {
		missing[ns] = true
	}
	for len(missing) > 0 {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "watch ended; still missing %v", missing)
			if sa, isSA := ev.Object.(*corev1.ServiceAccount); isSA && ev.Type == watch.Added && sa.Name == "default" {
				delete(missing, sa.Namespace)
			}
		case <-ctx.Done():
			t.Fatalf("no default service account in %v: %v", missing, ctx.Err())
		}
	}
	require.NoError(t, h.mgr.WaitIdle(ctx), "WaitIdle")
	for _, ns := range []string{metav1.NamespaceDefault, "team-a"} {
		assert.Equal(t, 1, h.tap.acceptedIn(ns), "the controller created %s/default exactly once", ns)
	}
}

// TestDefaultServiceAccountIsRecreated: deleting "default" brings a new
// one; deleting another service account does not.
func TestDefaultServiceAccountIsRecreated(t *testing.T) {
	h := newHarness(t)
	ctx := testContext(t)
	w := h.watchServiceAccounts(t, ctx)
	_, err := h.cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-b"}}, client.WriteOptions{})
	require.NoError(t, err, "create namespace team-b")
	first := waitForAdded(t, ctx, w, "team-b", "default", "")
	sas := h.cs.ServiceAccounts("team-b")
	_, err = sas.Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "builder"}}, client.WriteOptions{})
	require.NoError(t, err, "create serviceaccount builder")

	builderGone := h.observed(t, &corev1.ServiceAccount{}, func(obj any) bool {
		d, ok := obj.(deleted)
		sa, isSA := d.obj.(*corev1.ServiceAccount)
		return ok && isSA && sa.Namespace == "team-b" && sa.Name == "builder"
	})
	require.NoError(t, sas.Delete(ctx, "default", metav1.DeleteOptions{}), "delete default")
	require.NoError(t, sas.Delete(ctx, "builder", metav1.DeleteOptions{}), "delete builder")

	second := waitForAdded(t, ctx, w, "team-b", "default", first.UID)
	assert.NotEqual(t, first.UID, second.UID, "a new default service account")
	wait(t, ctx, builderGone, "the manager did not see builder's deletion")
	require.NoError(t, h.mgr.WaitIdle(ctx), "WaitIdle")
	_, err = sas.Get(ctx, "builder", client.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "builder is not the controller's to recreate: %v", err)
	assert.Equal(t, 2, h.tap.acceptedIn("team-b"), "one create per default service account")
}

// TestNoServiceAccountInTerminatingNamespace: once a namespace is
// Terminating, deleting its "default" service account does not make the
// controller try to create one again (the API server would refuse it).
func TestNoServiceAccountInTerminatingNamespace(t *testing.T) {
	h := newHarness(t)
	ctx := testContext(t)
	w := h.watchServiceAccounts(t, ctx)
	_, err := h.cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "leaving"}}, client.WriteOptions{})
	require.NoError(t, err, "create namespace leaving")
	waitForAdded(t, ctx, w, "leaving", "default", "")

	terminating := h.observed(t, &corev1.Namespace{}, func(obj any) bool {
		ns, ok := obj.(*corev1.Namespace)
		return ok && ns.Name == "leaving" && ns.Status.Phase == corev1.NamespaceTerminating
	})
	// No namespace controller runs: the namespace stays Terminating.
	require.NoError(t, h.cs.Namespaces().Delete(ctx, "leaving", metav1.DeleteOptions{}), "delete namespace leaving")
	wait(t, ctx, terminating, "the manager did not see leaving Terminating")

	saGone := h.observed(t, &corev1.ServiceAccount{}, func(obj any) bool {
		d, ok := obj.(deleted)
		sa, isSA := d.obj.(*corev1.ServiceAccount)
		return ok && isSA && sa.Namespace == "leaving" && sa.Name == "default"
	})
	require.NoError(t, h.cs.ServiceAccounts("leaving").Delete(ctx, "default", metav1.DeleteOptions{}), "delete default")
	wait(t, ctx, saGone, "the manager did not see default's deletion")
	require.NoError(t, h.mgr.WaitIdle(ctx), "WaitIdle")

	assert.Equal(t, 1, h.tap.createsIn("leaving"), "no create was tried once the namespace was Terminating")
	_, err = h.cs.ServiceAccounts("leaving").Get(ctx, "default", client.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "no default service account in a Terminating namespace: %v", err)
}

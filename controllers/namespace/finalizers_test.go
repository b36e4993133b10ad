package namespace_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/serviceaccount"
)

// TestFinalizerKeepsNamespaceTerminating: the controller waits out the
// deletion grace period, deletes what it can (a configmap, a secret, a
// service, which has no deletecollection), and keeps the namespace
// Terminating with NamespaceContentRemaining and
// NamespaceFinalizersRemaining while an object waits on its own finalizer.
// Once that finalizer is removed, the namespace goes; another namespace's
// content is never touched.
func TestFinalizerKeepsNamespaceTerminating(t *testing.T) {
	h := newAPIHarness(t)
	ctx := testContext(t)
	for _, name := range []string{"held", "bystander"} {
		_, err := h.cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, client.WriteOptions{})
		require.NoError(t, err, "create namespace %s", name)
	}
	cms := h.cs.ConfigMaps("held")
	_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "pinned", Finalizers: []string{"example.com/hold"}}}, client.WriteOptions{})
	require.NoError(t, err, "create configmap pinned")
	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "free"}}, client.WriteOptions{})
	require.NoError(t, err, "create configmap free")
	_, err = h.cs.Secrets("held").Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "token"}}, client.WriteOptions{})
	require.NoError(t, err, "create secret")
	_, err = h.cs.Services("held").Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}}, client.WriteOptions{})
	require.NoError(t, err, "create service")
	_, err = h.cs.ConfigMaps("bystander").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "keep"}}, client.WriteOptions{})
	require.NoError(t, err, "create configmap keep")
	w := h.watchNamespaces(t, ctx)

	h.deleting(t, ctx, "held")
	list, err := cms.List(ctx, client.ListOptions{})
	require.NoError(t, err, "list configmaps")
	assert.Len(t, list.Items, 2, "nothing is deleted within the deletion grace period")

	h.step(t, ctx, 5*time.Second)
	ns, err := h.cs.Namespaces().Get(ctx, "held", client.GetOptions{})
	require.NoError(t, err, "the namespace waits for the finalizer")
	assert.Equal(t, corev1.NamespaceTerminating, ns.Status.Phase)
	assert.Equal(t, []corev1.FinalizerName{corev1.FinalizerKubernetes}, ns.Spec.Finalizers, "not finalized while content remains")
	remaining := condition(t, ns, corev1.NamespaceContentRemaining)
	assert.Equal(t, corev1.ConditionTrue, remaining.Status)
	assert.Equal(t, "SomeResourcesRemain", remaining.Reason)
	assert.Equal(t, "Some resources are remaining: configmaps. has 1 resource instances", remaining.Message)
	finalizers := condition(t, ns, corev1.NamespaceFinalizersRemaining)
	assert.Equal(t, corev1.ConditionTrue, finalizers.Status)
	assert.Equal(t, "SomeFinalizerRemain", finalizers.Reason)
	assert.Equal(t, "Some finalizers are remaining: example.com/hold in 1 resource instances", finalizers.Message)
	assert.True(t, finalizers.LastTransitionTime.Equal(h.clk.Now()), "stamped on the controller's clock: %v", finalizers.LastTransitionTime)
	for _, ct := range []corev1.NamespaceConditionType{corev1.NamespaceDeletionContentFailure,
		corev1.NamespaceDeletionDiscoveryFailure, corev1.NamespaceDeletionGVParsingFailure} {
		assert.Equal(t, corev1.ConditionFalse, condition(t, ns, ct).Status, "%s", ct)
	}

	pinned, err := cms.Get(ctx, "pinned", client.GetOptions{})
	require.NoError(t, err, "pinned waits on its finalizer")
	assert.NotNil(t, pinned.DeletionTimestamp, "pinned is being deleted")
	_, err = cms.Get(ctx, "free", client.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "configmap free deleted: %v", err)
	_, err = h.cs.Secrets("held").Get(ctx, "token", client.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "secret deleted: %v", err)
	_, err = h.cs.Services("held").Get(ctx, "web", client.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "service deleted one by one: %v", err)

	// Looking again (after 15s/2+1) changes nothing while the finalizer
	// stays.
	h.step(t, ctx, 8*time.Second)
	ns, err = h.cs.Namespaces().Get(ctx, "held", client.GetOptions{})
	require.NoError(t, err, "the namespace still waits for the finalizer")
	assert.Equal(t, finalizers, condition(t, ns, corev1.NamespaceFinalizersRemaining), "unchanged, transition time too")

	pinned.Finalizers = nil
	_, err = cms.Update(ctx, pinned, client.WriteOptions{})
	require.NoError(t, err, "remove pinned's finalizer")
	gone := h.stepUntilGone(t, ctx, w, "held", 8*time.Second)
	assert.Empty(t, gone.Spec.Finalizers, "finalized before removal")

	_, err = h.cs.ConfigMaps("bystander").Get(ctx, "keep", client.GetOptions{})
	assert.NoError(t, err, "another namespace's content stays")
}

// TestOtherSpecFinalizerKeepsNamespace: the controller removes only its
// own "kubernetes" finalizer; a namespace with another one stays
// Terminating until whoever owns it finalizes it too, and then the API
// server removes it.
func TestOtherSpecFinalizerKeepsNamespace(t *testing.T) {
	h := newAPIHarness(t)
	ctx := testContext(t)
	_, err := h.cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shared"},
		Spec: corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"example.com/other"}}}, client.WriteOptions{})
	require.NoError(t, err, "create namespace shared")
	w := h.watchNamespaces(t, ctx)

	h.deleting(t, ctx, "shared")
	h.step(t, ctx, 5*time.Second)
	ns, err := h.cs.Namespaces().Get(ctx, "shared", client.GetOptions{})
	require.NoError(t, err, "the other finalizer keeps the namespace")
	assert.Equal(t, []corev1.FinalizerName{"example.com/other"}, ns.Spec.Finalizers, "only kubernetes removed")
	assert.Equal(t, corev1.NamespaceTerminating, ns.Status.Phase)
	remaining := condition(t, ns, corev1.NamespaceContentRemaining)
	assert.Equal(t, corev1.ConditionFalse, remaining.Status)
	assert.Equal(t, "ContentRemoved", remaining.Reason)

	// The other finalizer's owner finishes: the namespace goes.
	_, err = h.cs.Namespaces().Patch(ctx, "shared", client.MergePatchType,
		[]byte(`{"spec":{"finalizers":null}}`), client.WriteOptions{}, "finalize")
	require.NoError(t, err, "finalize example.com/other")
	waitDeleted(t, ctx, w, "shared")
}

// TestNamespaceDeletionWithServiceAccountController: with the
// ServiceAccount controller running too, the namespace's "default"
// service account is deleted with the rest and not brought back, and the
// namespace goes.
func TestNamespaceDeletionWithServiceAccountController(t *testing.T) {
	h := newAPIHarness(t, serviceaccount.Add)
	ctx := testContext(t)
	saw, err := h.cs.ServiceAccounts("team").Watch(ctx, client.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err, "watch serviceaccounts")
	defer saw.Stop()
	_, err = h.cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team"}}, client.WriteOptions{})
	require.NoError(t, err, "create namespace team")
	for created := false; !created; {
		select {
		case ev := <-saw.ResultChan():
			sa, ok := ev.Object.(*corev1.ServiceAccount)
			created = ok && ev.Type == watch.Added && sa.Name == serviceaccount.DefaultServiceAccountName
		case <-ctx.Done():
			t.Fatalf("no default service account in team: %v", ctx.Err())
		}
	}
	w := h.watchNamespaces(t, ctx)

	h.deleting(t, ctx, "team")
	h.stepUntilGone(t, ctx, w, "team", 5*time.Second)
	list, err := h.cs.ServiceAccounts("team").List(ctx, client.ListOptions{})
	require.NoError(t, err, "list serviceaccounts")
	assert.Empty(t, list.Items, "the default service account went with its namespace")
}

package operator

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/workshop/workshoptest"
)

// newCluster starts a cluster with the Website CRD installed, its types
// in the client's scheme, and PublishNamespace created, and returns the
// client and the websites of namespace default.
func newCluster(t *testing.T, controllers ...string) (*client.Clientset, *client.Resource[*Website, *WebsiteList]) {
	t.Helper()
	c := clustertest.New(t, clustertest.WithNodes(0), clustertest.WithControllers(controllers...),
		clustertest.WithCRDs(CRD()), clustertest.WithTypes(AddToScheme))
	cs := c.Clientset()
	_, err := cs.Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: PublishNamespace}}, client.WriteOptions{})
	require.NoError(t, err, "create namespace %s", PublishNamespace)
	websites, err := client.NewResource[*Website, *WebsiteList](cs.Client(), WebsitesGVR)
	require.NoError(t, err, "the websites client")
	return cs, websites.Namespace("default")
}

func newWebsite(name, message string) *Website {
	return &Website{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: WebsiteSpec{Message: message}}
}

// TestReconcile calls Reconcile by hand through a Website's life.
func TestReconcile(t *testing.T) {
	workshoptest.Require(t)
	cs, websites := newCluster(t)
	ctx := t.Context()
	r, err := NewReconciler(cs.Client())
	require.NoError(t, err, "NewReconciler")
	req := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "default", Name: "blog"}}
	published := cs.ConfigMaps(PublishNamespace)

	_, err = websites.Create(ctx, newWebsite("blog", "hello"), client.WriteOptions{})
	require.NoError(t, err, "create website blog")
	_, err = r.Reconcile(ctx, req)
	workshoptest.Check(t, err, "Reconcile(default/blog), the first time")

	w, err := websites.Get(ctx, "blog", client.GetOptions{})
	require.NoError(t, err, "get website blog")
	require.Contains(t, w.Finalizers, Finalizer, "website blog: metadata.finalizers after the first Reconcile")
	cm, err := published.Get(ctx, "default.blog", client.GetOptions{})
	require.NoError(t, err, "get the published configmap %s/default.blog", PublishNamespace)
	require.Equal(t, "hello", cm.Data[MessageKey], "the published message")
	require.Equal(t, WebsiteStatus{ObservedGeneration: w.Generation, Phase: PhasePublished, PublishedAs: PublishNamespace + "/default.blog"},
		w.Status, "website blog: status after the first Reconcile")

	t.Run("idempotent", func(t *testing.T) {
		_, err := r.Reconcile(ctx, req)
		workshoptest.Check(t, err, "Reconcile(default/blog), nothing changed")
		again, err := websites.Get(ctx, "blog", client.GetOptions{})
		require.NoError(t, err, "get website blog")
		require.Equal(t, w.ResourceVersion, again.ResourceVersion, "a Reconcile with nothing to do must not write the Website")
		cmAgain, err := published.Get(ctx, "default.blog", client.GetOptions{})
		require.NoError(t, err, "get the published configmap")
		require.Equal(t, cm.ResourceVersion, cmAgain.ResourceVersion, "a Reconcile with nothing to do must not write the ConfigMap")
	})

	t.Run("the spec changes", func(t *testing.T) {
		w, err := websites.Get(ctx, "blog", client.GetOptions{})
		require.NoError(t, err, "get website blog")
		w.Spec.Message = "hello again"
		w, err = websites.Update(ctx, w, client.WriteOptions{})
		require.NoError(t, err, "update website blog")
		_, err = r.Reconcile(ctx, req)
		workshoptest.Check(t, err, "Reconcile(default/blog) after the spec changed")
		cm, err := published.Get(ctx, "default.blog", client.GetOptions{})
		require.NoError(t, err, "get the published configmap")
		require.Equal(t, "hello again", cm.Data[MessageKey], "the published message after the spec changed")
		got, err := websites.Get(ctx, "blog", client.GetOptions{})
		require.NoError(t, err, "get website blog")
		require.Equal(t, w.Generation, got.Status.ObservedGeneration, "status.observedGeneration follows metadata.generation")
	})

	t.Run("delete", func(t *testing.T) {
		require.NoError(t, websites.Delete(ctx, "blog", metav1.DeleteOptions{}), "delete website blog")
		w, err := websites.Get(ctx, "blog", client.GetOptions{})
		require.NoError(t, err, "a deleted Website with our finalizer stays until the operator is done")
		require.NotNil(t, w.DeletionTimestamp, "website blog: deletionTimestamp after the delete")
		_, err = r.Reconcile(ctx, req)
		workshoptest.Check(t, err, "Reconcile(default/blog) after the delete")
		_, err = published.Get(ctx, "default.blog", client.GetOptions{})
		require.True(t, apierrors.IsNotFound(err), "the published configmap after the finalizing Reconcile: %v, want NotFound", err)
		_, err = websites.Get(ctx, "blog", client.GetOptions{})
		require.True(t, apierrors.IsNotFound(err), "website blog after its finalizer is removed: %v, want NotFound", err)
		_, err = r.Reconcile(ctx, req)
		workshoptest.Check(t, err, "Reconcile(default/blog) once it is gone")
	})
}

// TestOperator runs the controller in a manager: the watch on Websites
// calls Reconcile.
func TestOperator(t *testing.T) {
	workshoptest.Require(t)
	cs, websites := newCluster(t)
	ctx := t.Context()
	// A first Reconcile by hand, so that a skeleton fails here, at once.
	r, err := NewReconciler(cs.Client())
	require.NoError(t, err, "NewReconciler")
	_, err = r.Reconcile(ctx, reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "default", Name: "none"}})
	workshoptest.Check(t, err, "Reconcile(default/none)")
	clustertest.StartManager(t, cs.Client(), nil, Add)

	_, err = websites.Create(ctx, newWebsite("shop", "open"), client.WriteOptions{})
	require.NoError(t, err, "create website shop")
	w := clustertest.WaitFor(t, websites, "shop", "status.phase Published",
		func(w *Website, found bool) bool { return found && w.Status.Phase == PhasePublished })
	require.True(t, slices.Contains(w.Finalizers, Finalizer), "website shop: finalizers %v", w.Finalizers)
	clustertest.WaitFor(t, cs.ConfigMaps(PublishNamespace), "default.shop", "the message published",
		func(cm *corev1.ConfigMap, found bool) bool { return found && cm.Data[MessageKey] == "open" })

	require.NoError(t, websites.Delete(ctx, "shop", metav1.DeleteOptions{}), "delete website shop")
	clustertest.WaitFor(t, websites, "shop", "gone, once the operator removed its finalizer",
		func(_ *Website, found bool) bool { return !found })
	_, err = cs.ConfigMaps(PublishNamespace).Get(ctx, "default.shop", client.GetOptions{})
	require.True(t, apierrors.IsNotFound(err), "the published configmap after the Website is gone: %v, want NotFound", err)
}

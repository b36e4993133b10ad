package garbagecollector_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
)

// In a whole cluster (the controller-manager with every controller, a
// client over HTTPS), a CRD installed after start-up gets its custom
// resources collected as dependents, and their dependents collected.
func TestCustomResourcesInAWholeCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := clustertest.New(t, clustertest.WithNodes(0))
	cl := c.Clientset().Client()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	_, err := cluster.InstallCRDs(ctx, cl, []*apiextensionsv1.CustomResourceDefinition{developersCRD()})
	require.NoError(t, err, "install the Developer CRD")
	r, err := client.NewDynamicResource(ctx, cl, developersGVR)
	require.NoError(t, err)
	devs, cms := r.Namespace("default"), c.Clientset().ConfigMaps("default")

	team, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "team"}}, client.WriteOptions{})
	require.NoError(t, err)
	createDeveloper(t, devs, "member", cmRef(team, nil))
	lead := createDeveloper(t, devs, "lead")
	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "notes",
		OwnerReferences: []metav1.OwnerReference{devRef(lead, ptr(true))}}}, client.WriteOptions{})
	require.NoError(t, err)

	require.NoError(t, cms.Delete(ctx, "team", metav1.DeleteOptions{}))
	waitGone(t, devs, "member")
	// Background: whenever the collector sees notes, lead is gone. (The
	// foreground and orphan policies need the collector to have seen the
	// dependent first; the tests on an env wait for that.)
	require.NoError(t, devs.Delete(ctx, "lead", metav1.DeleteOptions{}))
	waitGone(t, cms, "notes")
}

package rootcacertpublisher_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/rootcacertpublisher"
)

const rootCA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"

// published reports whether cm holds the root CA and its description.
func published(cm *corev1.ConfigMap, found bool) bool {
	return found && cm.Data[rootcacertpublisher.CAKey] == rootCA &&
		cm.Annotations[rootcacertpublisher.DescriptionAnnotation] == rootcacertpublisher.Description
}

// TestPublishesInEveryNamespace: the system namespaces and a new one get
// the ConfigMap; a changed or deleted one is put back; other ConfigMaps
// are left alone.
func TestPublishesInEveryNamespace(t *testing.T) {
	api := apiservertest.New(t)
	cs := clustertest.InMemoryClientset(t, api)
	clustertest.StartManager(t, clustertest.InMemoryClient(t, api), nil, func(mgr *manager.Manager) error {
		return rootcacertpublisher.Add(mgr, []byte(rootCA))
	})
	ctx := t.Context()
	_, err := cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}, client.WriteOptions{})
	require.NoError(t, err)
	for _, ns := range []string{metav1.NamespaceDefault, metav1.NamespaceSystem, "team-a"} {
		clustertest.WaitFor(t, cs.ConfigMaps(ns), rootcacertpublisher.ConfigMapName, "published in "+ns, published)
	}

	cms := cs.ConfigMaps("team-a")
	cm, err := cms.Get(ctx, rootcacertpublisher.ConfigMapName, client.GetOptions{})
	require.NoError(t, err)
	cm.Data[rootcacertpublisher.CAKey] = "tampered"
	cm.Labels = map[string]string{"kept": "yes"}
	_, err = cms.Update(ctx, cm, client.WriteOptions{})
	require.NoError(t, err)
	got := clustertest.WaitFor(t, cms, rootcacertpublisher.ConfigMapName, "restored after an update", published)
	assert.Equal(t, "yes", got.Labels["kept"], "only the data and the description are the publisher's")

	require.NoError(t, cms.Delete(ctx, rootcacertpublisher.ConfigMapName, metav1.DeleteOptions{}))
	recreated := clustertest.WaitFor(t, cms, rootcacertpublisher.ConfigMapName, "recreated after a delete",
		func(cm *corev1.ConfigMap, found bool) bool { return published(cm, found) && cm.UID != got.UID })
	assert.NotEqual(t, got.UID, recreated.UID)
}

func TestAddNeedsRootCA(t *testing.T) {
	api := apiservertest.New(t)
	mgr, err := manager.New(manager.Options{Client: clustertest.InMemoryClient(t, api)})
	require.NoError(t, err)
	assert.ErrorIs(t, rootcacertpublisher.Add(mgr, nil), rootcacertpublisher.ErrNoRootCA)
}

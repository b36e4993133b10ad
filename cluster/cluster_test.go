package cluster_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/storage/storagetest"
)

// run starts a cluster with opts until the test ends: the package's own
// tests need every cluster.Options field, which clustertest.New does not
// expose.
func run(t *testing.T, opts cluster.Options) *cluster.Cluster {
	t.Helper()
	c, err := cluster.New(opts)
	require.NoError(t, err)
	running := clustertest.Start(t, c)
	select {
	case <-c.Ready():
	case <-running.Done():
		t.Fatal("the cluster stopped before it was ready")
	}
	return c
}

// TestExternalEtcd points a cluster at etcd endpoints, as
// --etcd-servers does, and checks two clusters on one etcd stay apart.
func TestExternalEtcd(t *testing.T) {
	t.Parallel()
	endpoints := storagetest.Endpoints(t)
	a := run(t, cluster.Options{EtcdServers: endpoints, StoragePrefix: storagetest.Prefix(t), DisableServiceNetwork: true})
	b := run(t, cluster.Options{EtcdServers: endpoints, StoragePrefix: storagetest.Prefix(t), DisableServiceNetwork: true})

	body := `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"only-in-a"}}`
	resp, err := a.HTTPClient().Post(a.URL()+"/api/v1/namespaces", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)

	resp, err = b.HTTPClient().Get(b.URL() + "/api/v1/namespaces/only-in-a")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "cluster b does not see cluster a's objects")
}

func TestTokenAuthFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tokens.csv")
	require.NoError(t, os.WriteFile(path, []byte("alice-token,alice,1001,\"dev,ops\"\n"), 0o600))
	c := startCluster(t, func(o *cluster.Options) { o.TokenAuthFile = path })

	get := func(token string) int {
		// Discovery, which the default policy lets every authenticated
		// user read: a 401 is a failed authentication, a 200 a passed one.
		req, err := http.NewRequestWithContext(t.Context(), "GET", c.URL()+"/api", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+token)
		client := &http.Client{Transport: &http.Transport{TLSClientConfig: c.TLSClientConfig()}}
		resp, err := client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, http.StatusOK, get("alice-token"), "a user from the token file")
	assert.Equal(t, http.StatusUnauthorized, get("mallory-token"))
}

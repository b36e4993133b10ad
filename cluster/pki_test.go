package cluster_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
)

// TestRestartKeepsCredentials: a cluster restarted on the same data
// keeps its CA and admin token, so a client configured before the
// restart (a kubeconfig) reaches the objects written before it.
func TestRestartKeepsCredentials(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an embedded etcd twice")
	}
	dir := t.TempDir()
	opts := cluster.Options{EtcdDataDir: filepath.Join(dir, "etcd"), PKIDir: filepath.Join(dir, "pki")}

	// start runs a cluster until the returned stop is called.
	start := func() (*cluster.Cluster, func()) {
		c, err := cluster.New(opts)
		require.NoError(t, err, "cluster.New")
		running := clustertest.Start(t, c)
		select {
		case <-c.Ready():
		case <-running.Done():
			t.Fatal("the cluster stopped before it was ready")
		}
		return c, running.Stop
	}

	before, stop := start()
	token, ca := before.Token(), before.CACertificate()
	// The client a kubeconfig written now would give: this CA, this token.
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: before.TLSClientConfig()}}
	do := func(method, url, body string) int {
		req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		require.NoError(t, err, "%s %s", method, url)
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Equal(t, http.StatusCreated, do("POST", before.URL()+"/api/v1/namespaces/default/configmaps",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"kept"}}`))
	stop()
	client.CloseIdleConnections()

	after, stop := start()
	defer stop()
	assert.Equal(t, token, after.Token(), "the admin token is kept")
	assert.Equal(t, string(ca), string(after.CACertificate()), "the CA is kept")
	assert.Equal(t, http.StatusOK, do("GET", after.URL()+"/api/v1/namespaces/default/configmaps/kept", ""),
		"the old client reaches the restarted cluster and its data")
}

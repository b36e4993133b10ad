package cluster_test

import (
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
)

// TestRestartKeepsCredentials: a cluster restarted on the same data
// keeps its CA, service account key and admin token, so a client
// configured before the restart (a kubeconfig, with a token or a client
// certificate) and a service account token issued before it reach the
// objects written before it.
func TestRestartKeepsCredentials(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts an embedded etcd twice")
	}
	dir := t.TempDir()
	opts := cluster.Options{EtcdDataDir: filepath.Join(dir, "etcd"), PKIDir: filepath.Join(dir, "pki"), DisableServiceNetwork: true}

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
		// Ready does not wait for the controllers: the aggregated
		// ClusterRole view gets its rules from the aggregation controller
		// a moment after a start.
		ctx, cancel := clustertest.WaitContext(t)
		defer cancel()
		require.NoError(t, c.WaitIdle(ctx), "WaitIdle")
		return c, running.Stop
	}

	before, stop := start()
	token, ca := before.Token(), before.CACertificate()
	// The client a kubeconfig written now would give: this CA, this token.
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: before.TLSClientConfig()}}
	doAs := func(bearer, method, url, body string) (int, []byte) {
		req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+bearer)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		require.NoError(t, err, "%s %s", method, url)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, data
	}
	do := func(method, url, body string) int {
		code, _ := doAs(token, method, url, body)
		return code
	}
	require.Equal(t, http.StatusCreated, do("POST", before.URL()+"/api/v1/namespaces/default/configmaps",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"kept"}}`))
	require.Equal(t, http.StatusCreated, do("POST", before.URL()+"/api/v1/namespaces/default/serviceaccounts",
		`{"metadata":{"name":"robot"}}`))
	// Under the default Node,RBAC authorization the robot and carol read
	// the ConfigMap as view lets them.
	require.Equal(t, http.StatusCreated, do("POST", before.URL()+"/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
		`{"metadata":{"name":"readers"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"},`+
			`"subjects":[{"kind":"ServiceAccount","name":"robot","namespace":"default"},{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"carol"}]}`))
	code, body := doAs(token, "POST", before.URL()+"/api/v1/namespaces/default/serviceaccounts/robot/token", `{}`)
	require.Equal(t, http.StatusCreated, code, "%s", body)
	var tr authenticationv1.TokenRequest
	require.NoError(t, json.Unmarshal(body, &tr))
	certPEM, keyPEM, err := before.IssueClientCertificate("carol", nil)
	require.NoError(t, err)
	stop()
	client.CloseIdleConnections()

	after, stop := start()
	defer stop()
	assert.Equal(t, token, after.Token(), "the admin token is kept")
	assert.Equal(t, string(ca), string(after.CACertificate()), "the CA is kept")
	assert.Equal(t, http.StatusOK, do("GET", after.URL()+"/api/v1/namespaces/default/configmaps/kept", ""),
		"the old client reaches the restarted cluster and its data")
	code, body = doAs(tr.Status.Token, "GET", after.URL()+"/api/v1/namespaces/default/configmaps/kept", "")
	assert.Equal(t, http.StatusOK, code, "the service account token issued before the restart: %s", body)

	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	require.NoError(t, err)
	tlsConfig := after.TLSClientConfig()
	tlsConfig.Certificates = []tls.Certificate{cert}
	certClient := &http.Client{Transport: &http.Transport{TLSClientConfig: tlsConfig}}
	defer certClient.CloseIdleConnections()
	req, err := http.NewRequestWithContext(t.Context(), "GET", after.URL()+"/api/v1/namespaces/default/configmaps/kept", nil)
	require.NoError(t, err)
	resp, err := certClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the client certificate issued before the restart")
}

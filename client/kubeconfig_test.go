package client_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// TestLoadKubeconfigOfCluster loads the kubeconfig cluster.WriteKubeconfig
// writes and talks to the cluster with it, as kubectl would.
func TestLoadKubeconfigOfCluster(t *testing.T) {
	c := clustertest.New(t, clustertest.WithNodes(0))
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, c.WriteKubeconfig(path))

	cfg, err := client.LoadKubeconfig(path)
	require.NoError(t, err, "LoadKubeconfig(%s)", path)
	assert.Equal(t, c.URL(), cfg.Host)
	assert.Equal(t, c.Token(), cfg.BearerToken)
	assert.Equal(t, c.CACertificate(), cfg.CAData)
	assert.Equal(t, "default", cfg.Namespace)

	cs := newClientset(t, cfg)
	ns, err := cs.Namespaces().Get(t.Context(), cfg.Namespace, client.GetOptions{})
	require.NoError(t, err, "a request with the loaded config")
	assert.Equal(t, "default", ns.Name)
}

func TestParseKubeconfig(t *testing.T) {
	dir := t.TempDir()
	writeFile := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600))
	}
	writeFile("token", "file-token\n")
	writeFile("client.crt", "CERT")
	writeFile("client.key", "KEY")
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

	tests := []struct {
		name    string
		yaml    string
		want    client.Config
		wantErr string
	}{
		{
			name: "token and CA data",
			yaml: `
current-context: c
contexts: [{name: c, context: {cluster: k, user: u, namespace: team}}]
clusters: [{name: k, cluster: {server: "https://h:6443", certificate-authority-data: ` + b64("CA") + `}}]
users: [{name: u, user: {token: tok}}]`,
			want: client.Config{Host: "https://h:6443", CAData: []byte("CA"), BearerToken: "tok", Namespace: "team"},
		},
		{
			name: "files relative to the kubeconfig",
			yaml: `
current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "https://h", certificate-authority: ca.crt}}]
users: [{name: u, user: {tokenFile: token, client-certificate: client.crt, client-key: client.key}}]`,
			want: client.Config{Host: "https://h", CAFile: filepath.Join(dir, "ca.crt"), BearerToken: "file-token",
				CertData: []byte("CERT"), KeyData: []byte("KEY"), Namespace: "default"},
		},
		{
			name: "client certificate data, the current context among several",
			yaml: `
current-context: second
contexts:
- {name: first, context: {cluster: a, user: ua}}
- {name: second, context: {cluster: b, user: ub, namespace: kube-system}}
clusters:
- {name: a, cluster: {server: "https://a"}}
- {name: b, cluster: {server: "https://b", insecure-skip-tls-verify: true}}
users:
- {name: ua, user: {token: a}}
- {name: ub, user: {client-certificate-data: ` + b64("C") + `, client-key-data: ` + b64("K") + `}}`,
			want: client.Config{Host: "https://b", Insecure: true, CertData: []byte("C"), KeyData: []byte("K"), Namespace: "kube-system"},
		},
		{
			name: "anonymous",
			yaml: `
current-context: c
contexts: [{name: c, context: {cluster: k}}]
clusters: [{name: k, cluster: {server: "http://h"}}]`,
			want: client.Config{Host: "http://h", Namespace: "default"},
		},
		{name: "no current context", yaml: `contexts: []`, wantErr: "no current-context"},
		{name: "unknown context", yaml: `current-context: x`, wantErr: `no context "x"`},
		{name: "unknown cluster", yaml: `
current-context: c
contexts: [{name: c, context: {cluster: k}}]`, wantErr: `no known cluster "k"`},
		{name: "unknown user", yaml: `
current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "http://h"}}]`, wantErr: `no known user "u"`},
		{name: "missing token file", yaml: `
current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "http://h"}}]
users: [{name: u, user: {tokenFile: missing}}]`, wantErr: "token file"},
		{name: "not yaml", yaml: "\t{", wantErr: "parse kubeconfig"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := client.ParseKubeconfig([]byte(tc.yaml), dir)
			if tc.wantErr != "" {
				assert.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}

	_, err := client.LoadKubeconfig(filepath.Join(dir, "missing"))
	assert.ErrorContains(t, err, "load kubeconfig")
}

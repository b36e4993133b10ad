package garbagecollector_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/cluster/clustertest"
)

// kubectl returns clustertest's Kubectl.Run against e's API server,
// served over HTTPS on loopback (kubectl sends bearer tokens only over
// TLS), skipping the test when kubectl is not installed.
func kubectl(t *testing.T, e *env) func(args ...string) string {
	t.Helper()
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	k := clustertest.NewKubectl(t, kubeconfig)
	srv := httptest.NewTLSServer(e.api.Handler())
	t.Cleanup(srv.Close)
	config := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: minicp
  cluster:
    server: %s
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    token: %s
contexts:
- name: minicp
  context:
    cluster: minicp
    user: admin
    namespace: default
current-context: minicp
`, srv.URL, apiservertest.AdminToken)
	require.NoError(t, os.WriteFile(kubeconfig, []byte(config), 0o600))
	return k.Run
}

func TestKubectlDeleteCascade(t *testing.T) {
	e := newStartedEnv(t)
	run := kubectl(t, e)
	pods := e.cs.Pods("default")
	e.createReplicaSet(t, "kept", "kept-1", "kept-2")
	e.createReplicaSet(t, "fg", "fg-1", "fg-2")
	e.createReplicaSet(t, "bg", "bg-1")
	e.waitIdle(t)

	run("delete", "replicaset", "kept", "--cascade=orphan")
	waitGone(t, e.cs.ReplicaSets("default"), "kept")
	e.waitIdle(t)
	for _, name := range []string{"kept-1", "kept-2"} {
		p, ok := get(t, pods, name)
		require.True(t, ok, "--cascade=orphan keeps %s", name)
		assert.Empty(t, p.OwnerReferences, "%s is orphaned", name)
	}

	// kubectl waits for the ReplicaSet to be gone, which a foreground
	// deletion makes it only after its pods.
	run("delete", "replicaset", "fg", "--cascade=foreground")
	for _, name := range []string{"fg-1", "fg-2"} {
		_, ok := get(t, pods, name)
		assert.False(t, ok, "--cascade=foreground deleted %s before kubectl returned", name)
	}

	run("delete", "replicaset", "bg") // --cascade=background is the default
	waitGone(t, pods, "bg-1")
}

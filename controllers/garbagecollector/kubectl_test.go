package garbagecollector_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver/apiservertest"
)

// kubectlTimeout bounds one kubectl command, including its wait for the
// deletion to finish.
const kubectlTimeout = 60 * time.Second

// kubectl runs the real kubectl against e's API server, served over HTTPS
// on loopback (kubectl sends bearer tokens only over TLS), skipping the
// test when kubectl is not installed.
func kubectl(t *testing.T, e *env) func(args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not on PATH: skipping the kubectl tests (install kubectl to run them)")
	}
	srv := httptest.NewTLSServer(e.api.Handler())
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
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
	return func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), kubectlTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "kubectl", append([]string{"--kubeconfig", kubeconfig}, args...)...)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig, "HOME="+dir)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "kubectl %s:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
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

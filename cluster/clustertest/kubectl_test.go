package clustertest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/cluster/clustertest"
)

// TestKubectl: Run returns what kubectl printed, Fail the error it
// printed, and each command starts with an empty HOME.
func TestKubectl(t *testing.T) {
	t.Parallel()
	c := clustertest.New(t, clustertest.WithNodes(0), clustertest.WithControllers())
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	k := clustertest.NewKubectl(t, kubeconfig)
	require.NoError(t, c.WriteKubeconfig(kubeconfig))
	assert.Equal(t, kubeconfig, k.Kubeconfig())

	assert.Contains(t, k.Run("get", "namespaces", "-o", "name"), "namespace/kube-system")
	assert.Contains(t, k.Fail("get", "configmap", "missing"), `configmaps "missing" not found`)

	out, err := k.Command(t.Context(), "config", "view", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}").Output()
	require.NoError(t, err)
	assert.Equal(t, c.URL(), string(out), "the kubeconfig given")
	// The last HOME of a command's environment is the one it gets.
	home := func() string {
		var h string
		for _, kv := range k.Command(t.Context(), "version").Env {
			if v, ok := strings.CutPrefix(kv, "HOME="); ok {
				h = v
			}
		}
		require.DirExists(t, h)
		return h
	}
	assert.NotEqual(t, home(), home(), "each command has a HOME of its own")
}

// TestKubectlOutputRunsAgainWhenKubectlDroppedOutput: a run in which
// kubectl's WebSocket client logged that it dropped the server's output
// (here a script saying so the first time) runs once more, and only once.
func TestKubectlOutputRunsAgainWhenKubectlDroppedOutput(t *testing.T) {
	t.Parallel()
	k := clustertest.NewKubectl(t, filepath.Join(t.TempDir(), "kubeconfig"))
	runs := filepath.Join(t.TempDir(), "runs")
	script := func(body string) func(context.Context) *exec.Cmd {
		return func(ctx context.Context) *exec.Cmd {
			return exec.CommandContext(ctx, "sh", "-c", "echo run >> "+runs+"; "+body)
		}
	}
	count := func() int {
		b, err := os.ReadFile(runs)
		require.NoError(t, err)
		defer os.Remove(runs)
		return strings.Count(string(b), "run\n")
	}
	dropped := `echo "E1128 06:05:06.719121   10874 websocket.go:296] Unknown stream id 1, discarding message" >&2`

	out, err := k.Output(script(`if [ "$(wc -l < ` + runs + `)" -eq 1 ]; then ` + dropped + `; else echo line one; fi`))
	require.NoError(t, err)
	assert.Equal(t, "line one\n", out, "the second run's output")
	assert.Equal(t, 2, count(), "runs")

	out, err = k.Output(script(dropped + "; exit 3"))
	require.Error(t, err, "the second run's error")
	assert.Contains(t, out, "Unknown stream id", "the second run's output")
	assert.Equal(t, 2, count(), "runs: no third")

	out, err = k.Output(script("echo fine"))
	require.NoError(t, err)
	assert.Equal(t, "fine\n", out)
	assert.Equal(t, 1, count(), "a run that lost nothing runs once")
}

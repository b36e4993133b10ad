package cluster_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const configMapEnvManifest = `apiVersion: v1
kind: Pod
metadata:
  name: greeter
spec:
  restartPolicy: Never
  containers:
  - name: main
    image: busybox
    command: ["sh", "-c", "echo $FOO"]
    env:
    - name: FOO
      valueFrom:
        configMapKeyRef:
          name: greeting
          key: FOO
`

// TestKubectlConfigMapEnv: a pod takes an environment variable from a
// ConfigMap made with kubectl, and kubectl logs shows the value.
func TestKubectlConfigMapEnv(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)
	k.Run("wait", "--for=condition=Ready", "node", "--all", "--timeout=60s")

	assert.Contains(t, k.Run("create", "configmap", "greeting", "--from-literal=FOO=hello from a configmap"),
		"configmap/greeting created")
	manifest := filepath.Join(t.TempDir(), "pod.yaml")
	require.NoError(t, os.WriteFile(manifest, []byte(configMapEnvManifest), 0o600))
	assert.Contains(t, k.Run("apply", "-f", manifest), "pod/greeter created")
	k.Run("wait", "--for=jsonpath={.status.phase}=Succeeded", "pod/greeter", "--timeout=60s")
	assert.Equal(t, "hello from a configmap\n", k.Run("logs", "greeter"))
}

package cluster_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doomedJobManifest fails at its first failed pod: backoffLimit 0, which
// `kubectl create job` has no flag for.
const doomedJobManifest = `apiVersion: batch/v1
kind: Job
metadata:
  name: doomed
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox
        command: ["sh", "-c", "echo failing; exit 1"]
`

// TestKubectlJob runs the real kubectl against a cluster with a node and
// its controllers: a Job created with `kubectl create job` completes and
// satisfies `kubectl wait --for=condition=complete`; one that fails
// satisfies `--for=condition=failed`.
func TestKubectlJob(t *testing.T) {
	t.Parallel()
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)

	assert.Contains(t, k.Run("create", "job", "x", "--image=busybox", "--", "sh", "-c", "exit 0"), "job.batch/x created")
	assert.Contains(t, k.Run("wait", "--for=condition=complete", "job/x", "--timeout=30s"), "job.batch/x condition met")
	out := k.Run("get", "jobs")
	assert.Equal(t, []string{"x", "Complete", "1/1"}, row(t, out, "x")[:3], "kubectl get jobs:\n%s", out)
	assert.Equal(t, "Succeeded", k.Run("get", "pods", "-l", "job-name=x", "-o", "jsonpath={.items[0].status.phase}"))

	manifest := filepath.Join(t.TempDir(), "doomed.yaml")
	require.NoError(t, os.WriteFile(manifest, []byte(doomedJobManifest), 0o600))
	assert.Contains(t, k.Run("create", "-f", manifest), "job.batch/doomed created")
	assert.Contains(t, k.Run("wait", "--for=condition=failed", "job/doomed", "--timeout=30s"), "job.batch/doomed condition met")
	assert.Equal(t, "BackoffLimitExceeded", k.Run("get", "job", "doomed", "-o", `jsonpath={.status.conditions[?(@.type=="Failed")].reason}`))
	assert.Equal(t, "1", k.Run("get", "job", "doomed", "-o", "jsonpath={.status.failed}"))
	out = k.Run("get", "jobs")
	assert.Equal(t, []string{"doomed", "Failed", "0/1"}, row(t, out, "doomed")[:3], "kubectl get jobs:\n%s", out)
}

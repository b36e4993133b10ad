package cluster_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const serverSideDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ssa
spec:
  replicas: 1
  selector:
    matchLabels: {app: ssa}
  template:
    metadata:
      labels: {app: ssa}
    spec:
      containers:
      - name: c
        image: busybox:1
        command: ["sleep", "3600"]
        ports:
        - containerPort: 80
`

// TestKubectlServerSideApply runs kubectl apply --server-side: create,
// re-apply with a changed field, a conflict with another manager, and
// --force-conflicts, on a Deployment and on a custom resource.
func TestKubectlServerSideApply(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t)
	k := newKubectl(t, c)
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
		return path
	}

	manifest := write("deploy.yaml", serverSideDeployment)
	assert.Contains(t, k.Run("apply", "--server-side", "-f", manifest), "deployment.apps/ssa serverside-applied")
	managers := k.Run("get", "deployment", "ssa", "--show-managed-fields", "-o",
		`jsonpath={range .metadata.managedFields[*]}{.manager}/{.operation} {end}`)
	assert.Contains(t, managers, "kubectl/Apply", "kubectl applies as manager kubectl")

	manifest = write("deploy.yaml", strings.Replace(serverSideDeployment, "replicas: 1", "replicas: 2", 1))
	assert.Contains(t, k.Run("apply", "--server-side", "-f", manifest), "deployment.apps/ssa serverside-applied")
	assert.Equal(t, "2", k.Run("get", "deployment", "ssa", "-o", "jsonpath={.spec.replicas}"))

	// Another manager applying replicas conflicts, and says with whom.
	other := write("other.yaml", strings.Replace(serverSideDeployment, "replicas: 1", "replicas: 3", 1))
	out := k.Fail("apply", "--server-side", "--field-manager", "other", "-f", other)
	assert.Contains(t, out, `conflict with "kubectl"`)
	assert.Contains(t, out, ".spec.replicas")
	assert.Contains(t, k.Run("apply", "--server-side", "--field-manager", "other", "--force-conflicts", "-f", other),
		"deployment.apps/ssa serverside-applied")
	assert.Equal(t, "3", k.Run("get", "deployment", "ssa", "-o", "jsonpath={.spec.replicas}"))

	// A custom resource.
	k.Run("apply", "-f", "testdata/developers-crd.yaml")
	k.Run("wait", "--for=condition=established", "crd/developers.example.com", "--timeout=30s")
	const developer = "apiVersion: example.com/v1\nkind: Developer\nmetadata:\n  name: ada\nspec:\n  language: go\n"
	cr := write("cr.yaml", developer)
	assert.Contains(t, k.Run("apply", "--server-side", "-f", cr), "developer.example.com/ada serverside-applied")
	cr2 := write("cr2.yaml", strings.Replace(developer, "go", "rust", 1))
	assert.Contains(t, k.Fail("apply", "--server-side", "--field-manager", "other", "-f", cr2), `conflict with "kubectl"`)
	k.Run("apply", "--server-side", "--field-manager", "other", "--force-conflicts", "-f", cr2)
	assert.Equal(t, "rust", k.Run("get", "developer", "ada", "-o", "jsonpath={.spec.language}"))
}

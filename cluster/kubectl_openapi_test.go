package cluster_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlExplain reads built-in kinds' schemas the way users do:
// kubectl explain from /openapi/v3, and from /openapi/v2 (protobuf)
// with --output=plaintext-openapiv2.
func TestKubectlExplain(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)

	out := k.Run("explain", "pod.spec.containers")
	assert.Contains(t, out, "KIND:       Pod")
	assert.Contains(t, out, "FIELD: containers <[]Container>")
	assert.Contains(t, out, "Container is one container of a Pod.", "the description from the Go doc comment")
	assert.Regexp(t, `name\s+<string> -required-`, out)
	assert.Regexp(t, `resources\s+<ResourceRequirements>`, out)
	assert.Regexp(t, `ports\s+<\[\]ContainerPort>`, out)

	out = k.Run("explain", "deployment")
	assert.Contains(t, out, "GROUP:      apps")
	assert.Contains(t, out, "KIND:       Deployment")
	assert.Regexp(t, `spec\s+<DeploymentSpec>`, out)
	assert.Contains(t, out, "Standard object's metadata.")

	out = k.Run("explain", "job.spec.template.spec.restartPolicy")
	assert.Contains(t, out, "FIELD: restartPolicy <string>")

	out = k.Run("explain", "--output=plaintext-openapiv2", "pod.spec")
	assert.Contains(t, out, "RESOURCE: spec <Object>")
	assert.Regexp(t, `containers\s+<\[\]Object> -required-`, out)
}

// TestKubectlAPIResources: kubectl lists every resource, with its short
// names, from aggregated discovery, custom resources included.
func TestKubectlAPIResources(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)
	k.Run("apply", "-f", "testdata/developers-crd.yaml")
	k.Run("wait", "--for=condition=established", "crd/developers.example.com", "--timeout=30s")

	out := k.Run("api-resources")
	for _, row := range []string{
		`pods\s+po\s+v1\s+true\s+Pod`,
		`namespaces\s+ns\s+v1\s+false\s+Namespace`,
		`services\s+svc\s+v1\s+true\s+Service`,
		`deployments\s+deploy\s+apps/v1\s+true\s+Deployment`,
		`replicasets\s+rs\s+apps/v1\s+true\s+ReplicaSet`,
		`jobs\s+batch/v1\s+true\s+Job`,
		`leases\s+coordination.k8s.io/v1\s+true\s+Lease`,
		`customresourcedefinitions\s+crd,crds\s+apiextensions.k8s.io/v1\s+false\s+CustomResourceDefinition`,
		`developers\s+devs\s+example.com/v1\s+true\s+Developer`,
	} {
		assert.Regexp(t, row, out, "kubectl api-resources")
	}
	assert.Contains(t, k.Run("api-resources", "--api-group=apps", "-o", "name"), "deployments.apps")
}

// TestKubectlCreateValidation: kubectl leaves field validation to the
// server for the kinds the server serves, and names a kind it does not
// serve as kubectl does against any cluster.
func TestKubectlCreateValidation(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)
	dir := t.TempDir()
	write := func(name, manifest string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(manifest), 0o600))
		return path
	}

	unknownField := write("deployment.yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicaz: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
`)
	out := k.Fail("create", "-f", unknownField)
	assert.Contains(t, out, `unknown field "spec.replicaz"`)
	assert.Contains(t, k.Run("create", "-f", unknownField, "--validate=false"), "deployment.apps/web created")

	unsupported := write("widget.yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n")
	out = k.Fail("create", "-f", unsupported)
	assert.Contains(t, out, `no matches for kind "Widget" in version "example.com/v1"`)
	assert.False(t, strings.Contains(out, "openapi"), "kubectl read the server's OpenAPI: %s", out)
}

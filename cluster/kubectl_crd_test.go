package cluster_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestKubectlCustomResources drives a CRD written for a real cluster
// through kubectl: apply it, wait until it is established, create and get
// its objects by plural, singular, short name and category, scale one,
// explain its schema, and delete it.
func TestKubectlCustomResources(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)

	assert.Contains(t, k.Run("apply", "-f", "testdata/developers-crd.yaml"), "customresourcedefinition.apiextensions.k8s.io/developers.example.com created")
	k.Run("wait", "--for=condition=established", "crd/developers.example.com", "--timeout=30s")
	assert.Contains(t, k.Run("create", "-f", "testdata/megyo.yaml"), "developer.example.com/megyo created")

	table := k.Run("get", "developers")
	assert.Regexp(t, `NAME\s+LANGUAGE\s+AGE\nmegyo\s+go\s+\d+s`, table, "the CRD's printer columns")
	assert.Contains(t, k.Run("get", "developer", "megyo"), "megyo")
	assert.Contains(t, k.Run("get", "devs"), "megyo")
	assert.Contains(t, k.Run("get", "devs", "megyo", "-o", "jsonpath={.spec.name}"), "Megyo")

	assert.Contains(t, k.Run("scale", "developer/megyo", "--replicas=3"), "developer.example.com/megyo scaled")
	assert.Equal(t, "3", k.Run("get", "devs", "megyo", "-o", "jsonpath={.spec.replicas}"))

	explain := k.Run("explain", "developer.spec")
	assert.Contains(t, explain, "KIND:       Developer")
	assert.Contains(t, explain, "What the developer is and does.")
	assert.Contains(t, explain, "The language the developer writes most.")

	assert.Contains(t, k.Run("delete", "crd", "developers.example.com"), "deleted")
	out, err := k.Command(t.Context(), "get", "developers").CombinedOutput()
	assert.Error(t, err, "the resource is gone: %s", out)
}

package cluster_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/cluster"
)

// TestKubectlRBAC runs a cluster in RBAC mode with a token file user,
// alice, and drives RBAC with the real kubectl: who am I, create a role
// and a binding, can-i (for the admin, as alice by impersonation, and
// with alice's own token), can-i --list, a 403 in Kubernetes' words,
// and the aggregation controller filling the view role.
func TestKubectlRBAC(t *testing.T) {
	t.Parallel()
	tokens := filepath.Join(t.TempDir(), "tokens.csv")
	require.NoError(t, os.WriteFile(tokens, []byte("alice-token,alice,alice-uid,\n"), 0o600))
	c := startCluster(t, func(o *cluster.Options) {
		o.AuthorizationMode = authz.ModeRBAC
		o.TokenAuthFile = tokens
	})
	k := newKubectl(t, c)
	asAlice := "--token=alice-token"

	who := k.Run("auth", "whoami")
	assert.Contains(t, who, "minicp-admin", "kubectl auth whoami")
	assert.Contains(t, who, "system:masters")
	assert.Contains(t, k.Run(asAlice, "auth", "whoami"), "alice")

	assert.Equal(t, "yes\n", k.Run("auth", "can-i", "delete", "secrets", "-n", "kube-system"), "system:masters may do anything")
	assert.Equal(t, "no\n", k.Fail("auth", "can-i", "get", "pods", "--as", "alice"))

	assert.Contains(t, k.Run("create", "role", "pod-reader", "--verb=get,list,watch", "--resource=pods"),
		"role.rbac.authorization.k8s.io/pod-reader created")
	assert.Contains(t, k.Run("create", "rolebinding", "alice-pods", "--role=pod-reader", "--user=alice"),
		"rolebinding.rbac.authorization.k8s.io/alice-pods created")
	waitCached(t, c, "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
		k.Run("get", "rolebinding", "alice-pods", "-o", "jsonpath={.metadata.resourceVersion}"))
	assert.Contains(t, k.Run("get", "roles"), "pod-reader")
	assert.Contains(t, k.Run("get", "rolebindings", "-o", "wide"), "Role/pod-reader")

	assert.Equal(t, "yes\n", k.Run("auth", "can-i", "list", "pods", "--as", "alice"))
	assert.Equal(t, "no\n", k.Fail("auth", "can-i", "list", "pods", "--as", "alice", "-n", "kube-system"))
	assert.Equal(t, "no\n", k.Fail("auth", "can-i", "delete", "pods", "--as", "alice"))
	assert.Equal(t, "yes\n", k.Run(asAlice, "auth", "can-i", "watch", "pods"))

	list := k.Run(asAlice, "auth", "can-i", "--list")
	var podsLine string
	for line := range strings.SplitSeq(list, "\n") {
		if strings.HasPrefix(line, "pods ") {
			podsLine = line
		}
	}
	assert.Contains(t, podsLine, "[get list watch]", "can-i --list:\n%s", list)
	assert.Contains(t, list, "selfsubjectaccessreviews.authorization.k8s.io")

	out := k.Fail(asAlice, "get", "secrets")
	assert.Contains(t, out, `secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"`)
	out = k.Fail(asAlice, "create", "role", "secret-reader", "--verb=get", "--resource=secrets")
	assert.Contains(t, out, `roles.rbac.authorization.k8s.io is forbidden: User "alice" cannot create resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "default"`)

	// The aggregation controller fills view from system:aggregate-to-view.
	require.NoError(t, c.WaitIdle(t.Context()), "the controllers settle")
	assert.Contains(t, k.Run("get", "clusterrole", "view", "-o", "jsonpath={.rules[*].resources}"), "deployments")
	assert.Contains(t, k.Run("get", "clusterroles"), "cluster-admin")
	assert.Contains(t, k.Run("get", "clusterrolebindings", "cluster-admin", "-o", "wide"), "system:masters")
}

// waitCached waits until the API server's watch cache of the collection
// at path has seen rv: a list at that resourceVersion answers only then,
// and the authorizer reads that cache.
func waitCached(t *testing.T, c *cluster.Cluster, path, rv string) {
	t.Helper()
	resp, err := c.HTTPClient().Get(c.URL() + path + "?resourceVersion=" + strings.TrimSpace(rv))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, "GET %s at %s", path, rv)
}

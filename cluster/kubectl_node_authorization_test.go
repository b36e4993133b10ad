package cluster_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/cluster"
)

// TestKubectlNodeAuthorization asks the real kubectl what a node may do,
// by impersonation (--as=system:node:<name> --as-group=system:nodes):
// the Node authorizer lets a node read its own pod's Secret and not
// another node's, and NodeRestriction refuses a node's writes to another
// node, its own restricted labels and another node's pods, in
// kube-apiserver's words.
func TestKubectlNodeAuthorization(t *testing.T) {
	t.Parallel()
	c := startCluster(t, nodes(2))
	k := newKubectl(t, c)
	node1, node2 := cluster.NodeName(0), cluster.NodeName(1)
	asNode1 := []string{"--as=system:node:" + node1, "--as-group=system:nodes"}
	as := func(args ...string) []string { return append(append([]string{}, asNode1...), args...) }

	k.Run("create", "secret", "generic", "s1", "--from-literal=k=v")
	k.Run("create", "secret", "generic", "s2", "--from-literal=k=v")
	mustDo(t, c, http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", podBoundTo("p1", node1, "s1"))
	created := mustDo(t, c, http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", podBoundTo("p2", node2, "s2"))
	var p2 corev1.Pod
	require.NoError(t, json.Unmarshal(created, &p2))
	// The Node authorizer reads the pods watch cache: wait until it has p2.
	waitCached(t, c, "/api/v1/namespaces/default/pods", p2.ResourceVersion)
	mustDo(t, c, http.StatusOK, "GET", "/api/v1/namespaces/default/pods/p2?resourceVersion=0", "")
	k.Run("wait", "--for=jsonpath={.metadata.name}=p2", "pod/p2", "--timeout=30s")

	assert.Equal(t, "yes\n", k.Run(as("auth", "can-i", "get", "secrets/s1")...), "its own pod's secret")
	// kubectl prints the Node authorizer's reason after a "no".
	assert.Equal(t, "no - no relationship found between node '"+node1+"' and this object\n",
		k.Fail(as("auth", "can-i", "get", "secrets/s2")...), "another node's pod's secret")
	assert.Equal(t, "no - No Object name found\n", k.Fail(as("auth", "can-i", "list", "secrets")...))
	assert.Contains(t, k.Run(as("auth", "can-i", "get", "nodes/"+node1)...), "yes\n")
	assert.Contains(t, k.Fail(as("auth", "can-i", "get", "nodes/"+node2)...),
		"no - node '"+node1+"' cannot read '"+node2+"', only its own Node object\n")
	assert.Equal(t, "yes\n", k.Run(as("auth", "can-i", "create", "events")...))
	assert.Equal(t, "no\n", k.Fail(as("auth", "can-i", "create", "deployments")...))

	assert.Contains(t, k.Fail(as("get", "secret", "s2")...),
		`secrets "s2" is forbidden: User "system:node:`+node1+`" cannot get resource "secrets" in API group "" in the namespace "default": `+
			`no relationship found between node '`+node1+`' and this object`)
	assert.Contains(t, k.Run(as("get", "secret", "s1", "-o", "name")...), "secret/s1")

	// kubectl reads another node before it writes it, which the Node
	// authorizer refuses first; the kubelet's own client writes at once.
	assert.Contains(t, k.Fail(as("label", "node", node2, "team=a")...), "only its own Node object")
	kubelet := certCaller(t, c, "system:node:"+node1, "system:nodes")
	code, msg := kubelet.do(t, c, "PATCH", "/api/v1/nodes/"+node2, `{"metadata":{"labels":{"team":"a"}}}`)
	assert.Equal(t, http.StatusForbidden, code)
	assert.Equal(t, `nodes "`+node2+`" is forbidden: node "`+node1+`" is not allowed to modify node "`+node2+`"`, msg)
	assert.Contains(t, k.Fail(as("label", "node", node1, "node-role.kubernetes.io/control-plane=")...),
		"is not allowed to modify labels: node-role.kubernetes.io/control-plane")
	assert.Contains(t, k.Run(as("label", "node", node1, "team=a")...), "labeled", "a label outside kubernetes.io")
	assert.Contains(t, k.Fail(as("delete", "pod", "p2", "--wait=false")...),
		`pods "p2" is forbidden: node "`+node1+`" can only delete pods with spec.nodeName set to itself`)
	assert.Contains(t, k.Fail(as("run", "rogue", "--image=nginx")...),
		`pod does not have "kubernetes.io/config.mirror" annotation, node "`+node1+`" can only create mirror pods`)
}

package cluster_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlDrain drains a node the way an operator does, with a
// PodDisruptionBudget guarding the Deployment whose pods run there: while
// the budget allows no disruption, `kubectl drain` cordons the node and
// keeps retrying the evictions it is refused (429); once the budget is
// relaxed, the evictions go through, the Deployment brings its pods back
// on the other node, and the drain finishes.
func TestKubectlDrain(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(2))
	k := newKubectl(t, c)

	k.Run("create", "deployment", "web", "--image=nginx", "--replicas=2")
	assert.Contains(t, k.Run("rollout", "status", "deploy/web", "--timeout=60s"), "successfully rolled out")
	assert.Contains(t, k.Run("create", "poddisruptionbudget", "web", "--selector=app=web", "--min-available=2"),
		"poddisruptionbudget.policy/web created")
	k.Run("wait", "--for=jsonpath={.status.currentHealthy}=2", "pdb/web", "--timeout=30s")
	out := k.Run("get", "pdb")
	assert.Equal(t, []string{"NAME", "MIN", "AVAILABLE", "MAX", "UNAVAILABLE", "ALLOWED", "DISRUPTIONS", "AGE"}, rows(out)[0])
	assert.Equal(t, []string{"web", "2", "N/A", "0"}, row(t, out, "web")[:4])
	assert.Equal(t, "False InsufficientPods", k.Run("get", "pdb", "web", "-o",
		`jsonpath={.status.conditions[?(@.type=="DisruptionAllowed")].status} {.status.conditions[?(@.type=="DisruptionAllowed")].reason}`))

	node := strings.Fields(k.Run("get", "pods", "-l", "app=web", "-o", "jsonpath={.items[0].spec.nodeName}"))[0]
	out = k.Fail("drain", node, "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=3s")
	assert.Contains(t, out, "node/"+node+" cordoned")
	assert.Contains(t, out, "Cannot evict pod as it would violate the pod's disruption budget.")
	assert.Equal(t, "true", k.Run("get", "node", node, "-o", "jsonpath={.spec.unschedulable}"))
	assert.NotEmpty(t, k.Run("get", "pods", "-l", "app=web", "--field-selector=spec.nodeName="+node, "-o", "name"),
		"the budget kept the pods on the node")

	k.Run("patch", "pdb", "web", "-p", `{"spec":{"minAvailable":1}}`)
	k.Run("wait", "--for=jsonpath={.status.disruptionsAllowed}=1", "pdb/web", "--timeout=30s")
	out = k.Run("drain", node, "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=90s")
	assert.Contains(t, out, "node/"+node+" drained")
	assert.Contains(t, out, "evicted")
	assert.Contains(t, k.Run("rollout", "status", "deploy/web", "--timeout=60s"), "successfully rolled out")
	nodes := k.Run("get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].spec.nodeName}")
	require.NotEmpty(t, nodes)
	assert.NotContains(t, nodes, node, "no pod of web is left on the drained node")
	assert.Contains(t, k.Run("uncordon", node), "uncordoned")
}

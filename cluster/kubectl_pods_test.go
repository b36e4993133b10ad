package cluster_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestKubectlPodsRun drives a cluster with nodes as a user would: pods
// are scheduled, run like the images they name, log, exit with their
// code, and are deleted gracefully.
func TestKubectlPodsRun(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(2))
	k := newKubectl(t, c)

	k.Run("wait", "--for=condition=Ready", "node", "--all", "--timeout=60s")
	nodes := k.Run("get", "nodes")
	assert.Equal(t, 2, strings.Count(nodes, " Ready "), "two Ready nodes:\n%s", nodes)

	assert.Contains(t, k.Run("run", "hello", "--image=busybox", "--restart=Never", "--", "sh", "-c", "echo hi; sleep 2; exit 3"),
		"pod/hello created")
	k.Run("wait", "--for=jsonpath={.status.phase}=Failed", "pod/hello", "--timeout=60s")
	assert.Equal(t, "3", k.Run("get", "pod", "hello", "-o", "jsonpath={.status.containerStatuses[0].state.terminated.exitCode}"))
	assert.Equal(t, "hi\n", k.Run("logs", "hello"))
	assert.Contains(t, k.Run("get", "pod", "hello"), "Error", "STATUS column of an exit code 3")
	describe := k.Run("describe", "pod", "hello")
	for _, reason := range []string{"Scheduled", "Pulled", "Created", "Started"} {
		assert.Contains(t, describe, reason, "kubectl describe lists the %s event", reason)
	}

	k.Run("run", "web", "--image=nginx")
	k.Run("wait", "--for=condition=Ready", "pod/web", "--timeout=60s")
	assert.Contains(t, k.Run("get", "pod", "web", "-o", "wide"), "10.244.")
	assert.Contains(t, k.Run("delete", "pod", "web", "--timeout=60s"), `pod "web" deleted`)
	assert.Contains(t, k.Fail("get", "pod", "web"), "NotFound")
}

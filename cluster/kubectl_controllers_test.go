package cluster_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestKubectlDeploymentLifecycle drives a Deployment the way a user does,
// with the controller-manager, the scheduler and two nodes running:
// create, wait for the rollout, scale, roll out a new image, read the
// history, undo, and expose it, whose Endpoints list the pods.
func TestKubectlDeploymentLifecycle(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(2))
	k := newKubectl(t, c)

	assert.Contains(t, k.Run("create", "deployment", "web", "--image=nginx:1.26", "--replicas=3", "--port=80"), "deployment.apps/web created")
	assert.Contains(t, k.Run("rollout", "status", "deploy/web", "--timeout=60s"), `deployment "web" successfully rolled out`)
	assert.Equal(t, []string{"web", "3/3", "3", "3"}, row(t, k.Run("get", "deploy", "web"), "web")[:4])
	assert.Equal(t, "Running Running Running", k.Run("get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].status.phase}"))
	assert.Contains(t, k.Run("wait", "--for=condition=available", "deploy/web", "--timeout=30s"), "condition met")

	assert.Contains(t, k.Run("scale", "deploy/web", "--replicas=5"), "scaled")
	assert.Contains(t, k.Run("rollout", "status", "deploy/web", "--timeout=60s"), "successfully rolled out")
	assert.Equal(t, "5", k.Run("get", "rs", "-l", "app=web", "-o", "jsonpath={.items[0].status.readyReplicas}"))

	assert.Contains(t, k.Run("set", "image", "deploy/web", "nginx=nginx:1.27"), "image updated")
	assert.Contains(t, k.Run("rollout", "status", "deploy/web", "--timeout=60s"), "successfully rolled out")
	history := k.Run("rollout", "history", "deploy/web")
	assert.Contains(t, history, "1 ", history)
	assert.Contains(t, history, "2 ", history)
	images := k.Run("get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].spec.containers[0].image}")
	assert.Equal(t, strings.Repeat("nginx:1.27 ", 5), images+" ", "every pod runs the new image once rolled out")

	assert.Contains(t, k.Run("rollout", "undo", "deploy/web"), "rolled back")
	assert.Contains(t, k.Run("rollout", "status", "deploy/web", "--timeout=60s"), "successfully rolled out")
	assert.Equal(t, "nginx:1.26", k.Run("get", "deploy", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"))
	assert.Equal(t, "3", k.Run("get", "deploy", "web", "-o", `jsonpath={.metadata.annotations.deployment\.kubernetes\.io/revision}`),
		"the first template comes back as revision 3")

	assert.Contains(t, k.Run("expose", "deployment", "web", "--port=8080", "--target-port=80"), "service/web exposed")
	k.Run("wait", "--for=create", "endpoints/web", "--timeout=30s")
	k.Run("wait", "--for=jsonpath={.subsets[0].addresses[4].ip}", "endpoints/web", "--timeout=30s")
	ports := k.Run("get", "endpoints", "web", "-o", "jsonpath={.subsets[0].ports[0].port}")
	assert.Equal(t, "80", ports, "the Service's targetPort")

	// kubectl delete cascades in the background: the garbage collector
	// deletes the ReplicaSets, whose pods go with them.
	assert.Contains(t, k.Run("delete", "deployment", "web"), `deployment.apps "web" deleted`)
	k.Run("wait", "--for=delete", "pod", "-l", "app=web", "--timeout=60s")
	assert.Contains(t, k.Run("get", "rs", "-l", "app=web"), "No resources found")
}

// TestKubectlDeleteNamespace: deleting a namespace deletes what it holds,
// running pods included, and then the namespace; kubectl waits for it.
func TestKubectlDeleteNamespace(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)

	k.Run("create", "namespace", "team")
	// kubectl wait answers NotFound at once for a condition on an object
	// not yet made: the ServiceAccount controller writes this one.
	k.Run("wait", "--for=create", "serviceaccount/default", "-n", "team", "--timeout=30s")
	k.Run("-n", "team", "create", "deployment", "api", "--image=nginx", "--replicas=2")
	k.Run("-n", "team", "create", "configmap", "settings", "--from-literal=a=b")
	assert.Contains(t, k.Run("-n", "team", "rollout", "status", "deploy/api", "--timeout=60s"), "successfully rolled out")

	assert.Contains(t, k.Run("delete", "namespace", "team", "--timeout=60s"), `namespace "team" deleted`)
	assert.Contains(t, k.Fail("get", "namespace", "team"), `namespaces "team" not found`)
	assert.Contains(t, k.Run("get", "pods", "-n", "team"), "No resources found")
}

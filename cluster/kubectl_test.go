package cluster_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/storage/storagetest"
)

// startCluster runs a cluster on the shared test etcd, changed by mutate,
// until the test ends. Its Service network is off, as clustertest's is,
// unless the test asks for it with serviceNetwork: a cluster with the
// network holds the host's network lock for its life, and the test
// binaries of other packages, which go test runs beside this one, would
// wait for it.
func startCluster(t *testing.T, mutate ...func(*cluster.Options)) *cluster.Cluster {
	t.Helper()
	opts := cluster.Options{Etcd: storagetest.Client(t), StoragePrefix: storagetest.Prefix(t), DisableServiceNetwork: true}
	for _, m := range mutate {
		m(&opts)
	}
	return run(t, opts)
}

// nodes is a startCluster option: n simulated nodes.
func nodes(n int) func(*cluster.Options) {
	return func(o *cluster.Options) { o.Nodes = n }
}

// serviceNetwork is a startCluster option: the Service proxy and cluster
// DNS, for tests that reach a ClusterIP, a node port or a name. Such a
// test does not call t.Parallel, as the others do: the clusters of one
// process would share the network's fixed loopback addresses.
func serviceNetwork(o *cluster.Options) { o.DisableServiceNetwork = false }

// kubectl is clustertest's Kubectl for one test's cluster, with the
// helpers of the exec, attach and port-forward tests.
type kubectl struct {
	*clustertest.Kubectl
	t *testing.T
}

// newKubectl returns a kubectl for c, skipping the test when kubectl is
// not installed.
func newKubectl(t *testing.T, c *cluster.Cluster) *kubectl {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	k := clustertest.NewKubectl(t, path)
	require.NoError(t, c.WriteKubeconfig(path))
	return &kubectl{Kubectl: k, t: t}
}

const podManifest = `apiVersion: v1
kind: Pod
metadata:
  name: hello
  labels:
    app: hello
spec:
  containers:
  - name: main
    image: busybox
    command: ["sh", "-c", "echo hi; sleep 2; exit 3"]
    resources:
      requests:
        cpu: 100m
        memory: 64Mi
`

func TestKubectl(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)

	out := k.Run("get", "ns")
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		assert.Contains(t, out, ns, "kubectl get ns")
	}
	assert.Contains(t, out, "Active")

	assert.Contains(t, k.Run("get", "pods", "-A"), "No resources found")

	// kubectl's typed commands send protobuf.
	assert.Contains(t, k.Run("create", "namespace", "team"), "namespace/team created")
	assert.Contains(t, k.Run("get", "ns", "team", "-o", "jsonpath={.status.phase}"), "Active")

	// Start watching before the pod exists, as a user in a second terminal.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	watch := k.Command(ctx, "get", "pods", "-w", "--output-watch-events")
	stdout, err := watch.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, watch.Start())
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	defer func() { cancel(); _ = watch.Wait() }()

	manifest := filepath.Join(t.TempDir(), "pod.yaml")
	require.NoError(t, os.WriteFile(manifest, []byte(podManifest), 0o600))
	assert.Contains(t, k.Run("create", "-f", manifest), "pod/hello created")

	expectLine(t, lines, "ADDED", "hello")

	out = k.Run("get", "pod", "hello", "-o", "yaml")
	assert.Contains(t, out, "name: hello")
	assert.Contains(t, out, "uid:")
	assert.Contains(t, out, "phase: Pending")
	assert.Contains(t, out, "restartPolicy: Always")

	out = k.Run("get", "pods")
	assert.Contains(t, out, "hello")
	assert.Contains(t, out, "Pending")
	assert.Contains(t, k.Run("get", "pods", "-l", "app=hello", "-o", "name"), "pod/hello")
	assert.Contains(t, k.Run("get", "po", "-A"), "hello", "short name po")

	assert.Contains(t, k.Fail("create", "-f", manifest), "AlreadyExists")

	// kubectl asks the server to validate fields strictly.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte(strings.Replace(podManifest, "name: hello", "name: typo\n  colour: red", 1)), 0o600))
	assert.Contains(t, k.Fail("create", "-f", bad), `unknown field "metadata.colour"`)

	assert.Contains(t, k.Run("run", "web", "--image=nginx"), "pod/web created")
	assert.Contains(t, k.Run("get", "pod", "web", "-o", "jsonpath={.spec.containers[0].image}"), "nginx")

	assert.Contains(t, k.Run("delete", "pod", "hello"), `pod "hello" deleted`)
	expectLine(t, lines, "DELETED", "hello")
	assert.Contains(t, k.Fail("get", "pod", "hello"), "NotFound")
}

// expectLine waits for a `kubectl get -w --output-watch-events` line with
// the event type and name.
func expectLine(t *testing.T, lines <-chan string, event, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), clustertest.KubectlTimeout)
	defer cancel()
	for {
		select {
		case line, ok := <-lines:
			require.True(t, ok, "kubectl get -w ended before %s %s", event, name)
			if f := strings.Fields(line); len(f) >= 2 && f[0] == event && f[1] == name {
				return
			}
		case <-ctx.Done():
			t.Fatalf("kubectl get -w printed no %s %s", event, name)
		}
	}
}

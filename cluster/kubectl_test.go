package cluster_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/cluster"
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

// kubectl runs the real kubectl against c, skipping the test when kubectl
// is not installed.
type kubectl struct {
	t          *testing.T
	kubeconfig string
}

func newKubectl(t *testing.T, c *cluster.Cluster) *kubectl {
	t.Helper()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("kubectl is not on PATH: skipping the kubectl tests (install kubectl to run them)")
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, c.WriteKubeconfig(path))
	return &kubectl{t: t, kubeconfig: path}
}

// kubectlTimeout bounds one kubectl command; kubectl itself answers in
// well under a second against minicp.
const kubectlTimeout = 30 * time.Second

func (k *kubectl) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "kubectl", append([]string{"--kubeconfig", k.kubeconfig}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+k.kubeconfig, "HOME="+k.t.TempDir())
	return cmd
}

// run runs kubectl and returns its output, failing the test on error.
func (k *kubectl) run(args ...string) string {
	k.t.Helper()
	ctx, cancel := context.WithTimeout(k.t.Context(), kubectlTimeout)
	defer cancel()
	out, err := k.command(ctx, args...).CombinedOutput()
	require.NoError(k.t, err, "kubectl %s:\n%s", strings.Join(args, " "), out)
	return string(out)
}

// fail runs kubectl expecting it to fail and returns its output.
func (k *kubectl) fail(args ...string) string {
	k.t.Helper()
	ctx, cancel := context.WithTimeout(k.t.Context(), kubectlTimeout)
	defer cancel()
	out, err := k.command(ctx, args...).CombinedOutput()
	require.Error(k.t, err, "kubectl %s should fail:\n%s", strings.Join(args, " "), out)
	return string(out)
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

	out := k.run("get", "ns")
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		assert.Contains(t, out, ns, "kubectl get ns")
	}
	assert.Contains(t, out, "Active")

	assert.Contains(t, k.run("get", "pods", "-A"), "No resources found")

	// kubectl's typed commands send protobuf.
	assert.Contains(t, k.run("create", "namespace", "team"), "namespace/team created")
	assert.Contains(t, k.run("get", "ns", "team", "-o", "jsonpath={.status.phase}"), "Active")

	// Start watching before the pod exists, as a user in a second terminal.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	watch := k.command(ctx, "get", "pods", "-w", "--output-watch-events")
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
	assert.Contains(t, k.run("create", "-f", manifest), "pod/hello created")

	expectLine(t, lines, "ADDED", "hello")

	out = k.run("get", "pod", "hello", "-o", "yaml")
	assert.Contains(t, out, "name: hello")
	assert.Contains(t, out, "uid:")
	assert.Contains(t, out, "phase: Pending")
	assert.Contains(t, out, "restartPolicy: Always")

	out = k.run("get", "pods")
	assert.Contains(t, out, "hello")
	assert.Contains(t, out, "Pending")
	assert.Contains(t, k.run("get", "pods", "-l", "app=hello", "-o", "name"), "pod/hello")
	assert.Contains(t, k.run("get", "po", "-A"), "hello", "short name po")

	assert.Contains(t, k.fail("create", "-f", manifest), "AlreadyExists")

	// kubectl asks the server to validate fields strictly.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte(strings.Replace(podManifest, "name: hello", "name: typo\n  colour: red", 1)), 0o600))
	assert.Contains(t, k.fail("create", "-f", bad), `unknown field "metadata.colour"`)

	assert.Contains(t, k.run("run", "web", "--image=nginx"), "pod/web created")
	assert.Contains(t, k.run("get", "pod", "web", "-o", "jsonpath={.spec.containers[0].image}"), "nginx")

	assert.Contains(t, k.run("delete", "pod", "hello"), `pod "hello" deleted`)
	expectLine(t, lines, "DELETED", "hello")
	assert.Contains(t, k.fail("get", "pod", "hello"), "NotFound")
}

// expectLine waits for a `kubectl get -w --output-watch-events` line with
// the event type and name.
func expectLine(t *testing.T, lines <-chan string, event, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), kubectlTimeout)
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

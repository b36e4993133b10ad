package cluster_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const topPodsManifest = `apiVersion: v1
kind: Pod
metadata:
  name: busy
  labels:
    app: busy
spec:
  containers:
  - name: main
    image: busybox
    command: ["sleep", "3600"]
    resources:
      requests:
        cpu: 200m
        memory: 128Mi
      limits:
        memory: 256Mi
---
apiVersion: v1
kind: Pod
metadata:
  name: quiet
  labels:
    app: quiet
spec:
  containers:
  - name: main
    image: busybox
    command: ["sleep", "3600"]
---
apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
spec:
  containers:
  - name: server
    image: nginx
    resources:
      requests:
        cpu: 100m
        memory: 64Mi
  - name: sidecar
    image: busybox
    command: ["sleep", "3600"]
`

// TestKubectlTop reads the metrics.k8s.io API as `kubectl top` does:
// nodes with their share of allocatable, pods of one namespace, of all,
// by label and by container, and 404s for a pod that does not exist and
// one that does not run.
func TestKubectlTop(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(2))
	k := newKubectl(t, c)
	k.Run("wait", "--for=condition=Ready", "node", "--all", "--timeout=60s")

	resources := k.Run("api-resources", "--api-group=metrics.k8s.io", "--no-headers")
	assert.Regexp(t, `(?m)^nodes\s+metrics.k8s.io/v1beta1\s+false\s+NodeMetrics$`, resources)
	assert.Regexp(t, `(?m)^pods\s+metrics.k8s.io/v1beta1\s+true\s+PodMetrics$`, resources)

	nodes := k.Run("top", "node")
	lines := strings.Split(strings.TrimSpace(nodes), "\n")
	require.Len(t, lines, 3, "a header and two nodes:\n%s", nodes)
	assert.Regexp(t, `^NAME\s+CPU\(cores\)\s+CPU(\(%\)|%)\s+MEMORY\(bytes\)\s+MEMORY(\(%\)|%)\s*$`, lines[0])
	for _, line := range lines[1:] {
		assert.Regexp(t, `^\S+\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%\s*$`, line, "a node's usage and its share of allocatable")
	}

	manifest := filepath.Join(t.TempDir(), "pods.yaml")
	require.NoError(t, os.WriteFile(manifest, []byte(topPodsManifest), 0o600))
	k.Run("apply", "-f", manifest)
	k.Run("wait", "--for=condition=Ready", "pod/busy", "pod/quiet", "--timeout=60s")
	k.Run("wait", "--for=condition=Ready", "pod/web", "-n", "shop", "--timeout=60s")

	pods := k.Run("top", "pod")
	assert.Regexp(t, `^NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*\n`, pods)
	busyCPU, busyMem := topRow(t, pods, "busy")
	assert.True(t, busyCPU >= 60 && busyCPU <= 160, "busy uses 30%%-80%% of its 200m request: %dm", busyCPU)
	assert.True(t, busyMem >= 64 && busyMem <= 128, "busy's working set is within its 128Mi request: %dMi", busyMem)
	quietCPU, quietMem := topRow(t, pods, "quiet")
	assert.True(t, quietCPU <= 2 && quietMem <= 3, "a pod that asked for nothing uses next to nothing: %dm %dMi", quietCPU, quietMem)

	selected := k.Run("top", "pod", "-l", "app=busy", "--no-headers")
	assert.Equal(t, 1, strings.Count(selected, "\n"), "the label selector picks busy alone:\n%s", selected)
	assert.True(t, strings.HasPrefix(selected, "busy "), selected)

	all := k.Run("top", "pod", "-A")
	assert.Regexp(t, `^NAMESPACE\s+NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*\n`, all)
	assert.Regexp(t, `(?m)^shop\s+web\s+\d+m\s+\d+Mi\s*$`, all)
	assert.Regexp(t, `(?m)^default\s+busy\s+\d+m\s+\d+Mi\s*$`, all)

	containers := k.Run("top", "pod", "web", "-n", "shop", "--containers")
	assert.Regexp(t, `^POD\s+NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*\n`, containers)
	assert.Regexp(t, `(?m)^web\s+server\s+\d+m\s+\d+Mi\s*$`, containers)
	assert.Regexp(t, `(?m)^web\s+sidecar\s+\d+m\s+\d+Mi\s*$`, containers)

	// kubectl get asks for a Table: metrics-server's columns.
	table := k.Run("get", "podmetrics", "busy")
	assert.Regexp(t, `^NAME\s+CPU\s+MEMORY\s+WINDOW\s*\nbusy\s+\d+m\s+\d+Ki\s+10s`, table)
	assert.Contains(t, k.Run("get", "nodes.metrics.k8s.io", "-o", "name"), "nodemetrics.metrics.k8s.io/minicp-node-1")

	var list struct {
		Kind  string `json:"kind"`
		Items []struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
			Window     string `json:"window"`
			Timestamp  string `json:"timestamp"`
			Containers []struct {
				Name  string            `json:"name"`
				Usage map[string]string `json:"usage"`
			} `json:"containers"`
		} `json:"items"`
	}
	raw := k.Run("get", "--raw", "/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods")
	require.NoError(t, json.Unmarshal([]byte(raw), &list), raw)
	assert.Equal(t, "PodMetricsList", list.Kind)
	require.Len(t, list.Items, 1, raw)
	assert.Equal(t, "10s", list.Items[0].Window)
	assert.NotEmpty(t, list.Items[0].Timestamp)
	require.Len(t, list.Items[0].Containers, 2, raw)
	assert.Contains(t, list.Items[0].Containers[0].Usage, "cpu")
	assert.Contains(t, list.Items[0].Containers[0].Usage, "memory")

	assert.Contains(t, k.Fail("top", "pod", "missing"), `pods "missing" not found`)
	assert.Contains(t, k.Fail("get", "--raw", "/apis/metrics.k8s.io/v1beta1/nodes/missing"), `node "missing" not found`)
	k.Run("run", "done", "--image=busybox", "--restart=Never", "--", "true")
	k.Run("wait", "--for=jsonpath={.status.phase}=Succeeded", "pod/done", "--timeout=60s")
	assert.Contains(t, k.Fail("top", "pod", "done"), `podmetrics.metrics.k8s.io "default/done" not found`,
		"a pod that does not run has no metrics")
	assert.Contains(t, k.Fail("delete", "--raw", "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/busy"), "MethodNotAllowed")
}

// topRow returns the CPU (millicores) and memory (MiB) of name's row in
// `kubectl top pod` output.
func topRow(t *testing.T, out, name string) (cpuMilli, memMiB int) {
	t.Helper()
	for line := range strings.SplitSeq(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != name {
			continue
		}
		cpu, err1 := strconv.Atoi(strings.TrimSuffix(f[1], "m"))
		mem, err2 := strconv.Atoi(strings.TrimSuffix(f[2], "Mi"))
		require.NoError(t, err1, line)
		require.NoError(t, err2, line)
		return cpu, mem
	}
	require.Failf(t, "no row", "kubectl top pod has no row for %s:\n%s", name, out)
	return 0, 0
}

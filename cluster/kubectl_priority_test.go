package cluster_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlPriorityClasses: the system classes exist from the start; a
// class made with `kubectl create priorityclass` gives the pods that name
// it its value, the global default gives it to the others, and the rules
// of the Priority plugin and of validation answer as upstream words them.
func TestKubectlPriorityClasses(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)

	pcs := k.Run("get", "priorityclasses")
	assert.Regexp(t, `(?m)^system-cluster-critical\s+2000000000\s+false\s+\S+\s+PreemptLowerPriority$`, pcs)
	assert.Regexp(t, `(?m)^system-node-critical\s+2000001000\s+false`, pcs)

	assert.Contains(t, k.Run("create", "priorityclass", "high", "--value=1000", "--description=batch that matters",
		"--preemption-policy=Never"), "priorityclass.scheduling.k8s.io/high created")
	assert.Contains(t, k.Run("create", "priorityclass", "low", "--value=10", "--global-default"), "created")
	assert.Contains(t, k.Fail("create", "priorityclass", "other", "--value=5", "--global-default"),
		"PriorityClass low is already marked as default. Only one default can exist")
	assert.Contains(t, k.Fail("create", "priorityclass", "huge", "--value=1000000001"),
		"maximum allowed value of a user defined priority is 1000000000")
	assert.Contains(t, k.Fail("create", "priorityclass", "system-mine", "--value=10"),
		"priority class names with 'system-' prefix are reserved for system use only")
	assert.Contains(t, k.Fail("patch", "priorityclass", "high", "-p", `{"value":2000}`), "may not be changed in an update")

	manifest := filepath.Join(t.TempDir(), "pod.yaml")
	require.NoError(t, os.WriteFile(manifest, []byte(`apiVersion: v1
kind: Pod
metadata:
  name: important
spec:
  priorityClassName: high
  containers:
  - name: main
    image: busybox
`), 0o600))
	k.Run("create", "-f", manifest)
	assert.Equal(t, "1000 Never", k.Run("get", "pod", "important", "-o", "jsonpath={.spec.priority} {.spec.preemptionPolicy}"))
	k.Run("run", "plain", "--image=busybox")
	assert.Equal(t, "10 low", k.Run("get", "pod", "plain", "-o", "jsonpath={.spec.priority} {.spec.priorityClassName}"))
	assert.Contains(t, k.Fail("run", "lost", "--image=busybox", `--overrides={"spec":{"priorityClassName":"nope"}}`),
		`pods "lost" is forbidden: no PriorityClass with name nope was found`)
}

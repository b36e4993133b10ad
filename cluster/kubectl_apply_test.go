package cluster_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const applyManifest = `apiVersion: v1
kind: Pod
metadata:
  name: applied
  labels:
    app: applied
spec:
  containers:
  - name: c
    image: busybox:1
    command: ["sleep", "3600"]
    env:
    - name: MODE
      value: test
  - name: side
    image: busybox:1
    command: ["sleep", "3600"]
`

// TestKubectlStrategicMergePatch runs the kubectl commands that send
// strategic merge patches: apply on an existing object, patch (whose
// default type is strategic), set image, label and annotate.
func TestKubectlStrategicMergePatch(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)
	manifest := filepath.Join(t.TempDir(), "pod.yaml")
	image := func() string {
		return k.Run("get", "pod", "applied", "-o", `jsonpath={range .spec.containers[*]}{.name}={.image} {end}`)
	}

	require.NoError(t, os.WriteFile(manifest, []byte(applyManifest), 0o600))
	assert.Contains(t, k.Run("apply", "-f", manifest), "pod/applied created")
	assert.Contains(t, k.Run("apply", "-f", manifest), "pod/applied unchanged")

	// A changed image is a three-way strategic merge patch with
	// $setElementOrder/containers.
	require.NoError(t, os.WriteFile(manifest, []byte(strings.Replace(applyManifest, "image: busybox:1\n    command: [\"sleep\", \"3600\"]\n    env", "image: busybox:2\n    command: [\"sleep\", \"3600\"]\n    env", 1)), 0o600))
	assert.Contains(t, k.Run("apply", "-f", manifest), "pod/applied configured")
	assert.Equal(t, "c=busybox:2 side=busybox:1", strings.TrimSpace(image()), "apply changes the image of c only")
	assert.Contains(t, k.Run("get", "pod", "applied", "-o", "jsonpath={.spec.containers[0].env[0].value}"), "test",
		"the merged container keeps its env")

	assert.Contains(t, k.Run("patch", "pod", "applied", "-p", `{"spec":{"containers":[{"name":"c","image":"busybox:3"}]}}`),
		"pod/applied patched")
	assert.Equal(t, "c=busybox:3 side=busybox:1", strings.TrimSpace(image()), "a strategic patch merges containers by name")

	assert.Contains(t, k.Run("set", "image", "pod/applied", "side=busybox:4"), "pod/applied image updated")
	assert.Equal(t, "c=busybox:3 side=busybox:4", strings.TrimSpace(image()))

	assert.Contains(t, k.Run("label", "pod", "applied", "tier=backend"), "pod/applied labeled")
	assert.Contains(t, k.Run("annotate", "pod", "applied", "note=hello"), "pod/applied annotated")
	out := k.Run("get", "pod", "applied", "-o", "jsonpath={.metadata.labels.app},{.metadata.labels.tier},{.metadata.annotations.note}")
	assert.Equal(t, "applied,backend,hello", out, "label and annotate add to the existing labels")
	assert.Contains(t, k.Run("label", "pod", "applied", "tier-"), "pod/applied unlabeled")
	assert.Equal(t, "applied,", k.Run("get", "pod", "applied", "-o", "jsonpath={.metadata.labels.app},{.metadata.labels.tier}"))

	// Pod specs are immutable but for images: the merged result is
	// validated as any update is.
	assert.Contains(t, k.Fail("patch", "pod", "applied", "-p", `{"spec":{"containers":[{"name":"c","$patch":"delete"}]}}`),
		"may not add or remove containers")
	// A malformed patch is the client's mistake.
	assert.Contains(t, k.Fail("patch", "pod", "applied", "-p", `{"spec":{"containers":[{"image":"x"}]}}`),
		"does not contain declared merge key")
}

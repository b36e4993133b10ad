package cluster_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cpuLimits is a LimitRange: containers get 100m of CPU requested and
// 200m as limit unless they say, and may not go past 500m.
const cpuLimits = `apiVersion: v1
kind: LimitRange
metadata:
  name: cpu
spec:
  limits:
  - type: Container
    defaultRequest: {cpu: 100m}
    default: {cpu: 200m}
    max: {cpu: 500m}
`

// TestKubectlQuotaAndLimits bounds a namespace as an administrator does:
// a LimitRange gives pods their CPU requests and limits and refuses one
// past its max, and a ResourceQuota refuses the pod that would go past
// its count, until a pod is deleted and the quota controller returns
// what it used.
func TestKubectlQuotaAndLimits(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	c := startCluster(t, nodes(1))
	k := newKubectl(t, c)

	manifest := filepath.Join(t.TempDir(), "limits.yaml")
	require.NoError(t, os.WriteFile(manifest, []byte(cpuLimits), 0o600))
	assert.Contains(t, k.Run("apply", "-f", manifest), "limitrange/cpu created")
	assert.Equal(t, []string{"NAME", "CREATED", "AT"}, rows(k.Run("get", "limits"))[0])
	assert.Contains(t, k.Run("create", "quota", "compute", "--hard=pods=2,requests.cpu=1,limits.cpu=1"), "resourcequota/compute created")
	k.Run("wait", "--for=jsonpath={.status.hard.pods}=2", "quota/compute", "--timeout=30s")

	k.Run("run", "a", "--image=nginx")
	assert.Equal(t, "100m 200m", k.Run("get", "pod", "a", "-o", "jsonpath={.spec.containers[0].resources.requests.cpu} {.spec.containers[0].resources.limits.cpu}"))
	assert.Equal(t, "LimitRanger plugin set: cpu request for container a; cpu limit for container a",
		k.Run("get", "pod", "a", "-o", `jsonpath={.metadata.annotations.kubernetes\.io/limit-ranger}`))
	assert.Contains(t, k.Fail("run", "big", "--image=nginx", "--overrides", `{"spec":{"containers":[{"name":"big","image":"nginx","resources":{"limits":{"cpu":"1"}}}]}}`),
		`pods "big" is forbidden: maximum cpu usage per Container is 500m, but limit is 1`)

	k.Run("run", "b", "--image=nginx")
	out := k.Fail("run", "c", "--image=nginx")
	assert.Contains(t, out, `pods "c" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=2, limited: pods=2`)

	out = k.Run("get", "quota")
	assert.Equal(t, []string{"NAME", "AGE", "REQUEST", "LIMIT"}, rows(out)[0])
	assert.Contains(t, out, "pods: 2/2, requests.cpu: 200m/1")
	assert.Contains(t, out, "limits.cpu: 400m/1")

	k.Run("delete", "pod", "a", "--timeout=60s")
	k.Run("wait", "--for=jsonpath={.status.used.pods}=1", "quota/compute", "--timeout=30s")
	assert.Contains(t, k.Run("run", "c", "--image=nginx"), "pod/c created")
}

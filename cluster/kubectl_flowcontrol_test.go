package cluster_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlFlowControl: `kubectl get flowschemas` and `kubectl get
// prioritylevelconfigurations` print the default configuration with
// upstream's columns, and a schema that names a missing level is marked
// dangling by the server.
func TestKubectlFlowControl(t *testing.T) {
	t.Parallel()
	c := startCluster(t)
	k := newKubectl(t, c)

	fs := k.Run("get", "flowschemas")
	assert.Regexp(t, `^NAME\s+PRIORITYLEVEL\s+MATCHINGPRECEDENCE\s+DISTINGUISHERMETHOD\s+AGE\s+MISSINGPL\n`, fs)
	assert.Regexp(t, `(?m)^exempt\s+exempt\s+1\s+<none>\s+\S+\s+(\?|False)$`, fs)
	assert.Regexp(t, `(?m)^probes\s+exempt\s+2\s+<none>\s+`, fs)
	assert.Regexp(t, `(?m)^system-node-high\s+node-high\s+400\s+ByUser\s+`, fs)
	assert.Regexp(t, `(?m)^kube-scheduler\s+workload-high\s+800\s+ByNamespace\s+`, fs)
	assert.Regexp(t, `(?m)^catch-all\s+catch-all\s+10000\s+ByUser\s+`, fs)

	pl := k.Run("get", "prioritylevelconfigurations")
	assert.Regexp(t, `^NAME\s+TYPE\s+NOMINALCONCURRENCYSHARES\s+QUEUES\s+HANDSIZE\s+QUEUELENGTHLIMIT\s+AGE\n`, pl)
	assert.Regexp(t, `(?m)^catch-all\s+Limited\s+5\s+<none>\s+<none>\s+<none>\s+\S+$`, pl)
	assert.Regexp(t, `(?m)^exempt\s+Exempt\s+<none>\s+<none>\s+<none>\s+<none>\s+\S+$`, pl)
	assert.Regexp(t, `(?m)^workload-low\s+Limited\s+100\s+128\s+6\s+50\s+\S+$`, pl)
	assert.Equal(t, "true", k.Run("get", "flowschema", "global-default", "-o", `jsonpath={.metadata.annotations.apf\.kubernetes\.io/autoupdate-spec}`))

	dir := t.TempDir()
	lost := filepath.Join(dir, "lost.yaml")
	require.NoError(t, os.WriteFile(lost, []byte(`apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata:
  name: lost
spec:
  priorityLevelConfiguration:
    name: nowhere
  matchingPrecedence: 5000
  rules:
  - subjects:
    - kind: User
      user:
        name: someone
    nonResourceRules:
    - verbs: ["get"]
      nonResourceURLs: ["/version"]
`), 0o600))
	assert.Contains(t, k.Run("create", "-f", lost), "flowschema.flowcontrol.apiserver.k8s.io/lost created")
	k.Run("wait", "--for=condition=Dangling", "flowschema/lost", "--timeout=30s")
	assert.Regexp(t, `(?m)^lost\s+nowhere\s+5000\s+<none>\s+\S+\s+True$`, k.Run("get", "flowschema", "lost"))

	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte(`apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata:
  name: bad
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 10
    limitResponse:
      type: Queue
      queuing:
        queues: 4
        handSize: 8
        queueLengthLimit: 10
`), 0o600))
	assert.Contains(t, k.Fail("create", "-f", bad), "spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (4)")
}

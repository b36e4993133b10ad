package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/minicp/minicp/storage/storagetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m, storagetest.LeakOptions()...) }

// TestDeploymentFlow runs the example: the chain of controllers creates,
// scales and rolls out within the strategy's bounds, each write printed
// after the one whose event caused it, and the foreground cascade
// deletes pods, then ReplicaSets, then the Deployment.
func TestDeploymentFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out))
	text := out.String()
	t.Logf("deployment-flow printed:\n%s", text)

	// The create's trace, in causal order: the Deployment, the
	// ReplicaSet its controller made, a pod of it, bound, started, ready.
	create, _, ok := strings.Cut(text, "2. scale to 5")
	require.True(t, ok, text)
	last := -1
	for _, hop := range []string{
		"minicp-admin", "create deployment web: 3 replicas of nginx:1.26",
		"controller/deployment-controller", "replicaset web-", "created by the deployment controller: revision 1, 3 replicas",
		"controller/replicaset", "pod web-", "created by replicaset web-",
		"scheduler", "bound to minicp-node-",
		"kubelet/minicp-node-", "starts container nginx of pod web-",
		"kubelet/minicp-node-", "ready on minicp-node-",
		"controller/deployment-controller", "deployment web status: generation 1 observed, 3 updated, 3 available, revision 1",
	} {
		i := strings.Index(create[last+1:], hop)
		if !assert.GreaterOrEqual(t, i, 0, "hop %q after the ones before it in:\n%s", hop, create) {
			return
		}
		last += 1 + i
	}
	assert.Equal(t, 3, strings.Count(create, "created by replicaset"), create)

	assert.Equal(t, 2, strings.Count(text, "created by the deployment controller"), "one ReplicaSet per template:\n%s", text)
	assert.Contains(t, text, "scaled 3 → 5", text)
	assert.Contains(t, text, "deployment web: revision annotation 2", text)
	assert.Contains(t, text, "created by the deployment controller: revision 2, 1 replicas", "the new ReplicaSet starts at maxSurge")
	var peak, low int
	i := strings.Index(text, "at any written state:")
	require.GreaterOrEqual(t, i, 0, text)
	_, err := fmt.Sscanf(text[i:], "at any written state: at most %d pods (5 + maxSurge 1), at least %d ready", &peak, &low)
	require.NoError(t, err, text)
	assert.LessOrEqual(t, peak, 6, "maxSurge 1 over 5 replicas")
	assert.GreaterOrEqual(t, low, 4, "maxUnavailable 1 under 5 replicas")

	assert.Contains(t, text, "delete deployment web: deletionTimestamp set, finalizers [foregroundDeletion]")
	// The old ReplicaSet, scaled to 0, has no pods to wait for and may go
	// first; the new one goes after its pods, the Deployment last.
	assert.Regexp(t, `deleted in this order: (ReplicaSet×1, )?Pod×5, ReplicaSet×[12], Deployment×1\n`, text)
}

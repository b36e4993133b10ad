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
// scales and rolls out within the strategy's bounds, and the foreground
// cascade deletes pods, then ReplicaSets, then the Deployment.
func TestDeploymentFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out))
	text := out.String()

	assert.Equal(t, 2, strings.Count(text, "created by the deployment controller"), "one ReplicaSet per template:\n%s", text)
	assert.Contains(t, text, "revision 1, 3 replicas", text)
	assert.Contains(t, text, "scaled 3 → 5", text)
	assert.Contains(t, text, "revision 2", text)
	var peak, low int
	_, err := fmt.Sscanf(text[strings.Index(text, "at any observed state:"):],
		"at any observed state: at most %d pods (5 + maxSurge 1), at least %d ready", &peak, &low)
	require.NoError(t, err, text)
	assert.LessOrEqual(t, peak, 6, "maxSurge 1 over 5 replicas")
	assert.GreaterOrEqual(t, low, 4, "maxUnavailable 1 under 5 replicas")
	// The old ReplicaSet, scaled to 0, has no pods to wait for and may go
	// first; the new one goes after its pods, the Deployment last.
	assert.Regexp(t, `deleted in this order: (ReplicaSet×1, )?Pod×5, ReplicaSet×[12], Deployment×1\n`, text)
}

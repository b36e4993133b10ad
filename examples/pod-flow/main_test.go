package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/minicp/minicp/storage/storagetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m, storagetest.LeakOptions()...) }

// TestPodFlow runs the example and checks the hops come in the order of
// Kubernetes' pod creation flow.
func TestPodFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, &out))
	text := out.String()
	// Each hop is logged when it completes, so a hop that waits on the
	// next (the bind waits for its write) can be printed after it; these
	// chains are causal and keep their order.
	// The create's etcd.txn is logged when the transaction returns, which
	// may be after the watch has carried the pod to the scheduler: the
	// watch cache's dispatch is what the scheduler's hops follow.
	chains := [][]string{
		{"authn", "authz", "admission.mutating", "etcd.txn"},
		{"admission.mutating", "watchcache.dispatch", "scheduler.filter", "scheduler.score"},
		{"scheduler.score", "kubelet.sandbox", "kubelet.container.start", "kubelet.status"},
	}
	for _, chain := range chains {
		last := -1
		for _, hop := range chain {
			i := strings.Index(text, " "+hop+" ")
			if assert.GreaterOrEqual(t, i, 0, "hop %s in:\n%s", hop, text) {
				assert.Greater(t, i, last, "hop %s after %v in:\n%s", hop, chain, text)
				last = i
			}
		}
	}
	assert.Contains(t, text, " scheduler.bind ")
}

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
	t.Logf("pod-flow printed:\n%s", text)
	// The timeline is causal: a hop comes after every hop that caused
	// it, so the first occurrence of each follows the one before.
	last := -1
	for _, hop := range []string{
		"apiserver        request", " authn ", " authz ", " admission.mutating ", " validation ",
		" admission.validating ", " etcd.txn ", " watchcache.dispatch ", "scheduler", " informer.delta ",
		" scheduler.cycle ", " scheduler.filter ", " scheduler.score ", " scheduler.bind ",
		" kubelet.sync ", " runtime.sandbox ", " runtime.container.start ",
	} {
		i := strings.Index(text[last+1:], hop)
		if !assert.GreaterOrEqual(t, i, 0, "hop %q after the ones before it in:\n%s", hop, text) {
			return
		}
		last += 1 + i
	}
	assert.Contains(t, text, "resource=pods/binding", "the binding is a request of the same trace")
	assert.Contains(t, text, "resource=pods/status", "so is the kubelet's status")
}

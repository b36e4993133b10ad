package scheduler_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/scheduler"
)

// syncBuffer is a bytes.Buffer for a log handler that many goroutines
// write to.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) records(t *testing.T) []map[string]any {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	dec := json.NewDecoder(bytes.NewReader(b.buf.Bytes()))
	for dec.More() {
		var rec map[string]any
		require.NoError(t, dec.Decode(&rec), "a JSON log record")
		out = append(out, rec)
	}
	return out
}

// TestTraceHops: at Debug, the scheduler logs one record per hop of a pod
// (scheduler.filter with every node's result, scheduler.score with every
// feasible node's scores, scheduler.bind with the node), in that order,
// and the lifecycle at Info: what examples/pod-flow prints.
func TestTraceHops(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cs := newClientset(t, apiservertest.New(t))
	createNode(t, cs, makeNode("roomy", rl{"cpu": "8", "memory": "16Gi", "pods": "110"}).Obj())
	createNode(t, cs, makeNode("tiny", rl{"cpu": "1", "memory": "1Gi", "pods": "110"}).Obj())
	createNode(t, cs, makeNode("cordoned", rl{"cpu": "8", "memory": "16Gi", "pods": "110"}).Unschedulable(true).Obj())
	s := startScheduler(t, cs, scheduler.Options{Clock: newFakeClock(), Logger: logger})
	createPod(t, cs, makePod("traced", rl{"cpu": "500m", "memory": "512Mi"}).Obj())
	waitForPods(t, cs, "default", bound("traced"))
	clustertest.WaitIdle(t, s)

	var hops []string
	byHop := map[string]map[string]any{}
	lifecycle := map[string]bool{}
	for _, rec := range logs.records(t) {
		if rec["level"] == "INFO" && rec["component"] == "scheduler" {
			lifecycle[rec["msg"].(string)] = true
		}
		hop, _ := rec["hop"].(string)
		if rec["pod"] != "traced" || hop == "" {
			continue
		}
		hops = append(hops, hop)
		byHop[hop] = rec
	}
	assert.Equal(t, []string{"scheduler.filter", "scheduler.score", "scheduler.bind"}, hops)
	assert.True(t, lifecycle["starting"] && lifecycle["ready"], "lifecycle at Info: %v", lifecycle)

	assert.Equal(t, map[string]any{
		"cordoned": "NodeUnschedulable: node(s) were unschedulable",
		"roomy":    "fit",
		"tiny":     "fit",
	}, byHop["scheduler.filter"]["results"])
	scores := byHop["scheduler.score"]["scores"].(map[string]any)
	assert.Len(t, scores, 2, "the feasible nodes: %v", scores)
	assert.Equal(t, "roomy", byHop["scheduler.score"]["node"])
	assert.Equal(t, "roomy", byHop["scheduler.bind"]["node"])
	assert.Equal(t, "default", byHop["scheduler.bind"]["namespace"])
	assert.NotEmpty(t, byHop["scheduler.bind"]["uid"])
}

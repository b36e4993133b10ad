package cluster_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/tracing"
)

// TestTracePodCreate follows a pod's create through the cluster as a
// trace: the API server's hops, the event through the watch cache to the
// scheduler's informer, the scheduling cycle and its binding, and the
// kubelet's sync, in causal order.
func TestTracePodCreate(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scenario test")
	}
	tr := tracing.New(tracing.Options{})
	t.Cleanup(func() { require.NoError(t, tr.Shutdown(context.Background())) })
	c := clustertest.New(t, clustertest.WithNodes(1), clustertest.WithControllers(), clustertest.WithTracing(tr))
	pods := c.Clientset().Pods("default")
	_, err := pods.Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
	}, client.WriteOptions{})
	require.NoError(t, err, "create pod web")

	want := []string{
		"apiserver request",
		"apiserver authn",
		"apiserver authz",
		"apiserver admission.mutating",
		"apiserver validation",
		"apiserver etcd.txn",
		"apiserver watchcache.dispatch",
		"scheduler informer.delta",
		"scheduler scheduler.cycle",
		"scheduler scheduler.filter",
		"scheduler scheduler.score",
		"scheduler scheduler.bind",
		"kubelet/" + cluster.NodeName(0) + " kubelet.sync",
		"kubelet/" + cluster.NodeName(0) + " runtime.sandbox",
		"kubelet/" + cluster.NodeName(0) + " runtime.container.start",
	}
	steps := waitTimeline(t, tr, func(steps []tracing.Step) bool {
		return isSubsequence(want, hops(steps))
	})
	var b strings.Builder
	require.NoError(t, tracing.Print(&b, steps))
	t.Logf("the trace of pod web's create:\n%s", b.String())
	assert.True(t, isSubsequence(want, hops(steps)), "hops in causal order")
	assert.Contains(t, hops(steps), "apiserver request", "the binding and the status are requests of the same trace")
	assert.Greater(t, strings.Count(strings.Join(hops(steps), "\n"), "apiserver request"), 2,
		"the create, the binding and the kubelet's status write")
}

func hops(steps []tracing.Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Component() + " " + s.Span.Name()
	}
	return out
}

// isSubsequence reports whether want appears in got in order, other
// entries between.
func isSubsequence(want, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

// waitTimeline waits until the timeline of the create of pod default/web
// satisfies done, and returns it.
func waitTimeline(t *testing.T, tr *tracing.Tracing, done func([]tracing.Step) bool) []tracing.Step {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	var steps []tracing.Step
	for {
		changed := tr.Recorder().Changed()
		spans := tr.Recorder().Spans()
		if req, ok := tracing.FindRequest(spans, "create", "pods", "default", "web"); ok {
			steps = tracing.Timeline(spans, req.SpanContext().SpanID())
			if done(steps) {
				return steps
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("the trace was not complete within %v; it holds:\n%s", clustertest.WaitTimeout, strings.Join(hops(steps), "\n"))
		}
	}
}

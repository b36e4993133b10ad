package watchcache_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/wait/waittest"
	"github.com/minicp/minicp/watchcache"
)

// TestDispatchIsTraced: the dispatch of a traced write's event is a
// watchcache.dispatch span of a trace of its own, linked to the etcd.txn
// span that wrote the event's revision; an untraced write's is not
// traced.
func TestDispatchIsTraced(t *testing.T) {
	tr := tracing.New(tracing.Options{})
	t.Cleanup(func() { require.NoError(t, tr.Shutdown(context.Background())) })
	s, err := storage.NewStore(storagetest.Client(t), storage.StoreOptions{
		Prefix:        storagetest.Prefix(t),
		GroupResource: storagetest.WidgetResource,
		NewFunc:       storagetest.NewWidget,
		Tracing:       tr,
	})
	require.NoError(t, err, "NewStore")
	c := startCacher(t, watchcache.Options{Storage: s, Tracing: tr})

	create(t, c, newWidget("ns", "untraced", "red", nil))
	ctx, req := tr.Tracer("test").Start(t.Context(), tracing.HopRequest)
	out, err := c.Create(ctx, widgetKey("ns", "w"), newWidget("ns", "w", "red", nil))
	require.NoError(t, err, "Create")
	req.End()
	rev := rvOf(t, out)
	writer, ok := tr.Revisions().Writer(rev)
	require.True(t, ok, "the writer of revision %d", rev)

	dispatch := waitSpan(t, tr, func(s sdktrace.ReadOnlySpan) bool {
		return s.Name() == tracing.HopWatchCacheDispatch
	})
	assert.Contains(t, dispatch.Attributes(), tracing.KeyRV.Int64(rev), "the traced write's event")
	require.Len(t, dispatch.Links(), 1)
	assert.Equal(t, writer, dispatch.Links()[0].SpanContext, "linked to the etcd.txn that wrote it")
	assert.False(t, dispatch.Parent().IsValid(), "a trace of its own: the dispatcher serves every writer")
	for _, s := range tr.Recorder().Spans() {
		if s.Name() == tracing.HopWatchCacheDispatch {
			assert.Equal(t, dispatch.SpanContext(), s.SpanContext(), "one dispatch span, the traced write's")
		}
	}
}

// waitSpan waits until the recorder holds a span that match accepts.
func waitSpan(t *testing.T, tr *tracing.Tracing, match func(sdktrace.ReadOnlySpan) bool) sdktrace.ReadOnlySpan {
	t.Helper()
	timeout := time.NewTimer(waittest.Timeout)
	defer timeout.Stop()
	for {
		changed := tr.Recorder().Changed()
		for _, s := range tr.Recorder().Spans() {
			if match(s) {
				return s
			}
		}
		select {
		case <-changed:
		case <-timeout.C:
			t.Fatalf("no matching span within %v", waittest.Timeout)
		}
	}
}

package tracing_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/tracing"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// at is t0 plus ms milliseconds.
func at(ms float64) time.Time { return t0.Add(time.Duration(ms * float64(time.Millisecond))) }

// span starts and ends a span of component named hop at the given
// milliseconds, as a child of ctx's span and linked to links.
func span(ctx context.Context, tr *tracing.Tracing, component, hop string, start, end float64, links ...trace.Link) (context.Context, trace.SpanContext) {
	ctx, s := tr.Tracer(component).Start(ctx, hop, trace.WithTimestamp(at(start)), trace.WithLinks(links...))
	s.End(trace.WithTimestamp(at(end)))
	return ctx, s.SpanContext()
}

func names(steps []tracing.Step) []string {
	var out []string
	for _, s := range steps {
		out = append(out, s.Component()+" "+s.Span.Name())
	}
	return out
}

// TestTimelineIsCausal: the watch cache's dispatch of a write's event is
// recorded with a start time before the write's (clocks of two
// goroutines), and ends before it; the timeline still lists the write
// first, because the dispatch links to it. Spans of other requests are
// left out.
func TestTimelineIsCausal(t *testing.T) {
	tr := tracing.New(tracing.Options{})
	defer func() { require.NoError(t, tr.Shutdown(context.Background())) }()
	ctx := context.Background()

	reqCtx, req := span(ctx, tr, "apiserver", tracing.HopRequest, 0, 10)
	span(reqCtx, tr, "apiserver", tracing.HopAuthn, 1, 2)
	_, write := span(reqCtx, tr, "apiserver", tracing.HopEtcdTxn, 5, 9)
	tr.Revisions().Record(42, write)
	link, ok := tr.Revisions().Link(42)
	require.True(t, ok, "revision 42's writer")
	dispatchCtx, _ := span(ctx, tr, "apiserver", tracing.HopWatchCacheDispatch, 4.5, 6, link)
	_, delta := span(dispatchCtx, tr, "scheduler", tracing.HopInformerDelta, 7, 8)
	span(ctx, tr, "scheduler", tracing.HopSchedulerCycle, 8, 12, trace.Link{SpanContext: delta})
	span(ctx, tr, "apiserver", tracing.HopRequest, 3, 4) // another request

	steps := tracing.Timeline(tr.Recorder().Spans(), req.SpanID())
	assert.Equal(t, []string{
		"apiserver request",
		"apiserver authn",
		"apiserver etcd.txn",
		"apiserver watchcache.dispatch",
		"scheduler informer.delta",
		"scheduler scheduler.cycle",
	}, names(steps))
	var depths []int
	for _, s := range steps {
		depths = append(depths, s.Depth)
	}
	assert.Equal(t, []int{0, 1, 1, 2, 3, 4}, depths)

	var b strings.Builder
	require.NoError(t, tracing.Print(&b, steps))
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, lines, 6)
	assert.Regexp(t, `^\s*\+0\.00ms\s+apiserver\s+request\s+10\.00ms$`, lines[0])
	assert.Regexp(t, `^\s+\+4\.50ms\s+apiserver\s+watchcache\.dispatch\s+1\.50ms$`, lines[3])
}

func TestTimelineUnknownRoot(t *testing.T) {
	tr := tracing.New(tracing.Options{})
	defer func() { require.NoError(t, tr.Shutdown(context.Background())) }()
	span(context.Background(), tr, "apiserver", tracing.HopRequest, 0, 1)
	assert.Empty(t, tracing.Timeline(tr.Recorder().Spans(), trace.SpanID{1}))
}

func TestRecorderKeepsTheNewest(t *testing.T) {
	tr := tracing.New(tracing.Options{Capacity: 3})
	ctx := context.Background()
	changed := tr.Recorder().Changed()
	for i := range 5 {
		span(ctx, tr, "c", string(rune('a'+i)), float64(i), float64(i)+1)
	}
	select {
	case <-changed:
	default:
		t.Fatal("Changed not closed after a span ended")
	}
	var got []string
	for _, s := range tr.Recorder().Spans() {
		got = append(got, s.Name())
	}
	assert.Equal(t, []string{"c", "d", "e"}, got)
	assert.Equal(t, uint64(2), tr.Recorder().Dropped())
	_, last := span(ctx, tr, "c", "f", 5, 6)
	assert.Len(t, tr.Recorder().Trace(last.TraceID()), 1, "one span in f's trace")

	require.NoError(t, tr.Shutdown(ctx))
	span(ctx, tr, "c", "g", 6, 7)
	assert.Len(t, tr.Recorder().Spans(), 3, "nothing kept after Shutdown")
}

func TestRevisionsForgetTheOldest(t *testing.T) {
	tr := tracing.New(tracing.Options{Capacity: 2})
	defer func() { require.NoError(t, tr.Shutdown(context.Background())) }()
	ctx := context.Background()
	var scs []trace.SpanContext
	for i := range 3 {
		_, sc := span(ctx, tr, "apiserver", tracing.HopEtcdTxn, float64(i), float64(i)+1)
		scs = append(scs, sc)
		tr.Revisions().Record(int64(10+i), sc)
	}
	_, ok := tr.Revisions().Writer(10)
	assert.False(t, ok, "revision 10 forgotten")
	for i, rev := range []int64{11, 12} {
		sc, ok := tr.Revisions().Writer(rev)
		require.True(t, ok, "revision %d", rev)
		assert.Equal(t, scs[i+1], sc)
	}
	tr.Revisions().Record(13, trace.SpanContext{})
	_, ok = tr.Revisions().Writer(13)
	assert.False(t, ok, "an untraced write is not recorded")
}

func TestNilTracingTracesNothing(t *testing.T) {
	var tr *tracing.Tracing
	_, s := tr.Tracer("apiserver").Start(context.Background(), tracing.HopRequest)
	s.End()
	assert.False(t, s.SpanContext().IsValid())
	assert.Nil(t, tr.Recorder())
	tr.Revisions().Record(1, s.SpanContext())
	_, ok := tr.Revisions().Link(1)
	assert.False(t, ok)
	assert.NoError(t, tr.Shutdown(context.Background()))
}

// TestPendingWriter: a watcher that sees a write's event before the
// writer recorded its revision finds the writer by the change it makes.
func TestPendingWriter(t *testing.T) {
	tr := tracing.New(tracing.Options{})
	defer func() { require.NoError(t, tr.Shutdown(context.Background())) }()
	ctx := context.Background()
	_, a := span(ctx, tr, "apiserver", tracing.HopEtcdTxn, 0, 1)
	_, b := span(ctx, tr, "apiserver", tracing.HopEtcdTxn, 0, 1)
	revs := tr.Revisions()
	doneA := revs.Pending("/pods/ns/p", 7, a)
	doneB := revs.Pending("/pods/ns/p", 7, b)
	sc, ok := revs.PendingWriter("/pods/ns/p", 7)
	require.True(t, ok)
	assert.Equal(t, a, sc, "the first writer of the change")
	_, ok = revs.PendingWriter("/pods/ns/p", 8)
	assert.False(t, ok, "another change")
	doneA()
	sc, ok = revs.PendingWriter("/pods/ns/p", 7)
	require.True(t, ok)
	assert.Equal(t, b, sc)
	doneB()
	_, ok = revs.PendingWriter("/pods/ns/p", 7)
	assert.False(t, ok, "no write in flight")
	revs.Pending("/pods/ns/q", 0, trace.SpanContext{})()
	_, ok = revs.PendingWriter("/pods/ns/q", 0)
	assert.False(t, ok, "an untraced write is not pending")
}

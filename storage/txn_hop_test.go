package storage_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/tracing"
)

// TestWritesAreTraced: each write is an etcd.txn span in the writer's
// trace, carrying the revision it wrote, and Revisions names it as that
// revision's writer; a create of a key that exists is a failed hop.
func TestWritesAreTraced(t *testing.T) {
	tr := tracing.New(tracing.Options{})
	t.Cleanup(func() { require.NoError(t, tr.Shutdown(context.Background())) })
	s, err := storage.NewStore(storagetest.Client(t), storage.StoreOptions{
		Prefix:        storagetest.Prefix(t),
		GroupResource: storagetest.WidgetResource,
		NewFunc:       storagetest.NewWidget,
		Tracing:       tr,
	})
	require.NoError(t, err, "NewStore")
	ctx, req := tr.Tracer("test").Start(t.Context(), tracing.HopRequest)
	key := "/widgets/ns/w"
	created, err := s.Create(ctx, key, widget("ns", "w"))
	require.NoError(t, err, "Create(%q)", key)
	updated, err := s.GuaranteedUpdate(ctx, key, storage.UpdateOptions{}, func(obj runtime.Object) (runtime.Object, error) {
		obj.(*storagetest.Widget).Spec.Color = "blue"
		return obj, nil
	})
	require.NoError(t, err, "GuaranteedUpdate(%q)", key)
	deleted, err := s.Delete(ctx, key, storage.DeleteOptions{})
	require.NoError(t, err, "Delete(%q)", key)
	_, err = s.Create(ctx, key, widget("ns", "w"))
	require.NoError(t, err, "Create(%q) again", key)
	_, err = s.Create(ctx, key, widget("ns", "w"))
	require.ErrorIs(t, err, storage.ErrExists)
	req.End()

	var hops []sdktrace.ReadOnlySpan
	for _, sp := range tr.Recorder().Trace(req.SpanContext().TraceID()) {
		if sp.Name() == tracing.HopEtcdTxn {
			assert.Equal(t, req.SpanContext().SpanID(), sp.Parent().SpanID(), "child of the request")
			hops = append(hops, sp)
		}
	}
	require.Len(t, hops, 5)
	for i, obj := range []runtime.Object{created, updated, deleted} {
		rev, err := strconv.ParseInt(metav1.MustAccessor(obj).ResourceVersion, 10, 64)
		require.NoError(t, err)
		assert.Contains(t, hops[i].Attributes(), tracing.KeyRV.Int64(rev), "hop %d", i)
		assert.Contains(t, hops[i].Attributes(), tracing.KeyVerb.String([]string{"create", "update", "delete"}[i]))
		writer, ok := tr.Revisions().Writer(rev)
		require.True(t, ok, "writer of revision %d", rev)
		assert.Equal(t, hops[i].SpanContext(), writer)
	}
	assert.Contains(t, hops[4].Attributes(), attribute.String("key", key))
	assert.NotEmpty(t, hops[4].Status().Description, "the create of an existing key failed")
}

package storage_test

import (
	"context"
	"log/slog"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/storage"
)

// startEtcd starts an etcd of the test's own; the test closes it.
func startEtcd(t *testing.T, opts storage.EmbeddedOptions) *storage.EmbeddedEtcd {
	t.Helper()
	opts.UnsafeNoFsync = true
	e, err := storage.StartEmbeddedEtcd(t.Context(), opts)
	require.NoError(t, err, "StartEmbeddedEtcd")
	return e
}

func TestEmbeddedEtcdKeepsGivenDataDir(t *testing.T) {
	dir := t.TempDir()
	e := startEtcd(t, storage.EmbeddedOptions{DataDir: dir})
	endpoints := e.Endpoints()
	require.Len(t, endpoints, 1, "Endpoints")
	u, err := url.Parse(endpoints[0])
	require.NoError(t, err, "endpoint %q", endpoints[0])
	assert.Equal(t, "127.0.0.1", u.Hostname(), "etcd listens on loopback only")
	assert.NotEqual(t, "0", u.Port(), "Endpoints reports the port the kernel picked")
	_, err = e.Client().Put(t.Context(), "kept", "yes")
	require.NoError(t, err, "Put")
	require.NoError(t, e.Close(), "Close")
	require.NoError(t, e.Close(), "second Close")
	assert.DirExists(t, dir, "a given DataDir is kept")

	restarted := startEtcd(t, storage.EmbeddedOptions{DataDir: dir})
	defer restarted.Close()
	resp, err := restarted.Client().Get(t.Context(), "kept")
	require.NoError(t, err, "Get after restart")
	require.Len(t, resp.Kvs, 1, "data survives a restart")
	assert.Equal(t, "yes", string(resp.Kvs[0].Value), "value after restart")
}

func TestEmbeddedEtcdRemovesTempDir(t *testing.T) {
	e := startEtcd(t, storage.EmbeddedOptions{})
	dir := e.DataDir()
	assert.DirExists(t, dir, "temporary DataDir while running")
	var wg sync.WaitGroup
	// Close is safe from several goroutines at once.
	for range 3 {
		wg.Go(func() { assert.NoError(t, e.Close(), "Close") })
	}
	wg.Wait()
	_, err := os.Stat(dir)
	assert.ErrorIs(t, err, os.ErrNotExist, "Close removes the temporary DataDir %s", dir)
}

func TestEmbeddedEtcdCanceledStart(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := storage.StartEmbeddedEtcd(ctx, storage.EmbeddedOptions{})
	assert.ErrorIs(t, err, context.Canceled, "StartEmbeddedEtcd with a canceled ctx")
}

// recordHandler keeps the records logged to it.
type recordHandler struct {
	mu      sync.Mutex
	records []slog.Record
}

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *recordHandler) WithGroup(string) slog.Handler            { return h }
func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records = append(h.records, r)
	return nil
}

func (h *recordHandler) messages(minLevel slog.Level) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.records {
		if r.Level >= minLevel {
			out = append(out, r.Message)
		}
	}
	return out
}

func TestEmbeddedEtcdLogs(t *testing.T) {
	h := &recordHandler{}
	e := startEtcd(t, storage.EmbeddedOptions{Logger: slog.New(h)})
	_, err := e.Client().Put(t.Context(), "k", "v")
	require.NoError(t, err, "Put")
	require.NoError(t, e.Close(), "Close")
	assert.Equal(t, []string{"etcd started", "etcd stopped"}, h.messages(slog.LevelInfo), "lifecycle records")
	assert.Empty(t, h.messages(slog.LevelError), "an orderly start and stop logs no error")
}

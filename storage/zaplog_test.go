package storage

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

type recorded struct {
	level slog.Level
	msg   string
	attrs map[string]any
}

type recorder struct{ records []recorded }

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *recorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *recorder) WithGroup(string) slog.Handler            { return r }
func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	attrs := map[string]any{}
	rec.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.Any(); return true })
	r.records = append(r.records, recorded{rec.Level, rec.Message, attrs})
	return nil
}

func TestZapLoggerForwardsToSlog(t *testing.T) {
	rec := &recorder{}
	var mute atomic.Bool
	lg := newZapLogger(slog.New(rec), zapcore.WarnLevel, &mute).Named("etcd")
	lg.Info("below the minimum")
	lg.Warn("slow", zap.Int("ms", 120))
	lg.Error("failed", zap.Error(errors.New("boom")))
	lg.Error("failed to update storage version")
	mute.Store(true)
	lg.Error("while closing")

	require.Len(t, rec.records, 3, "records forwarded: %+v", rec.records)
	assert.Equal(t, recorded{slog.LevelWarn, "slow", map[string]any{"logger": "etcd", "ms": int64(120)}}, rec.records[0], "warn record")
	assert.Equal(t, recorded{slog.LevelError, "failed", map[string]any{"logger": "etcd", "err": "boom"}}, rec.records[1],
		"error record, with zap's error field as err")
	assert.Equal(t, recorded{slog.LevelWarn, "failed to update storage version", map[string]any{"logger": "etcd"}}, rec.records[2],
		"a benign etcd error is a warning")
}

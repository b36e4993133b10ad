package storage

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// newZapLogger returns a zap logger (what etcd's server and client log
// through) that hands its records at minLevel and above to logger, so
// etcd's own complaints land in the one slog stream a cluster has. Zap's
// "error" field becomes our fixed "err" key. Once mute is set, nothing is
// forwarded any more.
func newZapLogger(logger *slog.Logger, minLevel zapcore.Level, mute *atomic.Bool) *zap.Logger {
	return zap.New(&slogCore{handler: logger.Handler(), minLevel: minLevel, mute: mute})
}

// slogCore is a zapcore.Core writing to a slog.Handler.
type slogCore struct {
	handler  slog.Handler
	minLevel zapcore.Level
	mute     *atomic.Bool
}

func (c *slogCore) Enabled(l zapcore.Level) bool {
	return l >= c.minLevel && !c.mute.Load() && c.handler.Enabled(context.Background(), slogLevel(l))
}

func (c *slogCore) With(fields []zapcore.Field) zapcore.Core {
	return &slogCore{handler: c.handler.WithAttrs(slogAttrs(fields)), minLevel: c.minLevel, mute: c.mute}
}

func (c *slogCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if e.Level >= zapcore.ErrorLevel && benignEtcdErrors[e.Message] {
		e.Level = zapcore.WarnLevel
	}
	if c.Enabled(e.Level) {
		return ce.AddCore(e, c)
	}
	return ce
}

// benignEtcdErrors are messages etcd logs at Error level that need no one
// to act, so they are forwarded as warnings.
var benignEtcdErrors = map[string]bool{
	// etcd 3.7 on a fresh data directory: the storage-version monitor can
	// run before raft's first term is committed to the backend ("missing
	// term information"); it retries on its own a few seconds later.
	"failed to update storage version": true,
}

func (c *slogCore) Write(e zapcore.Entry, fields []zapcore.Field) error {
	r := slog.NewRecord(e.Time, slogLevel(e.Level), e.Message, 0)
	if e.LoggerName != "" {
		r.AddAttrs(slog.String("logger", e.LoggerName))
	}
	r.AddAttrs(slogAttrs(fields)...)
	return c.handler.Handle(context.Background(), r)
}

func (c *slogCore) Sync() error { return nil }

func slogLevel(l zapcore.Level) slog.Level {
	switch {
	case l <= zapcore.DebugLevel:
		return slog.LevelDebug
	case l == zapcore.InfoLevel:
		return slog.LevelInfo
	case l == zapcore.WarnLevel:
		return slog.LevelWarn
	}
	return slog.LevelError
}

// slogAttrs converts zap fields, sorted by key so records read the same
// every time.
func slogAttrs(fields []zapcore.Field) []slog.Attr {
	enc := zapcore.NewMapObjectEncoder()
	for _, f := range fields {
		f.AddTo(enc)
	}
	attrs := make([]slog.Attr, 0, len(enc.Fields))
	for k, v := range enc.Fields {
		if k == "error" {
			k = "err"
		}
		attrs = append(attrs, slog.Any(k, v))
	}
	slices.SortFunc(attrs, func(a, b slog.Attr) int { return strings.Compare(a.Key, b.Key) })
	return attrs
}

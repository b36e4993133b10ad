// Package logging carries a request- or reconcile-scoped *slog.Logger in a
// context, so code deep in a call path logs with the attributes (verb,
// resource, name, hop) its caller attached. Library code never uses
// slog.Default.
package logging

import (
	"context"
	"log/slog"
)

type loggerKey struct{}

// Discard is the logger components use when their Options give none.
var Discard = slog.New(slog.DiscardHandler)

// NewContext returns ctx carrying l.
func NewContext(ctx context.Context, l *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, l)
}

// FromContext returns the logger in ctx, or Discard.
func FromContext(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return Discard
}

// OrDiscard returns l, or Discard when l is nil: the default for every
// Options.Logger.
func OrDiscard(l *slog.Logger) *slog.Logger {
	if l == nil {
		return Discard
	}
	return l
}

package main

import (
	"context"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/clock"
)

// virtualTime is a span processor that notes the cluster's (virtual)
// time at which each span starts. The tracer stamps spans with the
// machine's time, in which the example's sleeps and backoffs take no time
// at all; the steps are printed on the cluster's clock. Safe for
// concurrent use.
type virtualTime struct {
	clock clock.Clock
	// mu guards at.
	mu sync.Mutex
	at map[trace.SpanID]time.Time
}

var _ sdktrace.SpanProcessor = (*virtualTime)(nil)

func newVirtualTime(clk clock.Clock) *virtualTime {
	return &virtualTime{clock: clk, at: map[trace.SpanID]time.Time{}}
}

// OnStart implements sdktrace.SpanProcessor.
func (v *virtualTime) OnStart(_ context.Context, s sdktrace.ReadWriteSpan) {
	now := v.clock.Now()
	v.mu.Lock()
	v.at[s.SpanContext().SpanID()] = now
	v.mu.Unlock()
}

// Of returns the virtual time at which s started.
func (v *virtualTime) Of(s sdktrace.ReadOnlySpan) time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.at[s.SpanContext().SpanID()]
}

// OnEnd implements sdktrace.SpanProcessor.
func (v *virtualTime) OnEnd(sdktrace.ReadOnlySpan) {}

// Shutdown implements sdktrace.SpanProcessor.
func (v *virtualTime) Shutdown(context.Context) error { return nil }

// ForceFlush implements sdktrace.SpanProcessor.
func (v *virtualTime) ForceFlush(context.Context) error { return nil }

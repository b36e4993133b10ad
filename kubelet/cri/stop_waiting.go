package cri

import "context"

// stopWaitingKey is the context key of WithStopWaiting's callback.
type stopWaitingKey struct{}

// WithStopWaiting returns ctx carrying f, for a StopContainer call: a
// runtime that supports it calls f once the container has been sent
// SIGTERM, has not exited, and StopContainer now only waits for it to
// exit or for the grace period to end. The kubelet uses it to tell a
// wait that only time ends (a quiescence barrier counts it as idle) from
// a stop about to return. A runtime may ignore it.
//
// Upstream: none; CRI stops are opaque. It serves minicp's WaitIdle.
func WithStopWaiting(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, stopWaitingKey{}, f)
}

// StopWaiting calls the callback WithStopWaiting put in ctx, if any. A
// runtime calls it from StopContainer.
func StopWaiting(ctx context.Context) {
	if f, ok := ctx.Value(stopWaitingKey{}).(func()); ok {
		f()
	}
}

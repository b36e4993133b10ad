package manager

import "context"

// Runnable is anything a Manager starts: controllers, event recorders, a
// user's own loops. Start blocks until ctx is done and everything it
// started has stopped; an error stops the whole Manager.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager (Runnable).
type Runnable interface {
	Start(ctx context.Context) error
}

// RunnableFunc adapts a function to a Runnable.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager (RunnableFunc).
type RunnableFunc func(ctx context.Context) error

var _ Runnable = RunnableFunc(nil)

// Start calls f.
func (f RunnableFunc) Start(ctx context.Context) error { return f(ctx) }

// LeaderElectionRunnable is an optional capability of a Runnable: one that
// returns false from NeedLeaderElection runs on every manager, leader or
// not. A Runnable without it, like a controller, runs only on the leader.
// The Manager checks for it in Add.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager
// (LeaderElectionRunnable).
type LeaderElectionRunnable interface {
	NeedLeaderElection() bool
}

// needsLeader reports whether r runs only on the leader.
func needsLeader(r Runnable) bool {
	if le, ok := r.(LeaderElectionRunnable); ok {
		return le.NeedLeaderElection()
	}
	return true
}

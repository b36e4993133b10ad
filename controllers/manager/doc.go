// Package manager runs a program's controllers: it owns the client, the
// shared informer cache, leader election, event recorders and health
// checks, and starts and stops everything added to it in the right order.
// It is what minicp's controller-manager is built on, and what a user's
// operator uses the same way: New, add controllers with the builder, Start
// (the builder's Example test shows it end to end).
//
// The package tour:
//
//   - controllers/manager: Manager, Runnable, health checks, Idle;
//   - controllers/builder: the fluent way to make a controller (For,
//     Owns, Watches, Complete);
//   - controllers/controller: a controller made by hand (New, Watch);
//   - controllers/reconcile: Reconciler, Request, Result, TerminalError;
//   - controllers/handler, controllers/source, controllers/event: how
//     changes become Requests;
//   - controllers/cache: the shared informers and typed listers;
//   - controllers/leaderelection: the Lease that makes one manager of
//     several the leader;
//   - controllers/healthz: /healthz and /readyz.
//
// An operator is a custom resource plus a custom controller that knows how
// to run what the resource describes. Every controller a manager runs,
// built-in or an operator's, does the same: watch through the API server,
// compare the desired with the current state, act, repeat.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager.
package manager

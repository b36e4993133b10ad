package reconcile

import (
	"context"
	"errors"
	"time"
)

// NamespacedName names an object: Namespace is "" for cluster-scoped ones.
//
// Upstream: k8s.io/apimachinery/pkg/types (NamespacedName).
// TODO(controllers): move to api once it has a types package #6
type NamespacedName struct {
	Namespace string
	Name      string
}

// String returns "namespace/name", or "name" for a cluster-scoped object:
// the informer's key of the object.
func (n NamespacedName) String() string {
	if n.Namespace == "" {
		return n.Name
	}
	return n.Namespace + "/" + n.Name
}

// Request names the object to reconcile. It is comparable, so the
// workqueue folds equal Requests into one.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/reconcile (Request).
type Request struct {
	NamespacedName
}

// Result says whether the controller should reconcile the Request again
// when Reconcile returned no error. The zero Result means "done".
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/reconcile (Result).
type Result struct {
	// Requeue asks for another Reconcile after the rate limiter's backoff,
	// as an error would, without logging one.
	Requeue bool
	// RequeueAfter, when positive, asks for another Reconcile after this
	// long (on the controller's clock) and resets the backoff. It takes
	// precedence over Requeue.
	RequeueAfter time.Duration
}

// IsZero reports whether r is the zero Result.
func (r Result) IsZero() bool { return r == Result{} }

// Reconciler moves one object towards its desired state.
//
// Reconcile is called by a controller's workers: never concurrently for
// the same Request, but concurrently for different ones when the
// controller has MaxConcurrentReconciles > 1. ctx is cancelled when the
// controller stops and carries a logger (logging.FromContext) scoped to the
// Request. A non-nil error means "retry with backoff" unless it wraps a
// TerminalError; the Result is ignored then. A panic is recovered and
// treated as an error.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/reconcile (Reconciler).
type Reconciler interface {
	Reconcile(ctx context.Context, req Request) (Result, error)
}

// Func adapts a function to a Reconciler.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/reconcile (Func).
type Func func(ctx context.Context, req Request) (Result, error)

var _ Reconciler = Func(nil)

// Reconcile calls f.
func (f Func) Reconcile(ctx context.Context, req Request) (Result, error) { return f(ctx, req) }

// TerminalError wraps err so that the controller logs it and does not
// retry the Request: for errors that retrying cannot fix, such as an
// invalid spec. The Request is reconciled again only on its next event.
// Check for one with errors.Is(err, TerminalError(nil)); errors.Unwrap
// returns err.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/reconcile (TerminalError).
func TerminalError(err error) error {
	return &terminalError{err: err}
}

// terminalError is what TerminalError returns.
type terminalError struct {
	err error
}

func (e *terminalError) Error() string {
	if e.err == nil {
		return "terminal error"
	}
	return "terminal error: " + e.err.Error()
}

func (e *terminalError) Unwrap() error { return e.err }

// Is makes every terminal error match every other, so that
// errors.Is(err, TerminalError(nil)) finds one anywhere in err's chain.
func (e *terminalError) Is(target error) bool {
	var te *terminalError
	return errors.As(target, &te)
}

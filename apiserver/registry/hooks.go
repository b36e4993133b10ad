package registry

import (
	"context"

	"github.com/minicp/minicp/api/runtime"
)

// FinishFunc ends what a Begin hook of an AllocatingStrategy started.
// success reports whether the write the hook prepared was stored: the hook
// keeps what it allocated when it was, and releases it when it was not.
// It is called exactly once per successful Begin call.
type FinishFunc func(ctx context.Context, success bool)

func finishNothing(context.Context, bool) {}

// AllocatingStrategy is an optional Strategy capability, checked in
// Store.Create, Store.Update and Store.Delete: kinds whose objects hold
// something kept outside them, such as a Service's cluster IP and node
// ports, which must be allocated when the object is written and freed when
// it is deleted. Without a transaction spanning both, the store runs the
// hooks around its own write:
//
//	create: PrepareForCreate -> BeginCreate -> Validate -> etcd -> finish(ok)
//	update: PrepareForUpdate -> BeginUpdate -> ValidateUpdate -> etcd -> finish(ok)
//	delete: etcd -> AfterDelete
//
// so validation sees what was allocated. Upstream runs the Begin hooks
// before PrepareFor*; minicp runs them after, so that a subresource whose
// strategy keeps the old spec (services/status) allocates nothing. A Begin
// hook that lost a storage race is finished with false before the update
// is retried.
//
// Upstream: k8s.io/apiserver/pkg/registry/generic/registry (Store.BeginCreate,
// Store.BeginUpdate, Store.AfterDelete).
type AllocatingStrategy interface {
	// BeginCreate allocates what obj needs and records it in obj. With
	// dryRun it only checks that it could.
	BeginCreate(ctx context.Context, obj runtime.Object, dryRun bool) (FinishFunc, error)
	// BeginUpdate allocates what obj needs that old did not have, and
	// releases, on success, what old had that obj no longer needs.
	BeginUpdate(ctx context.Context, obj, old runtime.Object, dryRun bool) (FinishFunc, error)
	// AfterDelete releases what the deleted obj held. It cannot fail the
	// delete, which has happened.
	AfterDelete(ctx context.Context, obj runtime.Object)
}

// beginCreate runs the strategy's BeginCreate hook, if it has one.
func (s *Store) beginCreate(ctx context.Context, obj runtime.Object, dryRun bool) (FinishFunc, error) {
	a, ok := s.Strategy.(AllocatingStrategy)
	if !ok {
		return finishNothing, nil
	}
	return a.BeginCreate(ctx, obj, dryRun)
}

// beginUpdate runs the strategy's BeginUpdate hook, if it has one.
func (s *Store) beginUpdate(ctx context.Context, obj, old runtime.Object, dryRun bool) (FinishFunc, error) {
	a, ok := s.Strategy.(AllocatingStrategy)
	if !ok {
		return finishNothing, nil
	}
	return a.BeginUpdate(ctx, obj, old, dryRun)
}

// afterDelete runs the strategy's AfterDelete hook, if it has one.
func (s *Store) afterDelete(ctx context.Context, obj runtime.Object) {
	if a, ok := s.Strategy.(AllocatingStrategy); ok {
		a.AfterDelete(ctx, obj)
	}
}

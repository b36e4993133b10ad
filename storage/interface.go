package storage

import (
	"context"

	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
)

// Interface is a store of one resource's objects. Keys are full keys as the
// registry builds them (KeyFunc); implementations prefix them. All methods
// are safe for concurrent use and never modify objects passed in: they
// return new objects the caller owns.
//
// Upstream: k8s.io/apiserver/pkg/storage (Interface).
type Interface interface {
	// Create stores obj under key if nothing is there, and returns the stored
	// object with its resourceVersion set. ErrExists if the key is taken.
	Create(ctx context.Context, key string, obj runtime.Object) (runtime.Object, error)

	// Get returns the object under key. ErrNotFound if there is none (unless
	// opts.IgnoreNotFound, which returns a zero object instead).
	Get(ctx context.Context, key string, opts GetOptions) (runtime.Object, error)

	// GetList returns the objects under the key prefix that match
	// opts.Predicate, in key order, at a single revision.
	GetList(ctx context.Context, key string, opts ListOptions) (*ListResult, error)

	// GuaranteedUpdate reads the object under key (or starts from
	// opts.CachedExistingObject), calls tryUpdate with a copy it may
	// modify, and writes the result if the object has not changed
	// meanwhile; if it has, it reads again and calls tryUpdate again.
	// tryUpdate returning an error aborts with that error. ErrNotFound if the
	// key is empty and opts.IgnoreNotFound is false (with it, tryUpdate gets
	// a zero object: an upsert). Preconditions that fail give ErrConflict.
	// If tryUpdate returns an object equal to the stored one, nothing is
	// written and the stored object is returned.
	GuaranteedUpdate(ctx context.Context, key string, opts UpdateOptions, tryUpdate UpdateFunc) (runtime.Object, error)

	// Delete removes the object under key and returns its last state, with
	// the resourceVersion of the delete. ErrNotFound if there is none;
	// ErrConflict if preconditions fail; the error of validateDeletion, which
	// sees the current object, aborts the delete.
	Delete(ctx context.Context, key string, opts DeleteOptions) (runtime.Object, error)

	// Watch streams the changes under key (a single object's key, or a prefix
	// when opts.Recursive) that match opts.Predicate, starting after
	// opts.ResourceVersion. ResourceVersion "" or "0" first sends the current
	// state as ADDED events. An object that stops matching the predicate is
	// sent as DELETED, one that starts matching as ADDED. A resourceVersion
	// that etcd has compacted gives a watch whose only event is an Error with
	// a 410 Expired status (ErrExpired from the call itself when that is
	// known up front). The watch ends when ctx is done or Stop is called.
	Watch(ctx context.Context, key string, opts ListOptions) (watch.Interface, error)
}

// UpdateFunc computes the new state from the current one. It receives a
// copy it may modify and return. The etcd revision of current is in its
// resourceVersion. The returned object belongs to storage from then on:
// storage may modify it (it clears its resourceVersion before encoding).
// UpdateFunc may be called more than once: once per lost race, and once
// more after a stale cached copy (UpdateOptions.CachedExistingObject,
// which the watch cache passes on every update). Each call must compute
// its result from current alone, carrying nothing over from an earlier
// call (no writes to state the closure shares with the caller).
type UpdateFunc func(current runtime.Object) (updated runtime.Object, err error)

// GetOptions tunes Get.
type GetOptions struct {
	// IgnoreNotFound returns a zero object instead of ErrNotFound.
	IgnoreNotFound bool
	// ResourceVersion "" reads the latest state. Other values are accepted
	// for the watch cache, which may serve older-but-not-older-than reads.
	ResourceVersion string
}

// ListOptions tunes GetList and Watch.
type ListOptions struct {
	// ResourceVersion: for GetList, "" reads the latest state, "0" may be
	// served from a cache, and a number reads at that revision (Exact) or no
	// older than it (NotOlderThan, the default). For Watch, see Watch.
	ResourceVersion      string
	ResourceVersionMatch ResourceVersionMatch
	Predicate            Predicate
	// Recursive lists or watches every key under the prefix, not one key.
	Recursive bool
	// ProgressNotify asks the watch for Bookmark events when idle, so a
	// watcher's resourceVersion stays fresh (allowWatchBookmarks).
	ProgressNotify bool
}

// ResourceVersionMatch says how a list's ResourceVersion is interpreted.
type ResourceVersionMatch string

// The resourceVersionMatch values of the Kubernetes API.
const (
	ResourceVersionMatchNotOlderThan ResourceVersionMatch = "NotOlderThan"
	ResourceVersionMatchExact        ResourceVersionMatch = "Exact"
)

// UpdateOptions tunes GuaranteedUpdate.
type UpdateOptions struct {
	IgnoreNotFound bool
	Preconditions  *Preconditions
	// CachedExistingObject is a recent copy of the object under key, with
	// its resourceVersion: the watch cache's. GuaranteedUpdate starts from
	// it instead of reading etcd, and reads etcd only when it proves stale
	// (the transaction's revision check fails, or a precondition or
	// tryUpdate fails on it), so a stale copy costs one more round trip and
	// never changes the result. Storage takes ownership of it. Optional.
	//
	// Upstream: k8s.io/apiserver/pkg/storage (Interface.GuaranteedUpdate's
	// cachedExistingObject).
	CachedExistingObject runtime.Object
}

// DeleteOptions tunes Delete.
type DeleteOptions struct {
	Preconditions *Preconditions
	// ValidateDeletion sees the object about to be deleted and must not
	// modify it; its error aborts the delete. It may be called more than
	// once, once per lost race. Optional.
	ValidateDeletion func(current runtime.Object) error
}

// Preconditions must hold for an update or delete to proceed; a mismatch is
// ErrConflict.
type Preconditions struct {
	UID             *string
	ResourceVersion *string
}

// ListResult is one page of a list.
type ListResult struct {
	Items []runtime.Object
	// ResourceVersion is the revision the list is consistent at.
	ResourceVersion int64
	// Continue is the token for the next page; empty on the last page.
	Continue string
	// RemainingItemCount counts the items after this page, when known.
	RemainingItemCount *int64
}

// Predicate selects objects by labels and fields and pages the result.
type Predicate struct {
	Label labels.Selector
	Field fields.Selector
	// GetAttrs returns the labels and selectable fields of an object. When
	// nil, only metadata.name and metadata.namespace are selectable.
	GetAttrs AttrFunc
	// Limit caps a page; 0 means no limit.
	Limit int64
	// Continue is a token from a previous page.
	Continue string
}

// AttrFunc returns an object's labels and selectable fields.
type AttrFunc func(obj runtime.Object) (labels.Set, fields.Set, error)

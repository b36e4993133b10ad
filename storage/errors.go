package storage

import (
	"errors"
	"fmt"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
)

// The storage errors. Every error storage returns for one of these
// conditions is a *Error wrapping the sentinel, so errors.Is works.
var (
	ErrNotFound = errors.New("key not found")
	ErrExists   = errors.New("key exists")
	// ErrConflict is a failed precondition or a lost compare-and-swap the
	// caller must not retry blindly.
	ErrConflict = errors.New("conflict")
	// ErrExpired is a resourceVersion older than etcd keeps (compacted).
	ErrExpired = errors.New("resource version expired")
	// ErrInvalidContinue is a continue token that cannot be decoded or
	// belongs to another key.
	ErrInvalidContinue = errors.New("invalid continue token")
	// ErrTooLargeResourceVersion is a resourceVersion newer than etcd's
	// current revision; the client should retry.
	ErrTooLargeResourceVersion = errors.New("too large resource version")
	// ErrInvalidResourceVersion is a resourceVersion that is not a
	// revision (not a non-negative decimal number); bad input, not a
	// server fault.
	ErrInvalidResourceVersion = errors.New("invalid resource version")
	// ErrInvalidKey is a key or a name that cannot address an object:
	// empty, ".", "..", or a name holding "/" or "%"; bad input, not a
	// server fault.
	ErrInvalidKey = errors.New("invalid key")
	// ErrRequestTooLarge is a write etcd refused as larger than its
	// --max-request-bytes: the object is too big to store. It is etcd's
	// own error value, which storage returns wrapped, not in an *Error.
	ErrRequestTooLarge = rpctypes.ErrRequestTooLarge
)

// Error is a storage error about one key.
type Error struct {
	// Err is one of the sentinels above.
	Err error
	Key string
	// RV is the revision involved, when there is one.
	RV int64
	// Detail explains the failure for people ("the object has been
	// modified; please apply your changes to the latest version").
	Detail string
}

func (e *Error) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("%s: %v: %s", e.Key, e.Err, e.Detail)
	}
	return fmt.Sprintf("%s: %v", e.Key, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// NewNotFoundError says key holds nothing.
func NewNotFoundError(key string, rv int64) *Error {
	return &Error{Err: ErrNotFound, Key: key, RV: rv}
}

// NewExistsError says key is already taken.
func NewExistsError(key string, rv int64) *Error {
	return &Error{Err: ErrExists, Key: key, RV: rv}
}

// NewConflictError says a precondition failed or the object changed.
func NewConflictError(key, detail string) *Error {
	return &Error{Err: ErrConflict, Key: key, Detail: detail}
}

// NewExpiredError says rv has been compacted away.
func NewExpiredError(key string, rv int64, detail string) *Error {
	return &Error{Err: ErrExpired, Key: key, RV: rv, Detail: detail}
}

// NewInvalidContinueError says a continue token cannot be used with key.
func NewInvalidContinueError(key, detail string) *Error {
	return &Error{Err: ErrInvalidContinue, Key: key, Detail: detail}
}

// NewTooLargeResourceVersionError says rv is newer than current, the
// revision etcd is at; the client should retry after a moment.
//
// Upstream: k8s.io/apiserver/pkg/storage (NewTooLargeResourceVersionError).
func NewTooLargeResourceVersionError(key string, rv, current int64) *Error {
	return &Error{Err: ErrTooLargeResourceVersion, Key: key, RV: rv,
		Detail: fmt.Sprintf("Too large resource version: %d, current: %d", rv, current)}
}

// NewInvalidResourceVersionError says rv is not a revision.
func NewInvalidResourceVersionError(key, rv string) *Error {
	return &Error{Err: ErrInvalidResourceVersion, Key: key, Detail: fmt.Sprintf("invalid resource version %q", rv)}
}

// NewInvalidKeyError says key (or a name in it) cannot address an object.
func NewInvalidKeyError(key, detail string) *Error {
	return &Error{Err: ErrInvalidKey, Key: key, Detail: detail}
}

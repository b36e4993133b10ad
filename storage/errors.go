package storage

import (
	"errors"
	"fmt"
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

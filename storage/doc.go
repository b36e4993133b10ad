// Package storage is the only place minicp talks to etcd. It defines
// storage.Interface, the contract the API server's registry writes through
// (and the watch cache implements too), and its etcd implementation: keys
// are /<prefix>/<resource>/<namespace>/<name>, an object's resourceVersion
// is the etcd revision that last wrote it, creates and updates are etcd
// transactions that compare revisions, and watches map etcd events to
// ADDED, MODIFIED and DELETED.
//
// It also starts embedded etcd servers (server/v3/embed) or connects to
// external ones, so one etcd can serve many clusters, each under its own
// prefix.
//
// Storage returns storage errors (ErrNotFound, ErrExists, ErrConflict,
// ErrExpired in a *Error); it knows nothing of HTTP or Status. The registry
// in the API server translates them.
//
// Seed 002 ("kube-apiserver", steps 4 and 5) and seed 001 ("How the API
// Server Processes the requests", the last hop: persisting to etcd).
package storage

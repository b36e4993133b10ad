// Package storage is the only place minicp talks to etcd. It defines
// storage.Interface, the contract the API server's registry writes through
// (and the watch cache implements too), and its etcd implementation, Store:
// keys are /<prefix>/<resource>/<namespace>/<name> (keys.go), an object's
// resourceVersion is the etcd revision that last wrote it, creates, updates
// and deletes are etcd transactions that compare revisions, lists page with
// continue tokens pinned to one revision (continue.go), and watches map
// etcd events to ADDED, MODIFIED, DELETED and BOOKMARK (watcher.go).
//
// It also starts embedded etcd servers (StartEmbeddedEtcd, server/v3/embed)
// or connects to external ones (NewClient), so one etcd can serve many
// clusters, each under its own prefix.
//
// Storage returns storage errors (ErrNotFound, ErrExists, ErrConflict,
// ErrExpired, ErrInvalidContinue, ErrTooLargeResourceVersion,
// ErrInvalidResourceVersion, ErrInvalidKey, each in a *Error); it knows
// nothing of HTTP, and the registry in the API server translates them to
// Status. The one Status storage builds is the object of a watch's Error
// event, which the watch.Event contract requires.
//
// Package storagetest has the shared test etcd and the conformance suite
// every Interface implementation runs.
//
// On the request path it is the last hop, persisting to etcd: the
// registry saves an object through it, and the object as stored (with its
// new resourceVersion) is what the client gets back.
package storage

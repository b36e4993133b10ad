// Package watch defines the stream of changes a watch delivers: storage
// produces it from etcd, the watch cache fans it out, the API server writes
// it as newline-delimited JSON and the client decodes it back.
//
// Upstream: k8s.io/apimachinery/pkg/watch.
package watch

import "github.com/minicp/minicp/api/runtime"

// EventType is the kind of change.
type EventType string

// The event types of a watch stream, spelled as on the wire.
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
	// Bookmark carries only a resourceVersion: nothing changed, but the
	// watcher has seen everything up to it.
	Bookmark EventType = "BOOKMARK"
	// Error carries a *metav1.Status; the stream ends after it.
	Error EventType = "ERROR"
)

// Event is one change. For Deleted, Object is the last state before the
// delete, with the resourceVersion of the delete.
type Event struct {
	Type   EventType
	Object runtime.Object
}

// Interface is a running watch. The producer closes ResultChan when the
// watch ends, whether by Stop, by its context, or by an error it reported as
// an Error event. Stop is safe to call more than once and from any
// goroutine.
type Interface interface {
	Stop()
	ResultChan() <-chan Event
}

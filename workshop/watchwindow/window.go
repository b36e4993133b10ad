package watchwindow

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
)

// Event is one change the window keeps: what a watcher that started
// before it will be sent.
type Event struct {
	Type watch.EventType
	// ResourceVersion is the etcd revision of the change. Events reach
	// Add in increasing order.
	ResourceVersion int64
	Object          runtime.Object
}

// Window keeps the last Capacity events of a resource in a ring buffer,
// and serves the events after a resourceVersion. It is not safe for
// concurrent use: the watch cache holds a lock around it.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (watchCache's cache,
// startIndex and endIndex).
type Window struct {
	// ring holds the events in the window: ring[start%len(ring)], ...,
	// ring[(end-1)%len(ring)], oldest first, so there are end-start of
	// them. start and end only grow; end-start <= len(ring).
	ring       []Event
	start, end int
	// windowRV is the oldest resourceVersion a watch can start from:
	// every event after it is in the ring. It is the resourceVersion the
	// window started at until an event is evicted, then the evicted
	// event's resourceVersion.
	windowRV int64
}

// NewWindow returns an empty window of capacity events (at least 1),
// current to rv: the resourceVersion of the list the watch cache started
// from, so watches from rv on can be served.
func NewWindow(capacity int, rv int64) *Window {
	return &Window{ring: make([]Event, max(capacity, 1)), windowRV: rv}
}

// Len is how many events the window holds.
func (w *Window) Len() int { return w.end - w.start }

// OldestRV is the oldest resourceVersion EventsSince serves.
func (w *Window) OldestRV() int64 { return w.windowRV }

// tooOld is the error of a watch from rv, older than the window: the
// storage error the API server answers with 410 Gone (reason Expired),
// worded as Kubernetes words it.
func (w *Window) tooOld(rv int64) error {
	return storage.NewExpiredError("", rv, fmt.Sprintf("too old resource version: %d (%d)", rv, w.windowRV))
}

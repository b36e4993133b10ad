package informer

import (
	"sync"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/wait"
)

// HandledTracker records, per object key, the resourceVersion an event
// handler last handled, so its owner can tell whether the handler has
// caught up with its informer's Indexer (CaughtUp). A Registration only
// says that the first LIST was handled, and offers no channel to wait on;
// the tracker covers every later change too, and notifies a Broadcast on
// each, which is what a wait.Idler needs: the scheduler's Idle and a
// controller source's CaughtUp are built on it. It is safe for concurrent
// use.
//
// Upstream: none; it serves minicp's quiescence barrier (wait.WaitIdle).
type HandledTracker struct {
	// changed is notified after every change of rvs; the owner may share
	// it with other trackers and its own changes.
	changed *wait.Broadcast

	// mu guards rvs: key -> resourceVersion of the last state handled; a
	// deleted object has no entry.
	mu  sync.Mutex
	rvs map[string]string
}

// NewHandledTracker returns an empty tracker that notifies changed at
// every Handled and Deleted. To wait for CaughtUp without missing a
// change, take changed.Wait() before calling it.
func NewHandledTracker(changed *wait.Broadcast) *HandledTracker {
	return &HandledTracker{changed: changed, rvs: map[string]string{}}
}

// Handled records obj as handled at its resourceVersion. Call it after
// the handler has acted on obj (fed its queue, its cache), so a caught-up
// handler has done so for everything it was told.
func (t *HandledTracker) Handled(obj runtime.Object) {
	key, err := MetaNamespaceKeyFunc(obj)
	if err != nil {
		return // no metadata: the Indexer cannot hold it either
	}
	rv := metav1.MustAccessor(obj).ResourceVersion
	t.mu.Lock()
	t.rvs[key] = rv
	t.mu.Unlock()
	// Notified after the unlock: a woken waiter's CaughtUp takes mu.
	t.changed.Notify()
}

// Deleted records that the handler has handled the deletion of the
// object stored under key.
func (t *HandledTracker) Deleted(key string) {
	t.mu.Lock()
	delete(t.rvs, key)
	t.mu.Unlock()
	t.changed.Notify()
}

// CaughtUp reports whether every object of indexer has been handled at
// its current resourceVersion, and no object the indexer no longer holds
// is still recorded (its delete was handled). The indexer is read first,
// so true means the handler had caught up with the indexer as it was
// then. It does not block.
func (t *HandledTracker) CaughtUp(indexer *Indexer) bool {
	objs := indexer.List()
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(objs) != len(t.rvs) {
		return false
	}
	for _, obj := range objs {
		key, err := MetaNamespaceKeyFunc(obj)
		if err != nil {
			return false
		}
		if rv, ok := t.rvs[key]; !ok || rv != metav1.MustAccessor(obj).ResourceVersion {
			return false
		}
	}
	return true
}

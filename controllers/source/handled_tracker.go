package source

import (
	"sync"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/wait"
)

// handledTracker records, per object key, the resourceVersion the handler
// last handled, so CaughtUp can tell whether the handler has caught up
// with its informer's Indexer. A Registration only says that the first
// LIST was handled, and offers no channel to wait on; the tracker covers
// every later change too and notifies on each. Safe for concurrent use.
//
// Upstream: none; minicp's scheduler keeps the same tracker for its Idle.
type handledTracker struct {
	// mu guards rvs, which maps a key to the resourceVersion of the last
	// state handled; a deleted object has no entry. changed is notified,
	// under mu, at every change of rvs.
	mu      sync.Mutex
	rvs     map[string]string
	changed wait.Broadcast
}

func newHandledTracker() *handledTracker {
	return &handledTracker{rvs: map[string]string{}}
}

// handled records obj as handled. The adapter calls it after the handler
// returned, so a caught-up handler has also fed the queue.
func (t *handledTracker) handled(obj runtime.Object) {
	key, err := informer.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return // no metadata: the Indexer cannot hold it either
	}
	rv := metav1.MustAccessor(obj).ResourceVersion
	t.mu.Lock()
	defer t.mu.Unlock()
	t.rvs[key] = rv
	t.notifyLocked()
}

// deleted records the deletion of the object stored under key.
func (t *handledTracker) deleted(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.rvs, key)
	t.notifyLocked()
}

func (t *handledTracker) notifyLocked() {
	t.changed.Notify()
}

// caughtUp reports whether every object of indexer has been handled at its
// current resourceVersion, and no object the indexer no longer holds is
// still recorded (its delete was handled). The indexer is read first, so
// true means the handler had caught up with the indexer as it was then.
// changed is closed at the next record.
func (t *handledTracker) caughtUp(indexer *informer.Indexer) (bool, <-chan struct{}) {
	objs := indexer.List()
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(objs) != len(t.rvs) {
		return false, t.changed.Wait()
	}
	for _, obj := range objs {
		key, err := informer.MetaNamespaceKeyFunc(obj)
		if err != nil {
			return false, t.changed.Wait()
		}
		if rv, ok := t.rvs[key]; !ok || rv != metav1.MustAccessor(obj).ResourceVersion {
			return false, t.changed.Wait()
		}
	}
	return true, t.changed.Wait()
}

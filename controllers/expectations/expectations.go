package expectations

import (
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
)

// Timeout is how long expectations are trusted: a watch event lost for
// good (which a relist repairs by resync) must not wedge a controller
// forever. Five minutes, as upstream's ExpectationsTimeout.
const Timeout = 5 * time.Minute

// Expectations counts, per key ("namespace/name" of the controller
// object), the creations and deletions still to be observed. The zero
// value is not usable; make one with New. It is safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller (ControllerExpectations).
type Expectations struct {
	clock clock.Clock

	mu    sync.Mutex
	byKey map[string]*expectation
	// uids are the UIDs of objects whose deletion is expected, per key,
	// so a deletion seen twice (graceful delete, then the final one) is
	// counted once.
	uids map[string]map[string]struct{}
}

// expectation is one key's outstanding counts.
type expectation struct {
	add, del  int
	timestamp time.Time
}

// New returns empty Expectations whose timeouts run on clk (clock.Real
// when nil).
func New(clk clock.Clock) *Expectations {
	if clk == nil {
		clk = clock.Real
	}
	return &Expectations{clock: clk, byKey: map[string]*expectation{}, uids: map[string]map[string]struct{}{}}
}

// Satisfied reports whether the controller may act on key: nothing is
// expected for it, everything expected was observed, or the expectations
// are older than Timeout.
func (e *Expectations) Satisfied(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	exp, ok := e.byKey[key]
	if !ok {
		return true
	}
	return exp.add <= 0 && exp.del <= 0 || e.clock.Since(exp.timestamp) > Timeout
}

// ExpectCreations records that the controller of key is about to create
// n objects, replacing what was expected before.
func (e *Expectations) ExpectCreations(key string, n int) {
	e.set(key, n, 0)
}

// ExpectDeletions records that the controller of key is about to delete
// the objects with these UIDs, replacing what was expected before.
func (e *Expectations) ExpectDeletions(key string, uids []string) {
	set := make(map[string]struct{}, len(uids))
	for _, uid := range uids {
		set[uid] = struct{}{}
	}
	// One critical section: a DeletionObserved between setting the UIDs
	// and the count would be lost, and the key wait for the timeout.
	e.mu.Lock()
	defer e.mu.Unlock()
	e.uids[key] = set
	e.byKey[key] = &expectation{del: len(set), timestamp: e.clock.Now()}
}

func (e *Expectations) set(key string, add, del int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.byKey[key] = &expectation{add: add, del: del, timestamp: e.clock.Now()}
}

// CreationObserved records that one creation of key was seen, through
// the informer or because the create failed (no event will come).
func (e *Expectations) CreationObserved(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if exp, ok := e.byKey[key]; ok {
		exp.add--
	}
}

// DeletionObserved records that the object uid of key was deleted, or
// that its delete failed. A UID that was not expected, or was observed
// already, changes nothing.
func (e *Expectations) DeletionObserved(key, uid string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	set := e.uids[key]
	if _, ok := set[uid]; !ok {
		return
	}
	delete(set, uid)
	if exp, ok := e.byKey[key]; ok {
		exp.del--
	}
}

// Delete forgets key, as when its controller object is deleted.
func (e *Expectations) Delete(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.byKey, key)
	delete(e.uids, key)
}

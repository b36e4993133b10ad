package informer

import (
	"context"
	"fmt"
	"sync"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/wait"
)

// DeltaType is the kind of change a Delta records.
type DeltaType string

// The change types.
const (
	Added   DeltaType = "Added"
	Updated DeltaType = "Updated"
	Deleted DeltaType = "Deleted"
	// Replaced is an object in a fresh LIST (the first one, or a relist
	// after the watch failed): it may or may not have changed.
	Replaced DeltaType = "Replaced"
	// Sync is a periodic resync: the object has not changed, it is
	// delivered again so handlers re-check the world against it.
	Sync DeltaType = "Sync"
)

// Delta is one change. Object is the object's new state, or for Deleted
// its last state, which is a DeletedFinalStateUnknown when the delete was
// inferred from a relist.
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas are the changes to one object, oldest first. It is never empty.
type Deltas []Delta

// Newest returns the most recent change.
func (d Deltas) Newest() Delta { return d[len(d)-1] }

// KeyListerGetter is the subset of the Indexer the DeltaFIFO reads: the
// objects the consumer already knows, to infer deletions on Replace and to
// resync.
//
// Upstream: k8s.io/client-go/tools/cache (KeyListerGetter).
type KeyListerGetter interface {
	ListKeys() []string
	GetByKey(key string) (runtime.Object, bool, error)
}

// DeltaFIFOOptions configures NewDeltaFIFO.
type DeltaFIFOOptions struct {
	// KeyFunction defaults to MetaNamespaceKeyFunc.
	KeyFunction KeyFunc
	// KnownObjects is what the consumer already has (its Indexer). Without
	// it, Replace cannot report objects that vanished and Resync does
	// nothing.
	KnownObjects KeyListerGetter
}

// DeltaFIFO is the queue between a Reflector and an informer: a FIFO of
// object keys, each with the list of changes (Deltas) that happened to the
// object since it was queued. A key is queued once however many changes
// pile up, so a slow consumer sees every change of an object together,
// in order, and objects in the order their first pending change came.
//
// Invariants, under mu:
//   - a key is in queue if and only if it is in items, and at most once;
//   - items[key] is never empty;
//   - two consecutive Deleted deltas never follow each other (dedupDeltas
//     keeps the one with more information);
//   - HasSynced is true once the first Replace was called and every key it
//     queued has been popped and processed.
//
// Add, Update, Delete, Replace and Resync are safe for concurrent use.
// Pop has one consumer.
//
// Upstream: k8s.io/client-go/tools/cache (DeltaFIFO).
type DeltaFIFO struct {
	keyFunc      KeyFunc
	knownObjects KeyListerGetter

	// processMu is held by Pop while the consumer processes an item, and
	// by the methods that read knownObjects. The consumer updates
	// knownObjects while processing, so without it Replace could see the
	// store before a popped delete was applied, and queue a second delete.
	// client-go gets the same effect by processing under its only lock.
	// Lock order: processMu, then mu.
	processMu sync.Mutex

	// mu guards the fields below.
	mu    sync.Mutex
	items map[string]Deltas
	queue []string
	// populated is set by the first Replace; initialPopulationCount is how
	// many of the keys it queued are not processed yet.
	populated              bool
	initialPopulationCount int
	// notEmpty is notified whenever a key is queued, so Pop can wait for
	// it and for its ctx at once.
	notEmpty wait.Broadcast
	// syncedCh is closed when HasSynced first becomes true.
	syncedCh chan struct{}
	synced   bool
	// processing is set while Pop's consumer processes a popped key, so
	// Drained does not call a queue empty while its last key is still
	// on its way to the consumer's store.
	processing bool
	// processed is notified after each key Pop has processed.
	processed wait.Broadcast
}

// NewDeltaFIFO returns an empty DeltaFIFO.
func NewDeltaFIFO(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	return &DeltaFIFO{
		keyFunc:      opts.KeyFunction,
		knownObjects: opts.KnownObjects,
		items:        map[string]Deltas{},
		syncedCh:     make(chan struct{}),
	}
}

// Add queues an Added delta.
func (f *DeltaFIFO) Add(obj runtime.Object) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.populated = true
	f.checkSyncedLocked()
	return f.queueActionLocked(Added, obj)
}

// Update queues an Updated delta.
func (f *DeltaFIFO) Update(obj runtime.Object) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.populated = true
	f.checkSyncedLocked()
	return f.queueActionLocked(Updated, obj)
}

// Delete queues a Deleted delta, unless the object is neither known nor
// queued: then there is nothing to delete.
func (f *DeltaFIFO) Delete(obj any) error {
	key, err := f.keyFunc(obj)
	if err != nil {
		return err
	}
	f.processMu.Lock()
	defer f.processMu.Unlock()
	known := false
	if f.knownObjects != nil {
		if _, known, err = f.knownObjects.GetByKey(key); err != nil {
			return err
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.populated = true
	f.checkSyncedLocked()
	if _, queued := f.items[key]; !known && !queued {
		return nil
	}
	return f.queueActionLocked(Deleted, obj)
}

// Replace queues a Replaced delta for each object of list, a complete
// LIST at resourceVersion rv, and a Deleted delta carrying a
// DeletedFinalStateUnknown for each known or queued object that list
// lacks: it was deleted while the watch was not looking. The first
// Replace defines the initial population HasSynced waits for. It takes
// ownership of list.
func (f *DeltaFIFO) Replace(list []runtime.Object, rv string) error {
	f.processMu.Lock()
	defer f.processMu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	keys := make(map[string]struct{}, len(list))
	for _, obj := range list {
		key, err := f.keyFunc(obj)
		if err != nil {
			return fmt.Errorf("informer: replace at %s: %w", rv, err)
		}
		keys[key] = struct{}{}
		if err := f.queueActionLocked(Replaced, obj); err != nil {
			return err
		}
	}
	// Queued objects the list lacks: their last queued state is the best
	// final state there is.
	for key, deltas := range f.items {
		if _, ok := keys[key]; ok {
			continue
		}
		last := deltas.Newest().Object
		if tomb, ok := last.(DeletedFinalStateUnknown); ok {
			last = tomb.Obj
		}
		obj, _ := last.(runtime.Object)
		if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{Key: key, Obj: obj}); err != nil {
			return err
		}
	}
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if _, ok := keys[key]; ok {
				continue
			}
			if _, queued := f.items[key]; queued {
				continue // handled above
			}
			obj, exists, err := f.knownObjects.GetByKey(key)
			if err != nil || !exists {
				continue // deleted meanwhile: nothing to report
			}
			if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{Key: key, Obj: obj}); err != nil {
				return err
			}
		}
	}
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(f.queue)
		f.checkSyncedLocked()
	}
	return nil
}

// Resync queues a Sync delta for every known object that has no change
// queued: a queued change will reach the consumer anyway, and a Sync
// after it would deliver a stale state.
func (f *DeltaFIFO) Resync() error {
	if f.knownObjects == nil {
		return nil
	}
	f.processMu.Lock()
	defer f.processMu.Unlock()
	keys := f.knownObjects.ListKeys()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, key := range keys {
		if len(f.items[key]) > 0 {
			continue
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			continue
		}
		if err := f.queueActionLocked(Sync, obj); err != nil {
			return err
		}
	}
	return nil
}

// PopProcessFunc processes the changes of one object. isInInitialList is
// true while the changes belong to the first Replace's population.
type PopProcessFunc func(deltas Deltas, isInInitialList bool) error

// Pop waits for a queued key, removes it and calls process with its
// deltas, and returns process's error. It returns ctx.Err() when ctx ends
// first. Only one goroutine may Pop. Replace, Resync and Delete wait while
// process runs (see processMu), so process must not call them.
func (f *DeltaFIFO) Pop(ctx context.Context, process PopProcessFunc) error {
	for {
		f.processMu.Lock()
		f.mu.Lock()
		if len(f.queue) == 0 {
			ch := f.notEmpty.Wait()
			f.mu.Unlock()
			f.processMu.Unlock()
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-ch:
			}
			continue
		}
		key := f.queue[0]
		f.queue[0] = "" // let the backing array forget the key
		f.queue = f.queue[1:]
		deltas := f.items[key]
		delete(f.items, key)
		initial := f.initialPopulationCount > 0
		f.processing = true
		// process may be slow; changes queued meanwhile go under mu.
		f.mu.Unlock()

		err := process(deltas, initial)

		f.mu.Lock()
		f.processing = false
		if initial {
			f.initialPopulationCount--
			f.checkSyncedLocked()
		}
		f.mu.Unlock()
		f.processMu.Unlock()
		f.processed.Notify()
		return err
	}
}

// HasSynced reports whether the first Replace's objects have all been
// popped and processed (or Add, Update or Delete came first).
func (f *DeltaFIFO) HasSynced() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.populated && f.initialPopulationCount == 0
}

// Synced returns a channel closed once HasSynced is true. It never
// reopens.
func (f *DeltaFIFO) Synced() <-chan struct{} { return f.syncedCh }

// checkSyncedLocked closes syncedCh the first time HasSynced holds.
func (f *DeltaFIFO) checkSyncedLocked() {
	if !f.synced && f.populated && f.initialPopulationCount == 0 {
		f.synced = true
		close(f.syncedCh)
	}
}

// Drained reports whether every key queued so far has been popped and
// processed. To wait for it, take Processed's channel first.
func (f *DeltaFIFO) Drained() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queue) == 0 && !f.processing
}

// Processed returns a channel closed after the next key Pop processes.
func (f *DeltaFIFO) Processed() <-chan struct{} { return f.processed.Wait() }

// Len returns how many keys are queued.
func (f *DeltaFIFO) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queue)
}

// queueActionLocked appends a delta to obj's key and queues the key if it
// was not queued.
func (f *DeltaFIFO) queueActionLocked(t DeltaType, obj any) error {
	key, err := f.keyFunc(obj)
	if err != nil {
		return err
	}
	deltas, queued := f.items[key]
	f.items[key] = dedupDeltas(append(deltas, Delta{Type: t, Object: obj}))
	if !queued {
		f.queue = append(f.queue, key)
		f.notEmpty.Notify()
	}
	return nil
}

// dedupDeltas drops the older of two trailing Deleted deltas, unless the
// newer one is a tombstone and the older is not: a delete learned from
// the watch knows the final state, one inferred by a relist does not.
//
// Upstream: k8s.io/client-go/tools/cache (dedupDeltas, isDeletionDup).
func dedupDeltas(deltas Deltas) Deltas {
	n := len(deltas)
	if n < 2 {
		return deltas
	}
	a, b := deltas[n-2], deltas[n-1]
	if a.Type != Deleted || b.Type != Deleted {
		return deltas
	}
	keep := b
	if _, tomb := b.Object.(DeletedFinalStateUnknown); tomb {
		keep = a
	}
	deltas[n-2] = keep
	return deltas[:n-1]
}

package job

import "sync"

// writtenVersions holds, per Job key, the resourceVersion of the last
// status the controller wrote: a cached Job at another version may not
// show that write yet. Safe for concurrent use.
type writtenVersions struct {
	// mu guards byKey.
	mu    sync.Mutex
	byKey map[string]string
}

func newWrittenVersions() *writtenVersions {
	return &writtenVersions{byKey: map[string]string{}}
}

func (w *writtenVersions) get(key string) (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	rv, ok := w.byKey[key]
	return rv, ok
}

func (w *writtenVersions) set(key, rv string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.byKey[key] = rv
}

func (w *writtenVersions) forget(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.byKey, key)
}

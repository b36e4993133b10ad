package endpointslice

import (
	"sync"

	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	"github.com/minicp/minicp/controllers/reconcile"
)

// sliceTracker remembers, per Service, the slices this controller wrote
// (with the generation written) and deleted, until the cache shows them:
// a cache that is behind would make the controller create a second slice
// for endpoints it already wrote, or update from a stale copy.
//
// Upstream: k8s.io/endpointslice (EndpointSliceTracker).
type sliceTracker struct {
	// mu guards services.
	mu sync.Mutex
	// services maps a Service to its slices' names; a generation of 0
	// means deleted.
	services map[reconcile.NamespacedName]map[string]int64
}

func newSliceTracker() *sliceTracker {
	return &sliceTracker{services: map[reconcile.NamespacedName]map[string]int64{}}
}

func (t *sliceTracker) wrote(key reconcile.NamespacedName, s *discoveryv1.EndpointSlice) {
	t.set(key, s.Name, max(s.Generation, 1))
}

func (t *sliceTracker) deleted(key reconcile.NamespacedName, name string) { t.set(key, name, 0) }

func (t *sliceTracker) set(key reconcile.NamespacedName, name string, gen int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.services[key]
	if m == nil {
		m = map[string]int64{}
		t.services[key] = m
	}
	m[name] = gen
}

func (t *sliceTracker) forget(key reconcile.NamespacedName) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.services, key)
}

// caughtUp reports whether cached (the cache's slices of key) shows every
// write the tracker holds for key. What the cache shows is forgotten:
// from then on the cache is the truth.
func (t *sliceTracker) caughtUp(key reconcile.NamespacedName, cached []*discoveryv1.EndpointSlice) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	want := t.services[key]
	if len(want) == 0 {
		return true
	}
	have := make(map[string]int64, len(cached))
	for _, s := range cached {
		have[s.Name] = max(s.Generation, 1)
	}
	ok := true
	for name, gen := range want {
		got, present := have[name]
		switch {
		case gen == 0 && !present, gen > 0 && present && got >= gen:
			delete(want, name)
		default:
			ok = false
		}
	}
	return ok
}

package watchcache

// Stats is a snapshot of a Cacher's event window: how far back a watch
// can start, how far the cache has got, and how many watches it serves.
// Readers show it (the API server's /debug/watchcache, the web view) so
// a learner can see why an old resourceVersion gets 410 Gone.
type Stats struct {
	// Capacity is how many events the window holds at most now; the
	// dynamic window grows and shrinks it with the event rate.
	Capacity int `json:"capacity"`
	// Events is how many events the window holds.
	Events int `json:"events"`
	// WindowRV is the oldest resourceVersion a watch can start from
	// without 410 Gone: every event after it is in the window.
	WindowRV int64 `json:"windowRV"`
	// OldestRV and NewestRV are the resourceVersions of the oldest and
	// newest events in the window; both 0 when it is empty.
	OldestRV int64 `json:"oldestRV"`
	NewestRV int64 `json:"newestRV"`
	// ResourceVersion is the revision the cache is current to, which
	// etcd's progress notifications move past NewestRV.
	ResourceVersion int64 `json:"resourceVersion"`
	// Objects is how many objects the cache holds.
	Objects int `json:"objects"`
	// Watchers is how many watches the Cacher serves.
	Watchers int `json:"watchers"`
}

// Stats returns a snapshot of c's window and watchers. It only reads, and
// is safe for concurrent use; the two halves are taken under their own
// locks one after the other, so they may be a moment apart.
func (c *Cacher) Stats() Stats {
	w := c.watchCache
	w.mu.RLock()
	st := Stats{
		Capacity:        w.capacity,
		Events:          w.endIndex - w.startIndex,
		WindowRV:        w.windowRV,
		ResourceVersion: w.resourceVersion,
		Objects:         w.store.len(),
	}
	if st.Events > 0 {
		st.OldestRV = w.cache[w.startIndex%w.capacity].ResourceVersion
		st.NewestRV = w.cache[(w.endIndex-1)%w.capacity].ResourceVersion
	}
	w.mu.RUnlock()
	c.mu.Lock()
	st.Watchers = c.watchers.count
	c.mu.Unlock()
	return st
}

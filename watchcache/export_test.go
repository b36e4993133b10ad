package watchcache

import "github.com/minicp/minicp/api/watch"

// Offered returns how many events the dispatcher has offered a watch of a
// Cacher: its wakeups, for tests of indexed triggers.
func Offered(w watch.Interface) int64 { return w.(*cacheWatcher).offered.Load() }

// WindowCapacity returns the current capacity of c's event window.
func WindowCapacity(c *Cacher) int { return c.watchCache.getCapacity() }

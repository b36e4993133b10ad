// Package watchcache is the API server's watch cache: a Cacher sits between
// the registry and storage for one resource and serves WATCH, and LIST and
// GET at resourceVersion "0", from memory, so that no client watch and no
// rv=0 list reaches etcd.
//
// On the watch path :
//
//	etcd ──one watch──▶ reflector ──▶ watchCache ──incoming──▶ dispatcher ──▶ cacheWatcher ×N ──▶ clients
//	                    (list+watch)   ring buffer + store      (indexed        input → filter → result
//	                                                              triggers)
//
// The parts:
//   - The Cacher (cacher.go) implements storage.Interface. Create,
//     GuaranteedUpdate and Delete, consistent reads and exact-revision reads
//     are delegated to the underlying storage.Interface; GuaranteedUpdate
//     hands it the cache's copy of the object to start from, so an update
//     whose copy is current costs no etcd read.
//   - One reflector per Cacher (reflector.go) lists the resource's prefix,
//     then watches it from the list's revision; it relists with backoff
//     when that watch fails or expires.
//   - The watchCache (watch_cache.go) keeps a fixed-capacity ring buffer of
//     recent events (capacity, startIndex, endIndex, as upstream), each
//     with the object's previous state, next to a store of the current
//     objects (store.go) kept in key order with indexes.
//   - The dispatcher (dispatch.go) hands each event only to the watchers it
//     can interest (indexed_watchers.go) and gives slow ones a bounded time
//     budget (time_budget.go) before closing them.
//   - Each client watch is a cacheWatcher (cache_watcher.go): a bounded
//     input channel, a label/field filter that turns objects entering or
//     leaving the selector into ADDED and DELETED, and a result channel.
//     Watches that ask for it (storage.WithCacheableObjects: the API server's) get
//     the objects of dispatched events as runtime.CacheableObjects
//     (caching_object.go), so an event is encoded once per format for all
//     of them.
//   - Idle watchers get periodic BOOKMARKs (bookmarks.go); a watch from a
//     resourceVersion older than the window gets 410 Expired.
//   - ready.go holds the Pending/Ready/Stopped state requests wait on.
//
// Objects the Cacher returns from the cache (Watch events, Get and GetList
// at resourceVersion "0" or NotOlderThan) are shared with it and with every
// other caller: they must not be modified (DeepCopyObject first).
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher, watchCache,
// cacheWatcher).
package watchcache

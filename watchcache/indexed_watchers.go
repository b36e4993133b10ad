package watchcache

import "strings"

// triggerKey is an index value a watcher's field selector pins
// ({"spec.nodeName", "node-1"} for a kubelet's pod watch).
type triggerKey struct {
	index, value string
}

// watcherScope is what a watcher watches: one key, or every key under
// key + "/" when recursive. key has no trailing "/".
type watcherScope struct {
	key       string
	recursive bool
}

type watcherSet map[*cacheWatcher]struct{}

// indexedWatchers holds the Cacher's watchers so that an event reaches
// only the ones it can interest: by scope (the whole resource, a
// namespace, one object's key), and, for watchers whose field selector
// pins an indexed field, by that field's value. Everything else a watcher
// selects on (labels, other fields) is its own filter's job.
//
// Not safe for concurrent use: Cacher.mu guards it.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (indexedWatchers).
type indexedWatchers struct {
	// all holds the watchers without a trigger, by scope.
	all map[watcherScope]watcherSet
	// triggered holds the watchers with one, by trigger and scope.
	triggered map[triggerKey]map[watcherScope]watcherSet
	// bookmarks holds the watchers that asked for bookmarks.
	bookmarks watcherSet
	count     int
}

func newIndexedWatchers() *indexedWatchers {
	return &indexedWatchers{
		all:       map[watcherScope]watcherSet{},
		triggered: map[triggerKey]map[watcherScope]watcherSet{},
		bookmarks: watcherSet{},
	}
}

func scopeOf(w *cacheWatcher) watcherScope {
	return watcherScope{key: w.key, recursive: w.recursive}
}

func (iw *indexedWatchers) add(w *cacheWatcher) {
	byScope := iw.all
	if w.triggered {
		byScope = iw.triggered[w.trigger]
		if byScope == nil {
			byScope = map[watcherScope]watcherSet{}
			iw.triggered[w.trigger] = byScope
		}
	}
	set := byScope[scopeOf(w)]
	if set == nil {
		set = watcherSet{}
		byScope[scopeOf(w)] = set
	}
	set[w] = struct{}{}
	if !w.nextBookmark.IsZero() {
		iw.bookmarks[w] = struct{}{}
	}
	iw.count++
}

// remove deletes w; removing a watcher that is not there does nothing.
func (iw *indexedWatchers) remove(w *cacheWatcher) {
	byScope := iw.all
	if w.triggered {
		byScope = iw.triggered[w.trigger]
	}
	set, ok := byScope[scopeOf(w)]
	if !ok {
		return
	}
	if _, ok := set[w]; !ok {
		return
	}
	delete(set, w)
	if len(set) == 0 {
		delete(byScope, scopeOf(w))
		if w.triggered && len(byScope) == 0 {
			delete(iw.triggered, w.trigger)
		}
	}
	delete(iw.bookmarks, w)
	iw.count--
}

// removeAll empties the index and returns what it held.
func (iw *indexedWatchers) removeAll() []*cacheWatcher {
	out := make([]*cacheWatcher, 0, iw.count)
	for _, set := range iw.all {
		for w := range set {
			out = append(out, w)
		}
	}
	for _, byScope := range iw.triggered {
		for _, set := range byScope {
			for w := range set {
				out = append(out, w)
			}
		}
	}
	*iw = *newIndexedWatchers()
	return out
}

// collect appends to buf the watchers that ev can interest: those whose
// scope holds ev's key and, if triggered, whose trigger value the object
// had before or has after the event. Each watcher appears once.
func (iw *indexedWatchers) collect(ev *watchCacheEvent, indexNames []string, resourcePrefix string, buf []*cacheWatcher) []*cacheWatcher {
	scopes := scopesOf(ev.Key, resourcePrefix)
	for _, sc := range scopes {
		for w := range iw.all[sc] {
			buf = append(buf, w)
		}
	}
	if len(iw.triggered) == 0 {
		return buf
	}
	for i, name := range indexNames {
		for _, v := range triggerValues(ev, i) {
			byScope := iw.triggered[triggerKey{index: name, value: v}]
			for _, sc := range scopes {
				for w := range byScope[sc] {
					buf = append(buf, w)
				}
			}
		}
	}
	return buf
}

// triggerValues returns the values of index i that the object had or has,
// each once.
func triggerValues(ev *watchCacheEvent, i int) []string {
	var values []string
	if ev.Object != nil && i < len(ev.Object.IndexValues) {
		values = append(values, ev.Object.IndexValues[i]...)
	}
	if ev.Prev != nil && i < len(ev.Prev.IndexValues) {
		for _, v := range ev.Prev.IndexValues[i] {
			dup := false
			for _, seen := range values {
				dup = dup || seen == v
			}
			if !dup {
				values = append(values, v)
			}
		}
	}
	return values
}

// scopesOf returns the scopes that hold key: key itself, and as a
// recursive scope every ancestor from the resource prefix down
// ("/pods/ns/web" is in {"/pods/ns/web"}, {"/pods", recursive} and
// {"/pods/ns", recursive}).
func scopesOf(key, resourcePrefix string) []watcherScope {
	scopes := []watcherScope{{key: key}}
	if !strings.HasPrefix(key, resourcePrefix+"/") {
		return scopes
	}
	scopes = append(scopes, watcherScope{key: resourcePrefix, recursive: true})
	for i := len(resourcePrefix) + 1; i < len(key); i++ {
		if key[i] == '/' {
			scopes = append(scopes, watcherScope{key: key[:i], recursive: true})
		}
	}
	return scopes
}

package watchcache

import (
	"iter"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	"github.com/minicp/minicp/api/runtime"
)

// IndexFunc returns the values an object has for one index: a pod's
// spec.nodeName for the "spec.nodeName" index. An object may have none or
// several. It must not modify obj.
//
// Upstream: k8s.io/client-go/tools/cache (IndexFunc).
type IndexFunc func(obj runtime.Object) ([]string, error)

// storeElement is an object with everything the cache matches it on,
// computed once when it arrives, so lists, filters and triggers never call
// GetAttrs or an IndexFunc again. Elements are immutable once built.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (storeElement).
type storeElement struct {
	Key    string
	Object runtime.Object
	Labels labels.Set
	Fields fields.Set
	// IndexValues holds the object's values of each index, in the order
	// of store.indexNames.
	IndexValues [][]string
}

// store holds the current objects of the cache: by key, in key order, and
// by index value. It is not safe for concurrent use: the watchCache's lock
// guards it.
//
// The namespace index is the key order itself: keys are
// <prefix>/<namespace>/<name>, so one namespace's objects are one
// contiguous run of keys, found by binary search. Other indexes are the
// IndexFuncs the Cacher was given, by name.
//
// Invariants: a key is in keys if and only if it is in items; keys is
// sorted; key k is in indices[i][v] if and only if items[k].IndexValues[i]
// holds v.
type store struct {
	items map[string]*storeElement
	keys  []string
	// indexNames are the index names, sorted; indices[i] is the index of
	// indexNames[i]: value -> set of keys.
	indexNames []string
	indices    []map[string]map[string]struct{}
}

func newStore(indexNames []string) *store {
	s := &store{items: map[string]*storeElement{}, indexNames: indexNames}
	s.indices = make([]map[string]map[string]struct{}, len(indexNames))
	for i := range s.indices {
		s.indices[i] = map[string]map[string]struct{}{}
	}
	return s
}

// indexOf returns the position of index name, or -1.
func (s *store) indexOf(name string) int {
	i, ok := slices.BinarySearch(s.indexNames, name)
	if !ok {
		return -1
	}
	return i
}

func (s *store) get(key string) (*storeElement, bool) {
	e, ok := s.items[key]
	return e, ok
}

func (s *store) len() int { return len(s.items) }

// upsert adds e or replaces the element under its key.
func (s *store) upsert(e *storeElement) {
	if old, ok := s.items[e.Key]; ok {
		s.unindex(old)
	} else {
		// A new key: keep keys sorted. The memmove is O(n), cheap next to
		// the etcd round trip that brought the object even at 100k keys;
		// updates, the common event, do not move anything.
		i, _ := slices.BinarySearch(s.keys, e.Key)
		s.keys = slices.Insert(s.keys, i, e.Key)
	}
	s.items[e.Key] = e
	s.index(e)
}

// delete removes key, if present.
func (s *store) delete(key string) {
	old, ok := s.items[key]
	if !ok {
		return
	}
	s.unindex(old)
	delete(s.items, key)
	if i, found := slices.BinarySearch(s.keys, key); found {
		s.keys = slices.Delete(s.keys, i, i+1)
	}
}

// replace empties the store and fills it with elems, which it takes.
func (s *store) replace(elems []*storeElement) {
	s.items = make(map[string]*storeElement, len(elems))
	s.keys = make([]string, 0, len(elems))
	for i := range s.indices {
		s.indices[i] = map[string]map[string]struct{}{}
	}
	for _, e := range elems {
		if _, dup := s.items[e.Key]; !dup {
			s.keys = append(s.keys, e.Key)
		}
		s.items[e.Key] = e
	}
	slices.Sort(s.keys)
	for _, e := range s.items {
		s.index(e)
	}
}

func (s *store) index(e *storeElement) {
	for i, values := range e.IndexValues {
		for _, v := range values {
			set := s.indices[i][v]
			if set == nil {
				set = map[string]struct{}{}
				s.indices[i][v] = set
			}
			set[e.Key] = struct{}{}
		}
	}
}

func (s *store) unindex(e *storeElement) {
	for i, values := range e.IndexValues {
		for _, v := range values {
			set := s.indices[i][v]
			delete(set, e.Key)
			if len(set) == 0 {
				delete(s.indices[i], v)
			}
		}
	}
}

// keyRange returns the positions [lo, hi) in keys of the keys under
// prefix (which ends in "/") that are >= from.
func (s *store) keyRange(prefix, from string) (lo, hi int) {
	start := prefix
	if from > start {
		start = from
	}
	lo, _ = slices.BinarySearch(s.keys, start)
	// Every key under "<p>/" sorts before "<p>0": "0" is the byte after "/".
	end := strings.TrimSuffix(prefix, "/") + "0"
	hi, _ = slices.BinarySearch(s.keys, end)
	return lo, max(lo, hi)
}

// scan yields, in key order, the elements under prefix (which ends in "/")
// whose keys are >= from. When the field selector pins a value of an index
// (spec.nodeName=n1), only the keys in that index are visited.
func (s *store) scan(prefix, from string, field fields.Selector) iter.Seq[*storeElement] {
	if keys, ok := s.indexedKeys(field); ok {
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			if strings.HasPrefix(k, prefix) && k >= from {
				sorted = append(sorted, k)
			}
		}
		slices.Sort(sorted)
		return func(yield func(*storeElement) bool) {
			for _, k := range sorted {
				if !yield(s.items[k]) {
					return
				}
			}
		}
	}
	lo, hi := s.keyRange(prefix, from)
	return func(yield func(*storeElement) bool) {
		for _, k := range s.keys[lo:hi] {
			if !yield(s.items[k]) {
				return
			}
		}
	}
}

// indexedKeys returns the keys of the first index (by name) whose value
// the selector pins, if any.
func (s *store) indexedKeys(field fields.Selector) (map[string]struct{}, bool) {
	if field == nil || field.Empty() {
		return nil, false
	}
	for i, name := range s.indexNames {
		if v, ok := field.RequiresExactMatch(name); ok {
			return s.indices[i][v], true
		}
	}
	return nil, false
}

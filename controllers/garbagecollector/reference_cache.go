package garbagecollector

import (
	"container/list"
	"sync"
)

// absentOwnerCacheSize bounds the cache of owners known to be absent:
// upstream's 500. It saves a GET per dependent when many dependents of one
// deleted owner are collected; a miss costs only that GET.
const absentOwnerCacheSize = 500

// referenceCache remembers the owners the API server said do not exist,
// so that the dependents of one deleted owner do not each look it up. It
// is a least-recently-used set of references (coordinates and namespace,
// never controller or blockOwnerDeletion). Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (ReferenceCache).
type referenceCache struct {
	maxSize int

	// mu guards the fields below. order holds the references, most
	// recently used first; index maps each to its element. A reference is
	// in index if and only if it is in order.
	mu    sync.Mutex
	order *list.List
	index map[objectReference]*list.Element
}

func newReferenceCache(maxSize int) *referenceCache {
	return &referenceCache{maxSize: maxSize, order: list.New(), index: map[objectReference]*list.Element{}}
}

// add records ref as absent, evicting the least recently used reference
// when full.
func (c *referenceCache) add(ref objectReference) {
	ref = referenceKey(ref)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.index[ref]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.index[ref] = c.order.PushFront(ref)
	if c.order.Len() > c.maxSize {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.index, oldest.Value.(objectReference))
	}
}

// has reports whether ref is recorded as absent, and marks it used.
func (c *referenceCache) has(ref objectReference) bool {
	ref = referenceKey(ref)
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.index[ref]
	if ok {
		c.order.MoveToFront(e)
	}
	return ok
}

// referenceKey keeps what identifies an object: two references that differ
// only in controller or blockOwnerDeletion name the same owner.
func referenceKey(ref objectReference) objectReference {
	return objectReference{OwnerReference: ownerReferenceCoordinates(ref.OwnerReference), Namespace: ref.Namespace}
}

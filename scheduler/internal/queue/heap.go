package queue

import "container/heap"

// keyedHeap is a binary heap of items with unique keys. Add replaces an
// item with the same key; Get and Delete find items by key. All
// operations are O(log n) but Get, which is O(1). Not safe for concurrent
// use: the PriorityQueue's lock guards it.
//
// Invariant: index[key(items[i])] == i for every i, and index has no other
// entries.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/backend/heap (Heap).
type keyedHeap[T any] struct {
	data heapData[T]
}

func newKeyedHeap[T any](key func(T) string, less func(a, b T) bool) *keyedHeap[T] {
	return &keyedHeap[T]{data: heapData[T]{key: key, less: less, index: map[string]int{}}}
}

// Add inserts item, or replaces the item with its key and restores the
// order.
func (h *keyedHeap[T]) Add(item T) {
	k := h.data.key(item)
	if i, ok := h.data.index[k]; ok {
		h.data.items[i] = item
		heap.Fix(&h.data, i)
		return
	}
	heap.Push(&h.data, item)
}

// Get returns the item with key k.
func (h *keyedHeap[T]) Get(k string) (T, bool) {
	if i, ok := h.data.index[k]; ok {
		return h.data.items[i], true
	}
	var zero T
	return zero, false
}

// Delete removes the item with key k and reports whether there was one.
func (h *keyedHeap[T]) Delete(k string) bool {
	i, ok := h.data.index[k]
	if !ok {
		return false
	}
	heap.Remove(&h.data, i)
	return true
}

// Peek returns the least item without removing it.
func (h *keyedHeap[T]) Peek() (T, bool) {
	if len(h.data.items) == 0 {
		var zero T
		return zero, false
	}
	return h.data.items[0], true
}

// Pop removes and returns the least item.
func (h *keyedHeap[T]) Pop() (T, bool) {
	if len(h.data.items) == 0 {
		var zero T
		return zero, false
	}
	return heap.Pop(&h.data).(T), true
}

// Len is the number of items.
func (h *keyedHeap[T]) Len() int { return len(h.data.items) }

// List returns the items in no particular order; the caller must not
// modify the slice.
func (h *keyedHeap[T]) List() []T { return h.data.items }

// heapData implements heap.Interface and keeps index in step.
type heapData[T any] struct {
	items []T
	index map[string]int
	key   func(T) string
	less  func(a, b T) bool
}

func (d *heapData[T]) Len() int           { return len(d.items) }
func (d *heapData[T]) Less(i, j int) bool { return d.less(d.items[i], d.items[j]) }

func (d *heapData[T]) Swap(i, j int) {
	d.items[i], d.items[j] = d.items[j], d.items[i]
	d.index[d.key(d.items[i])] = i
	d.index[d.key(d.items[j])] = j
}

func (d *heapData[T]) Push(x any) {
	item := x.(T)
	d.index[d.key(item)] = len(d.items)
	d.items = append(d.items, item)
}

func (d *heapData[T]) Pop() any {
	last := len(d.items) - 1
	item := d.items[last]
	var zero T
	d.items[last] = zero // let the backing array forget the item
	d.items = d.items[:last]
	delete(d.index, d.key(item))
	return item
}

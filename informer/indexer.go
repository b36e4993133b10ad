package informer

import (
	"fmt"
	"slices"
	"sync"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// IndexFunc returns the index values of an object: the namespace, a node
// name, an owner's UID. An object may have any number of values.
//
// Upstream: k8s.io/client-go/tools/cache (IndexFunc).
type IndexFunc func(obj runtime.Object) ([]string, error)

// Indexers are index functions by index name.
type Indexers map[string]IndexFunc

// NamespaceIndex is the name of the index every Indexer has: objects by
// namespace.
const NamespaceIndex = "namespace"

// MetaNamespaceIndexFunc indexes objects by namespace.
//
// Upstream: k8s.io/client-go/tools/cache (MetaNamespaceIndexFunc).
func MetaNamespaceIndexFunc(obj runtime.Object) ([]string, error) {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return nil, err
	}
	return []string{meta.Namespace}, nil
}

// Indexer is a thread-safe store of objects by key, with indices. Every
// Indexer has NamespaceIndex; AddIndexers adds more. The objects it
// returns are shared with every other reader: treat them as read-only
// (copy with DeepCopyObject before changing one).
//
// Upstream: k8s.io/client-go/tools/cache (Indexer, threadSafeMap).
type Indexer struct {
	keyFunc KeyFunc

	// mu guards items, indexers and indices. Invariant: for every index
	// name n, every object o in items and every value v of indexers[n](o),
	// indices[n][v] holds o's key, and nothing else is in indices.
	mu       sync.RWMutex
	items    map[string]runtime.Object
	indexers Indexers
	// indices maps index name -> index value -> set of keys.
	indices map[string]map[string]map[string]struct{}
}

// NewIndexer returns an empty Indexer storing objects under keyFunc's keys
// with NamespaceIndex and indexers. Naming NamespaceIndex in indexers is
// a programmer error: it panics.
func NewIndexer(keyFunc KeyFunc, indexers Indexers) *Indexer {
	i := &Indexer{
		keyFunc:  keyFunc,
		items:    map[string]runtime.Object{},
		indexers: Indexers{NamespaceIndex: MetaNamespaceIndexFunc},
		indices:  map[string]map[string]map[string]struct{}{NamespaceIndex: {}},
	}
	if err := i.AddIndexers(indexers); err != nil {
		panic(err)
	}
	return i
}

// AddIndexers adds indices, computed over the objects already stored. A
// name already in use is an error.
func (i *Indexer) AddIndexers(indexers Indexers) error {
	i.mu.Lock()
	defer i.mu.Unlock()
	for name := range indexers {
		if _, ok := i.indexers[name]; ok {
			return fmt.Errorf("informer: indexer %q already exists", name)
		}
	}
	for name, fn := range indexers {
		i.indexers[name] = fn
		i.indices[name] = map[string]map[string]struct{}{}
		for key, obj := range i.items {
			if err := i.indexLocked(name, key, obj); err != nil {
				return err
			}
		}
	}
	return nil
}

// Add stores obj, replacing what was under its key.
func (i *Indexer) Add(obj runtime.Object) error { return i.Update(obj) }

// Update stores obj, replacing what was under its key.
func (i *Indexer) Update(obj runtime.Object) error {
	key, err := i.keyFunc(obj)
	if err != nil {
		return err
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.putLocked(key, obj)
}

// Delete removes the object under obj's key, if any.
func (i *Indexer) Delete(obj any) error {
	key, err := i.keyFunc(obj)
	if err != nil {
		return err
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.deleteLocked(key)
	return nil
}

// Replace makes the store hold exactly list. It takes ownership of list.
func (i *Indexer) Replace(list []runtime.Object) error {
	items := make(map[string]runtime.Object, len(list))
	for _, obj := range list {
		key, err := i.keyFunc(obj)
		if err != nil {
			return err
		}
		items[key] = obj
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.items = map[string]runtime.Object{}
	for name := range i.indices {
		i.indices[name] = map[string]map[string]struct{}{}
	}
	for key, obj := range items {
		if err := i.putLocked(key, obj); err != nil {
			return err
		}
	}
	return nil
}

// Get returns the object stored under obj's key.
func (i *Indexer) Get(obj any) (item runtime.Object, exists bool, err error) {
	key, err := i.keyFunc(obj)
	if err != nil {
		return nil, false, err
	}
	return i.GetByKey(key)
}

// GetByKey returns the object stored under key.
func (i *Indexer) GetByKey(key string) (item runtime.Object, exists bool, err error) {
	i.mu.RLock()
	defer i.mu.RUnlock()
	item, exists = i.items[key]
	return item, exists, nil
}

// List returns every object, in no particular order.
func (i *Indexer) List() []runtime.Object {
	i.mu.RLock()
	defer i.mu.RUnlock()
	out := make([]runtime.Object, 0, len(i.items))
	for _, obj := range i.items {
		out = append(out, obj)
	}
	return out
}

// ListKeys returns every key, sorted.
func (i *Indexer) ListKeys() []string {
	i.mu.RLock()
	defer i.mu.RUnlock()
	keys := make([]string, 0, len(i.items))
	for k := range i.items {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ByIndex returns the objects whose indexName values include value.
func (i *Indexer) ByIndex(indexName, value string) ([]runtime.Object, error) {
	i.mu.RLock()
	defer i.mu.RUnlock()
	index, ok := i.indices[indexName]
	if !ok {
		return nil, fmt.Errorf("informer: index %q does not exist", indexName)
	}
	set := index[value]
	out := make([]runtime.Object, 0, len(set))
	for key := range set {
		out = append(out, i.items[key])
	}
	return out, nil
}

// IndexKeys returns the keys of the objects whose indexName values include
// value, sorted.
func (i *Indexer) IndexKeys(indexName, value string) ([]string, error) {
	i.mu.RLock()
	defer i.mu.RUnlock()
	index, ok := i.indices[indexName]
	if !ok {
		return nil, fmt.Errorf("informer: index %q does not exist", indexName)
	}
	keys := make([]string, 0, len(index[value]))
	for key := range index[value] {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys, nil
}

// IndexValues returns the values indexName has objects for, sorted.
func (i *Indexer) IndexValues(indexName string) []string {
	i.mu.RLock()
	defer i.mu.RUnlock()
	values := make([]string, 0, len(i.indices[indexName]))
	for v := range i.indices[indexName] {
		values = append(values, v)
	}
	slices.Sort(values)
	return values
}

// putLocked stores obj under key and updates every index.
func (i *Indexer) putLocked(key string, obj runtime.Object) error {
	// Compute every index value first, so a failing IndexFunc leaves the
	// store and its indices as they were.
	values := make(map[string][]string, len(i.indexers))
	for name, fn := range i.indexers {
		v, err := fn(obj)
		if err != nil {
			return fmt.Errorf("informer: index %q of %s: %w", name, key, err)
		}
		values[name] = v
	}
	i.deleteLocked(key)
	i.items[key] = obj
	for name, vs := range values {
		for _, v := range vs {
			i.addToIndexLocked(name, v, key)
		}
	}
	return nil
}

// indexLocked adds key's object to the index name.
func (i *Indexer) indexLocked(name, key string, obj runtime.Object) error {
	vs, err := i.indexers[name](obj)
	if err != nil {
		return fmt.Errorf("informer: index %q of %s: %w", name, key, err)
	}
	for _, v := range vs {
		i.addToIndexLocked(name, v, key)
	}
	return nil
}

func (i *Indexer) addToIndexLocked(name, value, key string) {
	set := i.indices[name][value]
	if set == nil {
		set = map[string]struct{}{}
		i.indices[name][value] = set
	}
	set[key] = struct{}{}
}

// deleteLocked removes key and its index entries. The old object's index
// values are recomputed, which holds because stored objects are never
// modified.
func (i *Indexer) deleteLocked(key string) {
	old, ok := i.items[key]
	if !ok {
		return
	}
	delete(i.items, key)
	for name, fn := range i.indexers {
		vs, _ := fn(old) // it succeeded when old was stored
		for _, v := range vs {
			set := i.indices[name][v]
			delete(set, key)
			if len(set) == 0 {
				delete(i.indices[name], v)
			}
		}
	}
}

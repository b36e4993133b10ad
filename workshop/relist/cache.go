package relist

import (
	"context"
	"fmt"
	"maps"
	"sync"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

// ListerWatcher is what Run lists and watches ConfigMaps through: the
// subset of the typed client (client.Clientset.ConfigMaps) it uses.
type ListerWatcher interface {
	List(ctx context.Context, opts client.ListOptions) (*corev1.ConfigMapList, error)
	Watch(ctx context.Context, opts client.ListOptions) (watch.Interface, error)
}

var _ ListerWatcher = (*client.ConfigMapClient)(nil)

// Cache holds ConfigMaps by name, and the resourceVersion it is current
// to. Run writes it; anyone may read it. It is safe for concurrent use.
type Cache struct {
	// changed is notified after every change of items or rv.
	changed wait.Broadcast

	// mu guards items and rv.
	mu    sync.Mutex
	items map[string]*corev1.ConfigMap
	rv    string
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{items: map[string]*corev1.ConfigMap{}} }

// Replace sets the whole content of the cache: the items of a list, read
// at resourceVersion rv. Objects not in items are gone. It takes
// ownership of items.
func (c *Cache) Replace(items []corev1.ConfigMap, rv string) {
	c.mu.Lock()
	c.items = make(map[string]*corev1.ConfigMap, len(items))
	for i := range items {
		c.items[items[i].Name] = &items[i]
	}
	c.rv = rv
	c.mu.Unlock()
	c.changed.Notify()
}

// Apply records one watch event: ADDED and MODIFIED store the object,
// DELETED removes it, BOOKMARK only moves the resourceVersion. Each moves
// the cache's resourceVersion to the event object's. An ERROR event is
// not a change: Apply refuses it, the caller handles it.
func (c *Cache) Apply(ev watch.Event) error {
	if ev.Type == watch.Error {
		return fmt.Errorf("relist: Apply of an ERROR event: handle it in Run")
	}
	cm, ok := ev.Object.(*corev1.ConfigMap)
	if !ok {
		return fmt.Errorf("relist: %s event of a %T", ev.Type, ev.Object)
	}
	c.mu.Lock()
	switch ev.Type {
	case watch.Added, watch.Modified:
		c.items[cm.Name] = cm
	case watch.Deleted:
		delete(c.items, cm.Name)
	}
	c.rv = cm.ResourceVersion
	c.mu.Unlock()
	c.changed.Notify()
	return nil
}

// ResourceVersion is the resourceVersion the cache is current to: where
// a watch resumes.
func (c *Cache) ResourceVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rv
}

// Messages returns the data["message"] of every ConfigMap, by name: a
// snapshot the caller owns.
func (c *Cache) Messages() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]string, len(c.items))
	for name, cm := range c.items {
		out[name] = cm.Data["message"]
	}
	return out
}

// Changed returns a channel closed at the next change: read the cache,
// and if it is not what you wait for, wait on a Changed taken before the
// read.
func (c *Cache) Changed() <-chan struct{} { return c.changed.Wait() }

// equal reports whether two snapshots of Messages are the same.
func equal(a, b map[string]string) bool { return maps.Equal(a, b) }

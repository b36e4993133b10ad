package watchcache

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// ByIndex returns the objects whose values of the index name include
// value, from the cache's current state (what a read at resourceVersion
// "0" sees), in no particular order. It waits, bounded by ctx, for the
// cache to be ready. The objects are shared: do not modify them. An index
// the Cacher was not given is an error.
//
// It serves in-process readers that look objects up by a computed key
// rather than by a selectable field, such as the RBAC authorizer finding
// the bindings of a user.
//
// Upstream: k8s.io/client-go/tools/cache (Indexer.ByIndex).
func (c *Cacher) ByIndex(ctx context.Context, name, value string) ([]runtime.Object, error) {
	if err := c.ready.wait(ctx); err != nil {
		return nil, err
	}
	wc := c.watchCache
	wc.mu.RLock()
	defer wc.mu.RUnlock()
	i := wc.store.indexOf(name)
	if i < 0 {
		return nil, fmt.Errorf("watchcache: no index %q", name)
	}
	keys := wc.store.indices[i][value]
	out := make([]runtime.Object, 0, len(keys))
	for k := range keys {
		out = append(out, wc.store.items[k].Object)
	}
	return out, nil
}

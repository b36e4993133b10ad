package apiserver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// SyncWatchers is the API server's half of a cluster's idle barrier. It
// reads etcd's current revision rv, waits until every watch cache is
// current to rv and has given each watcher that asked for bookmarks its
// events up to rv and then a BOOKMARK (so an informer of a resource
// nobody wrote to reaches rv too), and returns rv with the revision of
// the newest event among this server's resources, which tells the caller
// whether anything of this cluster was written since it last asked.
// With the watch cache disabled there is nothing to sync, and it returns
// 0 for both: watches straight from etcd get no bookmark on demand.
// Safe for concurrent use.
//
// Upstream: none; kube-apiserver has no such barrier.
func (s *Server) SyncWatchers(ctx context.Context) (rv, newest int64, err error) {
	// A count-only read of this server's keys: its header carries etcd's
	// current revision, shared by every prefix.
	resp, err := s.etcd.Get(ctx, s.prefix+"/", clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		return 0, 0, fmt.Errorf("sync watchers: %w", err)
	}
	rv = resp.Header.Revision
	s.mu.RLock()
	cachers := slices.Collect(maps.Keys(s.cachers))
	s.mu.RUnlock()
	if len(cachers) == 0 {
		return 0, 0, nil
	}
	// All at once: a cache behind rv waits for etcd's progress
	// notification, and one after the other those waits add up.
	var wg sync.WaitGroup
	errs := make([]error, len(cachers))
	for i, c := range cachers {
		wg.Go(func() { errs[i] = c.SyncWatchers(ctx, rv) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, 0, err
	}
	for _, c := range cachers {
		newest = max(newest, c.Stats().NewestRV)
	}
	return rv, newest, nil
}

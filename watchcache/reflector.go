package watchcache

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/wait"
)

// storageListPageSize is how many objects one read of the cache's list
// takes: Kubernetes' 10,000, so (re)listing a large resource never asks
// etcd for everything in one response.
const storageListPageSize = 10000

// runReflector keeps the cache in step with the underlying storage until
// ctx is done: list, then watch from the list's revision; when the watch
// fails (an error, a 410, a closed channel), close every watcher, wait out
// the backoff and list again.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher.startCaching), and
// k8s.io/client-go/tools/cache (Reflector.ListAndWatch), which the
// upstream Cacher runs.
func (c *Cacher) runReflector(ctx context.Context) {
	b := relistBackoff
	for {
		began := c.clock.Now()
		err := c.listAndWatch(ctx)
		if ctx.Err() != nil {
			return
		}
		c.becomePending()
		delay := relistDelay(&b, c.clock.Since(began))
		c.logger.WarnContext(ctx, "storage watch ended, relisting", "err", err, "backoff", delay)
		if wait.Sleep(ctx, c.clock, delay) != nil {
			return
		}
	}
}

// listAndWatch lists the resource into the cache, marks it ready, and
// feeds it the storage watch's events until that watch fails or ctx is
// done; it returns why.
func (c *Cacher) listAndWatch(ctx context.Context) error {
	rv, err := c.list(ctx)
	if err != nil {
		return err
	}
	// The dispatcher learns the list's revision in order with the events,
	// as the revision of the bookmarks it sends.
	if !c.push(ctx, &watchCacheEvent{Type: watch.Bookmark, ResourceVersion: rv}) {
		return ctx.Err()
	}
	c.ready.set(stateReady)
	c.logger.InfoContext(ctx, "cache synced", "rv", rv)

	w, err := c.storage.Watch(ctx, c.resourcePrefix, storage.ListOptions{
		Recursive:       true,
		ResourceVersion: strconv.FormatInt(rv, 10),
		// Progress notifications keep the cache's revision moving while the
		// resource is idle, so bookmarks and waits for a revision advance.
		ProgressNotify: true,
	})
	if err != nil {
		return fmt.Errorf("watch %s: %w", c.resourcePrefix, err)
	}
	defer w.Stop()
	for {
		var ev watch.Event
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case ev, ok = <-w.ResultChan():
		}
		if !ok {
			return errors.New("storage closed the watch")
		}
		switch ev.Type {
		case watch.Added, watch.Modified, watch.Deleted:
			wcEv, err := c.newEvent(ev)
			if err != nil {
				return err
			}
			if err := c.watchCache.add(wcEv); err != nil {
				return err
			}
			if !c.push(ctx, wcEv) {
				return ctx.Err()
			}
		case watch.Bookmark:
			rv, err := resourceVersionOf(ev)
			if err != nil {
				return err
			}
			if c.watchCache.updateResourceVersion(rv) && !c.push(ctx, &watchCacheEvent{Type: watch.Bookmark, ResourceVersion: rv}) {
				return ctx.Err()
			}
		case watch.Error:
			if status, ok := ev.Object.(*metav1.Status); ok {
				return fmt.Errorf("watch %s: %s (%d %s)", c.resourcePrefix, status.Message, status.Code, status.Reason)
			}
			return fmt.Errorf("watch %s: error event %T", c.resourcePrefix, ev.Object)
		default:
			return fmt.Errorf("watch %s: unknown event type %q", c.resourcePrefix, ev.Type)
		}
	}
}

// list reads every object under the prefix, page by page at one revision,
// into the cache, and returns that revision.
func (c *Cacher) list(ctx context.Context) (int64, error) {
	var elems []*storeElement
	var rv int64
	pred := storage.Predicate{Limit: storageListPageSize}
	for {
		res, err := c.storage.GetList(ctx, c.resourcePrefix, storage.ListOptions{Recursive: true, Predicate: pred})
		if err != nil {
			return 0, fmt.Errorf("list %s: %w", c.resourcePrefix, err)
		}
		if rv == 0 {
			rv = res.ResourceVersion
		}
		for _, obj := range res.Items {
			e, err := c.newElement(obj)
			if err != nil {
				return 0, err
			}
			elems = append(elems, e)
		}
		if res.Continue == "" {
			break
		}
		pred.Continue = res.Continue
	}
	c.watchCache.replace(elems, rv)
	return rv, nil
}

// newEvent builds the cache event of a storage watch event.
func (c *Cacher) newEvent(ev watch.Event) (*watchCacheEvent, error) {
	rv, err := resourceVersionOf(ev)
	if err != nil {
		return nil, err
	}
	e, err := c.newElement(ev.Object)
	if err != nil {
		return nil, err
	}
	return &watchCacheEvent{Type: ev.Type, Key: e.Key, ResourceVersion: rv, RecordTime: c.clock.Now(), Object: e}, nil
}

// push hands ev to the dispatcher, waiting while incoming is full; false
// means ctx ended first.
func (c *Cacher) push(ctx context.Context, ev *watchCacheEvent) bool {
	select {
	case c.incomingCh <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// resourceVersionOf reads the revision of a storage watch event's object.
func resourceVersionOf(ev watch.Event) (int64, error) {
	meta, err := metav1.Accessor(ev.Object)
	if err != nil {
		return 0, fmt.Errorf("%s event: %w", ev.Type, err)
	}
	rv, err := strconv.ParseInt(meta.ResourceVersion, 10, 64)
	if err != nil || rv <= 0 {
		return 0, fmt.Errorf("%s event with resourceVersion %q", ev.Type, meta.ResourceVersion)
	}
	return rv, nil
}

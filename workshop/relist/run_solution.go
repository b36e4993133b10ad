//go:build solution

package relist

import (
	"context"
	"errors"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

// errGone ends a watch whose resourceVersion is too old: relist.
var errGone = errors.New("resource version too old")

// Run keeps cache current with the ConfigMaps lw lists and watches, until
// ctx ends.
//
// Upstream: k8s.io/client-go/tools/cache (Reflector.ListAndWatch).
func Run(ctx context.Context, lw ListerWatcher, cache *Cache) error {
	// Failures back off, so that a server in trouble is not hammered; a
	// watch that simply ended is resumed at once.
	backoff := wait.Backoff{Initial: 10 * time.Millisecond, Factor: 2, Cap: time.Second}
	for ctx.Err() == nil {
		list, err := lw.List(ctx, client.ListOptions{})
		if err != nil {
			_ = backoff.Wait(ctx)
			continue
		}
		cache.Replace(list.Items, list.ResourceVersion)
		// Watch, and watch again, until the resourceVersion is too old.
		for ctx.Err() == nil {
			err := watchOnce(ctx, lw, cache)
			if errors.Is(err, errGone) {
				break
			}
			if err != nil {
				_ = backoff.Wait(ctx)
				continue
			}
			backoff.Forget()
		}
	}
	return nil
}

// watchOnce watches from the cache's resourceVersion until the watch
// ends. It returns errGone on 410, any other error to watch again.
func watchOnce(ctx context.Context, lw ListerWatcher, cache *Cache) error {
	w, err := lw.Watch(ctx, client.ListOptions{ResourceVersion: cache.ResourceVersion()})
	if apierrors.IsGone(err) {
		return errGone
	}
	if err != nil {
		return err
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		if ev.Type == watch.Error {
			if st, ok := ev.Object.(*metav1.Status); ok && apierrors.IsGone(apierrors.FromStatus(*st)) {
				return errGone
			}
			return errors.New("watch: error event")
		}
		if err := cache.Apply(ev); err != nil {
			return err
		}
	}
	return nil
}

package cluster

import (
	"context"
	"fmt"
	"time"

	"github.com/minicp/minicp/apiserver"
)

// waitIdle is the cluster's fixed point. Components being idle is not
// enough on its own: a change written a moment ago may still be on its
// way down a watch, invisible to every Idle. So each round
//
//  1. reads etcd's revision rv, and has every watch cache give its
//     watchers everything up to rv followed by a bookmark
//     (apiserver.Server.SyncWatchers);
//  2. waits until every component's informers hold every change up to rv;
//  3. waits until every component is idle at once (wait.WaitIdle);
//
// and the rounds go on until one finds that the newest change among the
// cluster's own resources is the one the previous round had already
// synced to: then the components were idle having seen every change, and
// made none since. Other clusters on a shared etcd move its revision but
// not this cluster's newest change.
// resyncAfter is how long a round waits for the components to reach its
// revision before it starts over: far longer than a bookmark takes to
// arrive, so only a lost one costs it.
const resyncAfter = time.Second

func waitIdle(ctx context.Context, server *apiserver.Server, comps *components) error {
	last := int64(-1)
	for {
		rv, newest, err := server.SyncWatchers(ctx)
		if err != nil {
			return fmt.Errorf("wait for idle: %w", err)
		}
		if newest == last {
			return nil
		}
		// rv is 0 when the server has no watch cache to sync: the
		// components are waited for as they are.
		if rv > 0 {
			// A watch that restarted after its bookmark was queued starts
			// behind rv and gets no bookmark of its own; after
			// resyncAfter the round starts over, which bookmarks every
			// watch again.
			syncCtx, cancel := context.WithTimeout(ctx, resyncAfter)
			err := comps.waitSyncedTo(syncCtx, rv)
			cancel()
			if ctx.Err() != nil {
				return fmt.Errorf("wait for idle: %w", err)
			}
			if err != nil {
				continue
			}
		}
		if err := comps.waitIdle(ctx); err != nil {
			return err
		}
		last = newest
	}
}

// waitSyncedTo blocks until the informers of the controller-manager and
// the scheduler, and every kubelet's pod watch, hold every change up to
// rv. The garbage collector's own monitors are not waited for: its Idle
// covers what they have delivered.
func (comps *components) waitSyncedTo(ctx context.Context, rv int64) error {
	if comps.controllerManager != nil {
		if err := comps.controllerManager.GetCache().WaitSyncedTo(ctx, rv); err != nil {
			return err
		}
	}
	if comps.scheduler != nil {
		if err := comps.scheduler.WaitSyncedTo(ctx, rv); err != nil {
			return err
		}
	}
	for _, k := range comps.kubelets {
		if err := k.WaitSyncedTo(ctx, rv); err != nil {
			return err
		}
	}
	return nil
}

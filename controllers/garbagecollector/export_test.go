package garbagecollector

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/informer"
)

// MonitorInformer returns the informer of gvr's monitor, or nil when the
// collector does not watch gvr, for tests.
func (gc *GarbageCollector) MonitorInformer(gvr runtime.GroupVersionResource) *informer.SharedInformer {
	if m, ok := gc.graph.monitorSnapshot()[gvr]; ok {
		return m.informer
	}
	return nil
}

// WaitMonitored waits until the collector watches gvr (or stops watching
// it, when monitored is false), or ctx ends, for tests. It waits on the
// graph builder's changes, never polls.
func (gc *GarbageCollector) WaitMonitored(ctx context.Context, gvr runtime.GroupVersionResource, monitored bool) error {
	for {
		gc.graph.mu.Lock()
		_, ok := gc.graph.monitors[gvr]
		ch := gc.graph.changed.Wait()
		gc.graph.mu.Unlock()
		if ok == monitored {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("monitor of %s present=%v: %w", gvr, ok, ctx.Err())
		}
	}
}

package garbagecollector

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/informer"
)

// discoveryResyncPeriod is how often the collector reads discovery again,
// to watch the resources that appeared and stop watching those that went
// away: kube-controller-manager's 30 seconds. A CRD's changes ask for a
// resync at once (see runResync), so the period only bounds how late
// other changes (a CRD the collector is told to ignore, a missed event)
// are noticed; reading discovery more often would cost requests for
// nothing.
const discoveryResyncPeriod = 30 * time.Second

// runResync keeps the monitors in step with discovery until ctx is done:
// at once, then every discoveryResyncPeriod on the manager's clock, and
// whenever the graph builder requests it.
//
// How a new resource is noticed soon. Upstream re-reads discovery for its
// monitors every 30 seconds; only its REST mapper re-reads discovery at
// once, on a miss. minicp's CRDs live in the same API server, and the
// collector watches CustomResourceDefinitions like any other resource, so
// the graph builder's handler on that informer requests a resync at every
// CRD change: a CRD becoming Established is followed at once by a
// monitor for its resource, and a deleted CRD by the removal of its
// monitor (or, when the API server has not stopped serving the resource
// yet, by the 404 its informer gets a moment later, which requests
// another resync; see startMonitor). This was chosen over resyncing when an owner reference names
// a kind the collector does not know: that covers custom resources as
// owners only, while a custom resource that is a dependent names a known
// kind (a ConfigMap) and would wait for the period. Owners of kinds the
// monitors do not cover yet are still looked up at once (restMapper).
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.Sync).
func (gc *GarbageCollector) runResync(ctx context.Context) {
	ticker := gc.clock.NewTicker(discoveryResyncPeriod)
	defer ticker.Stop()
	for first := true; ; first = false {
		gc.graph.resyncStarting()
		gc.resync(ctx, first)
		gc.graph.resyncDone()
		select {
		case <-ctx.Done():
			return
		case <-ticker.C():
		case <-gc.graph.resyncCh:
		}
	}
}

// resync reads discovery and makes the monitors match the deletable
// resources it lists: a monitor for each one that has none, none for
// those no longer listed. A group version discovery could not read keeps
// its monitors: its resources are not known to be gone. When discovery
// fails altogether the monitors stay as they are; only the first resync
// then watches the scheme's resources, so that built-in kinds are
// collected while discovery is retried.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GarbageCollector.Sync, resyncMonitors; GraphBuilder.syncMonitors).
// Upstream also pauses the workers until the new monitors have synced;
// here the workers go on, which is safe because they decide from the API
// server's answers, not from the graph alone, but a foreground deletion
// may finish before the dependents of a resource installed a moment ago
// are seen; the background pass collects those.
func (gc *GarbageCollector) resync(ctx context.Context, first bool) {
	gc.restMapper.reset()
	resources, err := gc.discovery.ServerPreferredResources(ctx)
	var partial *client.GroupDiscoveryFailedError
	var failedGroups map[runtime.GroupVersion]error
	switch {
	case ctx.Err() != nil:
		return
	case errors.As(err, &partial):
		gc.log.WarnContext(ctx, "discovery failed for some groups: keeping their monitors", "err", err)
		failedGroups = partial.Groups
	case err != nil && first:
		gc.log.WarnContext(ctx, "discovery failed: watching the scheme's resources until it answers", "err", err)
		resources = gc.schemeResources
	case err != nil:
		gc.log.WarnContext(ctx, "discovery failed: keeping the monitors", "err", err)
		return
	}
	deletable := gc.deletable(resources)
	if len(deletable) == 0 {
		// An API server serves deletable resources: an empty answer is a
		// broken one, and must not stop every monitor.
		gc.log.WarnContext(ctx, "discovery listed no deletable resource: keeping the monitors")
		return
	}
	gc.syncMonitors(ctx, deletable, failedGroups)
}

// syncMonitors adds a monitor for each resource of want that has none,
// and removes the monitors of resources not in want, unless their group
// version is in keep.
func (gc *GarbageCollector) syncMonitors(ctx context.Context, want []runtime.ResourceInfo, keep map[runtime.GroupVersion]error) {
	current := gc.graph.monitorSnapshot()
	wanted := make(map[runtime.GroupVersionResource]bool, len(want))
	for _, info := range want {
		wanted[info.GVR] = true
	}
	var added, removed []string
	for gvr, m := range current {
		if _, failed := keep[gvr.GroupVersion()]; wanted[gvr] || failed {
			continue
		}
		gc.graph.removeMonitor(m)
		removed = append(removed, gvr.String())
	}
	for _, info := range want {
		if _, ok := current[info.GVR]; ok {
			continue
		}
		if err := gc.startMonitor(ctx, info); err != nil {
			if ctx.Err() != nil {
				return // stopping: the informers refuse handlers
			}
			// The next resync tries again.
			gc.log.WarnContext(ctx, "cannot watch a resource", "resource", info.GVR.String(), "err", err)
			continue
		}
		added = append(added, info.GVR.String())
	}
	if len(added) > 0 || len(removed) > 0 {
		slices.Sort(removed)
		gc.log.InfoContext(ctx, "monitors synced with discovery", "added", strings.Join(added, " "),
			"removed", strings.Join(removed, " "))
	}
}

// startMonitor starts feeding the graph from info's resource. A resource
// that was in the scheme when the collector was made shares the manager
// cache's informer: the manager's other controllers may watch it too, so
// the collector never stops it. Any other resource (a custom resource
// found by discovery) gets an informer of the collector's own, run until
// its monitor is removed (the resource went away) or ctx ends; its kind is
// registered in the scheme as unstructured if the scheme does not know
// it.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GraphBuilder.controllerFor), whose informers all come from a shared
// factory and keep running after their resource went away.
func (gc *GarbageCollector) startMonitor(ctx context.Context, info runtime.ResourceInfo) error {
	m := &monitor{resource: info, handled: map[string]string{}}
	if slices.ContainsFunc(gc.schemeResources, func(r runtime.ResourceInfo) bool { return r.GVR == info.GVR }) {
		inf, err := gc.cache.InformerFor(info.GVR)
		if err != nil {
			return err
		}
		m.informer = inf
		return gc.graph.addMonitor(m)
	}
	if err := client.AddUnstructuredResource(gc.scheme, info); err != nil {
		return err
	}
	res, err := client.NewResource[metav1.Object, metav1.ListInterface](gc.client, info.GVR)
	if err != nil {
		return err
	}
	inf, err := informer.NewSharedInformer(informer.SharedInformerOptions{
		ListerWatcher: res,
		Name:          info.GVR.GroupResource().String(),
		// A 404 says the resource is no longer served. The CRD's DELETED
		// event can reach the collector a moment before the API server
		// stops serving the resource, so the resync it asked for may have
		// still found it; this one will not, and removes the monitor.
		WatchErrorHandler: func(err error) {
			if apierrors.IsNotFound(err) {
				gc.graph.requestResync()
			}
		},
		Clock:  gc.clock,
		Logger: gc.informerLog,
	})
	if err != nil {
		return err
	}
	infCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	m.informer = inf
	m.stop = func() {
		cancel()
		<-done
	}
	// The handler goes first, so it receives the first LIST as adds.
	if err := gc.graph.addMonitor(m); err != nil {
		cancel()
		return err
	}
	gc.informersWG.Go(func() {
		defer close(done)
		if err := inf.Start(infCtx); err != nil {
			gc.log.ErrorContext(infCtx, "informer failed", "resource", info.GVR.String(), "err", err)
		}
	})
	return nil
}

// deletable returns the resources of infos the collector watches: those
// that can be listed, watched and deleted, and are not ignored.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector
// (GetDeletableResources).
func (gc *GarbageCollector) deletable(infos []runtime.ResourceInfo) []runtime.ResourceInfo {
	var out []runtime.ResourceInfo
	for _, info := range infos {
		ok := info.HasVerb("list") && info.HasVerb("watch") && info.HasVerb("delete")
		// A subresource (pods/status) shares its resource's objects.
		if !ok || strings.Contains(info.GVR.Resource, "/") || slices.Contains(gc.ignored, info.GVR.GroupResource()) {
			continue
		}
		out = append(out, info)
	}
	return out
}

package garbagecollector

import (
	"fmt"
	"maps"
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/informer"
)

// monitor is the graph builder's handler on one resource's informer.
// Monitors come and go with the resources discovery lists (see
// GarbageCollector.resync).
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector (monitor).
type monitor struct {
	resource runtime.ResourceInfo
	informer *informer.SharedInformer
	// handled maps each object's informer key to the resourceVersion of
	// the state last queued as an event, so Idle can tell whether the
	// handler has caught up with the informer. Guarded by
	// graphBuilder.mu.
	handled map[string]string
	reg     *informer.Registration
	// stop, for an informer the collector runs itself, stops it and
	// returns once it has; nil for an informer of the manager's cache,
	// which runs it for every controller that uses it.
	stop func()
}

// addMonitor starts feeding the graph from m's informer: its handler
// receives the informer's objects as adds, then every change. The
// informer may be started before or after.
func (gb *graphBuilder) addMonitor(m *monitor) error {
	// The handler is added without gb.mu: its calls take gb.mu.
	reg, err := m.informer.AddEventHandler(gb.handlerFor(m), informer.HandlerOptions{ResyncPeriod: new(time.Duration)})
	if err != nil {
		return fmt.Errorf("garbage collector: watch %s: %w", m.resource.GVR, err)
	}
	m.reg = reg
	gb.mu.Lock()
	defer gb.mu.Unlock()
	gb.monitors[m.resource.GVR] = m
	gb.notifyLocked()
	return nil
}

// removeMonitor stops feeding the graph from m, whose resource is no
// longer served, and stops m's informer if the collector runs it.
//
// Upstream leaves the nodes of a resource that went away in the graph.
// Here the objects m's informer still holds (normally none: deleting a
// CRD deletes its objects first, and the informer hears it) are queued
// to attemptToDelete, whose workers ask the API server and remove the
// nodes of the objects that are gone, queuing their dependents.
func (gb *graphBuilder) removeMonitor(m *monitor) {
	if m.reg != nil {
		_ = m.informer.RemoveEventHandler(m.reg)
	}
	// Stopped before the monitor leaves the map: once it is gone, its
	// informer is too.
	if m.stop != nil {
		m.stop()
	}
	gb.mu.Lock()
	if gb.monitors[m.resource.GVR] == m {
		delete(gb.monitors, m.resource.GVR)
	}
	gb.notifyLocked()
	gb.mu.Unlock()
	for _, obj := range m.informer.Indexer().List() {
		meta, err := metav1.Accessor(obj)
		if err != nil {
			continue
		}
		if n, ok := gb.uidToNode.read(meta.UID); ok {
			gb.attemptToDelete.add(n)
		}
	}
}

// removeAllMonitors removes every monitor's handler, when the builder
// stops; the informers stop with their own contexts.
func (gb *graphBuilder) removeAllMonitors() {
	for _, m := range gb.monitorSnapshot() {
		if m.reg != nil {
			_ = m.informer.RemoveEventHandler(m.reg)
		}
	}
}

// monitorSnapshot returns the current monitors by resource; the map is
// the caller's.
func (gb *graphBuilder) monitorSnapshot() map[runtime.GroupVersionResource]*monitor {
	gb.mu.Lock()
	defer gb.mu.Unlock()
	return maps.Clone(gb.monitors)
}

// requestResync asks the collector to read discovery again now: a
// resource may have been installed or removed. Until the resync is done
// the collector is not idle.
func (gb *graphBuilder) requestResync() {
	gb.mu.Lock()
	gb.resyncRequested = true
	gb.notifyLocked()
	gb.mu.Unlock()
	gb.signalResync()
}

// signalResync wakes the resync loop for a request recorded in
// resyncRequested, coalescing with a request not yet served: the resync
// that serves it reads discovery afresh, which covers both.
func (gb *graphBuilder) signalResync() {
	select {
	case gb.resyncCh <- struct{}{}:
	default: // one request is already waiting; it covers this one
	}
}

// resyncStarting marks a resync as running; it serves every request made
// so far.
func (gb *graphBuilder) resyncStarting() {
	gb.mu.Lock()
	defer gb.mu.Unlock()
	gb.resyncRequested = false
	gb.resyncing = true
	gb.notifyLocked()
}

// resyncDone marks the running resync as done.
func (gb *graphBuilder) resyncDone() {
	gb.mu.Lock()
	defer gb.mu.Unlock()
	gb.resyncing = false
	gb.notifyLocked()
}

// crdResource is the resource whose changes may change what discovery
// serves.
var crdResource = runtime.GroupResource{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"}

// isCRDMonitor reports whether m watches CustomResourceDefinitions: a CRD
// created, Established, changed or deleted changes what the API server
// serves, so each of its changes requests a resync (see handlerFor).
func isCRDMonitor(m *monitor) bool { return m.resource.GVR.GroupResource() == crdResource }

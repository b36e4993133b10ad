package garbagecollector

import (
	"context"
	"fmt"
	"sync"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
)

// restMappingError says an apiVersion and kind name no resource the API
// server serves: an owner of a kind this cluster does not serve (yet, or
// any more). It is retried: the kind may be a custom resource installed
// since.
type restMappingError struct {
	kind, apiVersion string
}

func (e *restMappingError) Error() string {
	return fmt.Sprintf("unable to get REST mapping for %s/%s", e.apiVersion, e.kind)
}

// restMapper finds the resource that serves a kind, from the API server's
// discovery documents, so that owners of any kind the server serves
// (custom resources included, at any of their versions) can be looked up.
// It keeps each group version's resources once read, until reset: the
// collector resets it whenever it syncs its monitors with discovery, so a
// kind whose CRD was deleted stops mapping at the latest then. A kind
// missing from what was read is read again at once (see resourceFor).
// Safe for concurrent use.
//
// Upstream: k8s.io/client-go/restmapper (DeferredDiscoveryRESTMapper),
// which the collector resets in GarbageCollector.Sync.
type restMapper struct {
	discovery *client.DiscoveryClient

	// mu guards byGV: the resources of each group version as last read
	// since the reset (nil for one the server did not serve).
	mu   sync.Mutex
	byGV map[runtime.GroupVersion][]runtime.ResourceInfo
}

func newRESTMapper(d *client.DiscoveryClient) *restMapper {
	return &restMapper{discovery: d, byGV: map[runtime.GroupVersion][]runtime.ResourceInfo{}}
}

// reset forgets what was read, so the next lookups read discovery again.
func (m *restMapper) reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	clear(m.byGV)
}

// resourceFor returns the resource serving gvk; a kind the server does
// not serve is a *restMappingError. It reads discovery (one request) the
// first time a group version is asked for after a reset, and again when
// the kind is missing from what was read: it may have been installed
// since, as upstream's mapper assumes when it resets on a miss.
func (m *restMapper) resourceFor(ctx context.Context, gvk runtime.GroupVersionKind) (runtime.ResourceInfo, error) {
	gv := gvk.GroupVersion()
	m.mu.Lock()
	infos := m.byGV[gv]
	m.mu.Unlock()
	if info, ok := kindIn(infos, gvk.Kind); ok {
		return info, nil
	}
	// Read without the lock: two workers may read the same group version
	// at once, which costs a request and is harmless.
	infos, err := m.discovery.ServerResourcesForGroupVersion(ctx, gv)
	switch {
	case apierrors.IsNotFound(err):
		infos = nil
	case err != nil:
		return runtime.ResourceInfo{}, fmt.Errorf("garbage collector: discover %s: %w", gv, err)
	}
	m.mu.Lock()
	m.byGV[gv] = infos
	m.mu.Unlock()
	if info, ok := kindIn(infos, gvk.Kind); ok {
		return info, nil
	}
	return runtime.ResourceInfo{}, &restMappingError{kind: gvk.Kind, apiVersion: gv.String()}
}

// kindIn returns the resource of kind among infos.
func kindIn(infos []runtime.ResourceInfo, kind string) (runtime.ResourceInfo, bool) {
	for _, info := range infos {
		if info.Kind == kind {
			return info, true
		}
	}
	return runtime.ResourceInfo{}, false
}

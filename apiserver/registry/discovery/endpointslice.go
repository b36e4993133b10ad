// Package discovery holds the registry strategy of discovery.k8s.io
// EndpointSlices: the endpoints of Services, in slices of at most a
// hundred, that kube-proxy and cluster DNS read.
//
// Upstream: k8s.io/kubernetes/pkg/registry/discovery/endpointslice.
package discovery

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// EndpointSliceStrategy is the rules of the endpointslices resource: a
// spec-only object, whose generation counts its changes as upstream's
// does.
type EndpointSliceStrategy struct{ registry.DefaultStrategy }

// TracksGeneration implements registry.GenerationStrategy: upstream's
// strategy sets generation 1 on create and adds one per change.
func (EndpointSliceStrategy) TracksGeneration() bool { return true }

// Validate implements registry.Strategy.
func (EndpointSliceStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateEndpointSlice(obj.(*discoveryv1.EndpointSlice))
}

// ValidateUpdate implements registry.Strategy.
func (EndpointSliceStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateEndpointSliceUpdate(obj.(*discoveryv1.EndpointSlice), old.(*discoveryv1.EndpointSlice))
}

// maxShown is how many ports or addresses a column lists before
// "+ N more...", as kubectl.
const maxShown = 3

// EndpointSliceTable prints slices as `kubectl get endpointslices` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printEndpointSlice).
var EndpointSliceTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "AddressType", Type: "string", Description: "addressType specifies the type of address carried by this EndpointSlice."},
		{Name: "Ports", Type: "string", Description: "ports specifies the list of network ports exposed by each endpoint in this slice."},
		{Name: "Endpoints", Type: "string", Description: "endpoints is a list of unique endpoints in this slice."},
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		s := obj.(*discoveryv1.EndpointSlice)
		return []any{s.Name, string(s.AddressType), formatPorts(s.Ports), formatEndpoints(s.Endpoints), printers.Age(obj, now)}
	},
}

// formatPorts is the PORTS column: the port numbers, "<unset>" for a
// nil one, "<unset>" for none.
func formatPorts(ports []discoveryv1.EndpointPort) string {
	if len(ports) == 0 {
		return "<unset>"
	}
	var list []string
	for i, p := range ports {
		if i == maxShown {
			return strings.Join(list, ",") + " + " + strconv.Itoa(len(ports)-maxShown) + " more..."
		}
		if p.Port == nil {
			list = append(list, "<unset>")
		} else {
			list = append(list, strconv.Itoa(int(*p.Port)))
		}
	}
	return strings.Join(list, ",")
}

// formatEndpoints is the ENDPOINTS column: the first addresses of the
// endpoints, or "<unset>".
func formatEndpoints(endpoints []discoveryv1.Endpoint) string {
	var list []string
	count := 0
	for _, ep := range endpoints {
		for _, addr := range ep.Addresses {
			count++
			if len(list) < maxShown {
				list = append(list, addr)
			}
		}
	}
	switch {
	case count == 0:
		return "<unset>"
	case count > maxShown:
		return strings.Join(list, ",") + " + " + strconv.Itoa(count-maxShown) + " more..."
	}
	return strings.Join(list, ",")
}

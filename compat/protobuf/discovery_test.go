package protobuf

import (
	kdiscoveryv1 "k8s.io/api/discovery/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"

	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
)

// discoveryCases are the discovery.k8s.io kinds, filled. They have no
// golden files: the main module has no protobuf test of its own for them.
func discoveryCases() []compatCase {
	const discovery = "discovery.k8s.io/v1"
	return []compatCase{
		{name: "EndpointSlice-filled", minicp: withTypeMeta(fill(&discoveryv1.EndpointSlice{}), discovery, "EndpointSlice"),
			k8s: func() kruntime.Object { return &kdiscoveryv1.EndpointSlice{} }, noGolden: true},
		{name: "EndpointSliceList-filled", minicp: withTypeMeta(fill(&discoveryv1.EndpointSliceList{}), discovery, "EndpointSliceList"),
			k8s: func() kruntime.Object { return &kdiscoveryv1.EndpointSliceList{} }, noGolden: true},
	}
}

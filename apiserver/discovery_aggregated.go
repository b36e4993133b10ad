package apiserver

import (
	"encoding/json"
	"mime"
	"net/http"
	"slices"
	"strings"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// Aggregated discovery: /api and /apis answer with one
// APIGroupDiscoveryList describing every version and resource when the
// Accept header asks for it, which saves kubectl one request per
// group/version. Like the legacy documents it is built from the Scheme
// on every request, so custom resources appear and disappear with their
// CRDs.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/discovery/aggregated.

// discoveryGroup is the group of the aggregated discovery kinds.
const discoveryGroup = "apidiscovery.k8s.io"

// aggregatedDiscoveryVersions are the versions of APIGroupDiscoveryList
// the server speaks. v2beta1 has the same wire shape as v2; clients
// before 1.30 ask only for it.
var aggregatedDiscoveryVersions = []string{"v2", "v2beta1"}

// aggregatedDiscoveryVersion returns the version of APIGroupDiscoveryList
// that the Accept header asks for before any media type the legacy
// documents answer, or "" for the legacy documents. Media types are taken
// in the order listed: kubectl lists v2, then v2beta1, then plain JSON.
// Variants the server cannot produce (protobuf) are skipped, as
// kube-apiserver skips them. The nopeer profile (no resources of peer
// servers) is the same document here: minicp has no peers.
func aggregatedDiscoveryVersion(accept string) string {
	for part := range strings.SplitSeq(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		if params["g"] == "" && params["as"] == "" {
			switch mt {
			case responsewriters.MediaTypeJSON, responsewriters.MediaTypeYAML, "*/*", "application/*":
				return ""
			}
			continue
		}
		if mt == responsewriters.MediaTypeJSON && params["g"] == discoveryGroup && params["as"] == "APIGroupDiscoveryList" &&
			slices.Contains(aggregatedDiscoveryVersions, params["v"]) {
			return params["v"]
		}
	}
	return ""
}

// serveAggregatedDiscovery writes list as the APIGroupDiscoveryList
// version asked for, with its ETag: a client that sends the ETag back
// in If-None-Match gets 304 until a resource comes or goes.
func serveAggregatedDiscovery(w http.ResponseWriter, r *http.Request, version string, list *metav1.APIGroupDiscoveryList) {
	list.TypeMeta = metav1.TypeMeta{Kind: "APIGroupDiscoveryList", APIVersion: discoveryGroup + "/" + version}
	data, err := json.Marshal(list)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	contentType := responsewriters.MediaTypeJSON + ";g=" + discoveryGroup + ";v=" + version + ";as=APIGroupDiscoveryList"
	writeCacheable(w, r, contentType, data)
}

// aggregatedCoreDiscovery is /api's aggregated document: the core group
// alone, whose name is empty.
func (s *Server) aggregatedCoreDiscovery() *metav1.APIGroupDiscoveryList {
	list := &metav1.APIGroupDiscoveryList{Items: []metav1.APIGroupDiscovery{}}
	if versions := s.versionDiscovery(""); len(versions) > 0 {
		list.Items = append(list.Items, metav1.APIGroupDiscovery{Versions: versions})
	}
	return list
}

// aggregatedGroupsDiscovery is /apis's aggregated document: every named
// group in the order of /apis.
func (s *Server) aggregatedGroupsDiscovery() *metav1.APIGroupDiscoveryList {
	list := &metav1.APIGroupDiscoveryList{Items: []metav1.APIGroupDiscovery{}}
	for _, g := range s.groups() {
		list.Items = append(list.Items, metav1.APIGroupDiscovery{
			ObjectMeta: metav1.ObjectMeta{Name: g.Name},
			Versions:   s.versionDiscovery(g.Name),
		})
	}
	return list
}

// versionDiscovery describes group's versions, the preferred first, each
// with its resources in registration order.
func (s *Server) versionDiscovery(group string) []metav1.APIVersionDiscovery {
	var out []metav1.APIVersionDiscovery
	index := map[string]int{}
	for _, info := range s.scheme.Resources() {
		if info.GVR.Group != group {
			continue
		}
		i, ok := index[info.GVR.Version]
		if !ok {
			i = len(out)
			index[info.GVR.Version] = i
			out = append(out, metav1.APIVersionDiscovery{Version: info.GVR.Version, Freshness: metav1.DiscoveryFreshnessCurrent})
		}
		out[i].Resources = append(out[i].Resources, resourceDiscovery(info))
	}
	slices.SortStableFunc(out, func(a, b metav1.APIVersionDiscovery) int {
		return compareKubeAwareVersions(a.Version, b.Version)
	})
	return out
}

// resourceDiscovery describes one resource as aggregated discovery does:
// the same facts as its APIResource entries in the legacy list, with each
// subresource nested under its resource.
func resourceDiscovery(info runtime.ResourceInfo) metav1.APIResourceDiscovery {
	gvk := info.GVK()
	scope := metav1.ScopeCluster
	if info.Namespaced {
		scope = metav1.ScopeNamespace
	}
	out := metav1.APIResourceDiscovery{
		Resource: info.GVR.Resource, ResponseKind: discoveryKind(gvk), Scope: scope,
		SingularResource: info.SingularName, Verbs: sortedVerbs(info.Verbs),
		ShortNames: info.ShortNames, Categories: info.Categories,
	}
	for _, sub := range info.Subresources {
		out.Subresources = append(out.Subresources, metav1.APISubresourceDiscovery{
			Subresource: sub, ResponseKind: discoveryKind(subresourceKind(info, sub)), Verbs: subresourceVerbs[sub],
		})
	}
	return out
}

func discoveryKind(gvk runtime.GroupVersionKind) *metav1.GroupVersionKind {
	return &metav1.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind}
}

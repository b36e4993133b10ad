package apiserver

import (
	"net/http"
	"slices"
	"strings"

	"github.com/gorilla/mux"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// Discovery documents are built from the Scheme's resources on every
// request, so resources added at run time (CRDs) appear at once and
// routing and discovery can never disagree.

// subresourceVerbs are the verbs discovery lists for each subresource.
var subresourceVerbs = map[string][]string{
	"status":   {"get", "patch", "update"},
	"binding":  {"create"},
	"eviction": {"create"},
	"finalize": {"update"},
	"log":      {"get"},
	// The subresources that relay a connection: GET and POST upgrade
	// (exec, attach, portforward); proxy relays every method.
	"exec":        {"create", "get"},
	"attach":      {"create", "get"},
	"portforward": {"create", "get"},
	"proxy":       {"create", "delete", "get", "patch", "update"},
	"scale":       {"get", "patch", "update"},
	"token":       {"create"},
}

// subresourceKinds are the kinds of subresources whose body is not the
// resource's own kind.
var subresourceKinds = map[string]runtime.GroupVersionKind{
	"binding":  {Version: "v1", Kind: "Binding"},
	"eviction": policyv1.EvictionGVK,
	"scale":    registry.ScaleGVK,
	"token":    {Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"},
}

// connectKinds are the kinds discovery names for the core subresources
// that relay a connection: their options, which the request carries in
// its query, as kube-apiserver names them (nodes/proxy is for when it is
// served).
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod/rest (ExecREST.New
// and its siblings), service/proxy.go, node/rest/proxy.go.
var connectKinds = map[string]string{
	"pods/exec":        "PodExecOptions",
	"pods/attach":      "PodAttachOptions",
	"pods/portforward": "PodPortForwardOptions",
	"pods/proxy":       "PodProxyOptions",
	"services/proxy":   "ServiceProxyOptions",
	"nodes/proxy":      "NodeProxyOptions",
}

// subresourceKind is the kind discovery names for info's subresource
// sub: the resource's own kind unless the subresource has one of its own.
func subresourceKind(info runtime.ResourceInfo, sub string) runtime.GroupVersionKind {
	if gvk, ok := subresourceKinds[sub]; ok {
		return gvk
	}
	if kind, ok := connectKinds[info.GVR.Resource+"/"+sub]; ok && info.GVR.Group == "" {
		return info.GVR.GroupVersion().WithKind(kind)
	}
	return info.GVK()
}

// serveAPIVersions serves /api: the legacy core group's versions, or its
// aggregated discovery document when the client asks for one.
func (s *Server) serveAPIVersions(w http.ResponseWriter, r *http.Request) {
	if v := aggregatedDiscoveryVersion(r.Header.Get("Accept")); v != "" {
		serveAggregatedDiscovery(w, r, v, s.aggregatedCoreDiscovery())
		return
	}
	w.Header().Add("Vary", "Accept")
	responsewriters.WriteObject(w, r, http.StatusOK, &metav1.APIVersions{
		TypeMeta:                   metav1.TypeMeta{Kind: "APIVersions"},
		Versions:                   []string{"v1"},
		ServerAddressByClientCIDRs: []metav1.ServerAddressByClientCIDR{{ClientCIDR: "0.0.0.0/0", ServerAddress: r.Host}},
	})
}

// serveAPIGroupList serves /apis: every named group, or their aggregated
// discovery document when the client asks for one.
func (s *Server) serveAPIGroupList(w http.ResponseWriter, r *http.Request) {
	if v := aggregatedDiscoveryVersion(r.Header.Get("Accept")); v != "" {
		serveAggregatedDiscovery(w, r, v, s.aggregatedGroupsDiscovery())
		return
	}
	w.Header().Add("Vary", "Accept")
	list := &metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}, Groups: []metav1.APIGroup{}}
	for _, g := range s.groups() {
		list.Groups = append(list.Groups, g)
	}
	responsewriters.WriteObject(w, r, http.StatusOK, list)
}

// serveAPIGroup serves /apis/{group}.
func (s *Server) serveAPIGroup(w http.ResponseWriter, r *http.Request) {
	name := mux.Vars(r)["group"]
	for _, g := range s.groups() {
		if g.Name == name {
			g.TypeMeta = metav1.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}
			responsewriters.WriteObject(w, r, http.StatusOK, &g)
			return
		}
	}
	responsewriters.WriteError(w, r, notFoundPath())
}

// serveAPIResourceList serves /api/v1 and /apis/{group}/{version}.
func (s *Server) serveAPIResourceList(w http.ResponseWriter, r *http.Request) {
	vars := mux.Vars(r)
	gv := runtime.GroupVersion{Group: vars["group"], Version: vars["version"]}
	list := &metav1.APIResourceList{
		TypeMeta:     metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
		GroupVersion: gv.String(),
		APIResources: []metav1.APIResource{},
	}
	for _, info := range s.scheme.Resources() {
		if info.GVR.GroupVersion() != gv {
			continue
		}
		list.APIResources = append(list.APIResources, metav1.APIResource{
			Name: info.GVR.Resource, SingularName: info.SingularName, Namespaced: info.Namespaced,
			Kind: info.Kind, Verbs: sortedVerbs(info.Verbs), ShortNames: info.ShortNames, Categories: info.Categories,
		})
		for _, sub := range info.Subresources {
			gvk := subresourceKind(info, sub)
			r := metav1.APIResource{
				Name: info.GVR.Resource + "/" + sub, Namespaced: info.Namespaced, Kind: gvk.Kind,
				Verbs: subresourceVerbs[sub],
			}
			// Discovery names the group and version only of a kind from
			// another group: kubectl scale reads them to know it speaks
			// autoscaling/v1 Scale.
			if gvk.GroupVersion() != info.GVR.GroupVersion() {
				r.Group, r.Version = gvk.Group, gvk.Version
			}
			list.APIResources = append(list.APIResources, r)
		}
	}
	if len(list.APIResources) == 0 {
		responsewriters.WriteError(w, r, notFoundPath())
		return
	}
	responsewriters.WriteObject(w, r, http.StatusOK, list)
}

// groups returns the named groups in registration order, each with its
// versions, the preferred first.
func (s *Server) groups() []metav1.APIGroup {
	var out []metav1.APIGroup
	index := map[string]int{}
	for _, info := range s.scheme.Resources() {
		gvr := info.GVR
		if gvr.Group == "" {
			continue
		}
		v := metav1.GroupVersionForDiscovery{GroupVersion: gvr.GroupVersion().String(), Version: gvr.Version}
		i, ok := index[gvr.Group]
		if !ok {
			index[gvr.Group] = len(out)
			out = append(out, metav1.APIGroup{Name: gvr.Group, Versions: []metav1.GroupVersionForDiscovery{v}, PreferredVersion: v})
			continue
		}
		if !slices.Contains(out[i].Versions, v) {
			out[i].Versions = append(out[i].Versions, v)
		}
	}
	// A group served at several versions (a CRD's) lists them in
	// Kubernetes' priority order, and prefers the first.
	for i := range out {
		slices.SortStableFunc(out[i].Versions, func(a, b metav1.GroupVersionForDiscovery) int {
			return compareKubeAwareVersions(a.Version, b.Version)
		})
		out[i].PreferredVersion = out[i].Versions[0]
	}
	return out
}

func sortedVerbs(verbs []string) []string {
	out := slices.Clone(verbs)
	slices.Sort(out)
	return out
}

// notFoundPath is kube-apiserver's 404 for a path it does not serve.
func notFoundPath() error {
	se := apierrors.NewNotFound(runtime.GroupResource{}, "")
	se.ErrStatus.Message = "the server could not find the requested resource"
	se.ErrStatus.Details = &metav1.StatusDetails{}
	return se
}

// isDiscoveryPath reports /api, /apis and their group and version paths.
func isDiscoveryPath(path string) bool {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch parts[0] {
	case "api":
		return len(parts) <= 2
	case "apis":
		return len(parts) <= 3
	}
	return false
}

package apiserver

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// OpenAPI v3, as kube-apiserver serves it: /openapi/v3 lists one
// document per group/version, and each document has the paths and
// operations of that group/version's resources and, under
// components.schemas, the schemas of their kinds and of every type those
// refer to. Built-in kinds' schemas come from their Go types
// (openapi_builtin.go), custom resources' from their CRD. kubectl
// explain reads the schemas, kubectl apply the patch strategies, and
// kubectl create the fieldValidation parameter. Documents are built on
// every request, so a CRD's kinds appear and disappear with it.
//
// Upstream: k8s.io/kube-openapi/pkg/handler3.

// openAPIDocumentLifetime is how long a client may keep a document it
// fetched by hash: the hash changes with the content, so such a URL
// never goes stale, and upstream says so for a year.
const openAPIDocumentLifetime = 365 * 24 * time.Hour

// serveOpenAPIV3Root serves /openapi/v3: one entry per group/version,
// each URL carrying its document's hash so clients may cache it for good.
func (s *Server) serveOpenAPIV3Root(w http.ResponseWriter, r *http.Request) {
	paths := map[string]any{}
	for gv := range s.openAPIGroupVersions() {
		p := openAPIPath(gv)
		url := "/openapi/v3/" + p
		if data, err := json.Marshal(s.openAPIV3Document(gv)); err == nil {
			url += "?hash=" + strings.Trim(etagOf(data), `"`)
		}
		paths[p] = map[string]string{"serverRelativeURL": url}
	}
	data, err := json.Marshal(map[string]any{"paths": paths})
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	writeCacheable(w, r, responsewriters.MediaTypeJSON, data)
}

// serveOpenAPIV3 serves /openapi/v3/api/v1 and /openapi/v3/apis/{g}/{v}.
// A request whose hash is not the current one's is redirected to the
// current document, as upstream does; one whose hash is current may be
// cached for good.
func (s *Server) serveOpenAPIV3(w http.ResponseWriter, r *http.Request) {
	want := strings.TrimPrefix(r.URL.Path, "/openapi/v3/")
	var gv runtime.GroupVersion
	found := false
	for candidate := range s.openAPIGroupVersions() {
		if openAPIPath(candidate) == want {
			gv, found = candidate, true
			break
		}
	}
	if !found {
		responsewriters.WriteError(w, r, notFoundPath())
		return
	}
	data, err := json.Marshal(s.openAPIV3Document(gv))
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	if hash := r.URL.Query().Get("hash"); hash != "" {
		current := strings.Trim(etagOf(data), `"`)
		if hash != current {
			u := *r.URL
			u.RawQuery = "hash=" + current
			http.Redirect(w, r, u.String(), http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Cache-Control", "public, immutable")
		w.Header().Set("Expires", s.clock.Now().Add(openAPIDocumentLifetime).UTC().Format(http.TimeFormat))
	}
	writeCacheable(w, r, responsewriters.MediaTypeJSON, data)
}

// openAPIGroupVersions is the set of group/versions that have a
// resource.
func (s *Server) openAPIGroupVersions() map[runtime.GroupVersion]bool {
	out := map[runtime.GroupVersion]bool{}
	for _, info := range s.scheme.Resources() {
		out[info.GVR.GroupVersion()] = true
	}
	return out
}

// openAPIV3Document is gv's OpenAPI v3 document.
func (s *Server) openAPIV3Document(gv runtime.GroupVersion) map[string]any {
	var infos []runtime.ResourceInfo
	for _, info := range s.scheme.Resources() {
		if info.GVR.GroupVersion() == gv {
			infos = append(infos, info)
		}
	}
	paths, defs := s.openAPIContent(openAPIV3, infos)
	return map[string]any{
		"openapi":    "3.0.0",
		"info":       map[string]string{"title": "Kubernetes", "version": Version.GitVersion},
		"paths":      paths,
		"components": map[string]any{"schemas": defs},
	}
}

// openAPIContent returns the paths of the resources and the definitions
// of their kinds, list kinds and subresource kinds, and of every type
// those refer to, in flavor's form.
func (s *Server) openAPIContent(flavor openAPIFlavor, infos []runtime.ResourceInfo) (map[string]any, map[string]map[string]any) {
	b := newDefinitionBuilder(flavor)
	paths := map[string]any{}
	for _, info := range infos {
		kind, list := s.addResourceDefinitions(b, info)
		for _, item := range resourcePathItems(info) {
			paths[item.path] = item.render(flavor, info, kind, list)
		}
	}
	return paths, b.defs
}

// addResourceDefinitions adds the definitions of info's kinds to b and
// returns the names of its kind and list kind ("" when it has none).
func (s *Server) addResourceDefinitions(b *definitionBuilder, info runtime.ResourceInfo) (kind, list string) {
	add := func(gvk runtime.GroupVersionKind) string {
		obj, err := s.scheme.New(gvk)
		if err != nil {
			return ""
		}
		return b.addKind(reflect.TypeOf(obj).Elem(), gvk)
	}
	if schema := s.openAPISchema(info.GVR); schema != nil {
		// A custom resource: its CRD's schema, which refers to ObjectMeta.
		kind = openAPISchemaName(info.GVK())
		if b.flavor == openAPIV2 {
			schema = openAPIV2Schema(schema)
		}
		b.defs[kind] = schema
		b.define(objectMetaType)
		if info.HasVerb("list") {
			list = openAPISchemaName(info.ListGVK())
			b.defs[list] = customResourceListSchema(b, info, kind)
		}
	} else {
		kind = add(info.GVK())
		if info.HasVerb("list") {
			list = add(info.ListGVK())
		}
	}
	for _, sub := range info.Subresources {
		if gvk, ok := subresourceKinds[sub]; ok {
			add(gvk)
		}
	}
	return kind, list
}

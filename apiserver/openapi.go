package apiserver

import (
	"net/http"
	"strings"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// OpenAPI v3, as far as minicp serves it: for every group/version, the
// paths and operations of its resources, each tagged with the
// x-kubernetes-group-version-kind it takes and with the query parameters it
// accepts. That is what kubectl reads to learn that the server validates
// fields itself (fieldValidation), so `kubectl create -f` and `apply`
// leave validation to the server instead of failing to download schemas.
// Custom resources also publish their CRD's schema under components, so
// `kubectl explain` works for them; built-in kinds' schemas are not served
// yet.
//
// Upstream: k8s.io/kube-openapi/pkg/handler3.

// serveOpenAPIV3Root serves /openapi/v3: one entry per group/version.
func (s *Server) serveOpenAPIV3Root(w http.ResponseWriter, r *http.Request) {
	paths := map[string]any{}
	for _, info := range s.scheme.Resources() {
		p := openAPIPath(info.GVR.GroupVersion())
		paths[p] = map[string]string{"serverRelativeURL": "/openapi/v3/" + p}
	}
	responsewriters.WriteObject(w, r, http.StatusOK, map[string]any{"paths": paths})
}

// serveOpenAPIV3 serves /openapi/v3/api/v1 and /openapi/v3/apis/{g}/{v}.
func (s *Server) serveOpenAPIV3(w http.ResponseWriter, r *http.Request) {
	want := strings.TrimPrefix(r.URL.Path, "/openapi/v3/")
	paths := map[string]any{}
	schemas := map[string]any{}
	for _, info := range s.scheme.Resources() {
		gv := info.GVR.GroupVersion()
		if openAPIPath(gv) != want {
			continue
		}
		for path, item := range resourcePaths(info) {
			paths[path] = item
		}
		if schema := s.openAPISchema(info.GVR); schema != nil {
			schemas[openAPISchemaName(info.GVK())] = schema
		}
	}
	if len(paths) == 0 {
		responsewriters.WriteError(w, r, notFoundPath())
		return
	}
	doc := map[string]any{
		"openapi": "3.0.0",
		"info":    map[string]string{"title": "Kubernetes", "version": Version.GitVersion},
		"paths":   paths,
	}
	if len(schemas) > 0 {
		// The kinds' schemas refer to ObjectMeta and its parts, which
		// each document carries, as upstream's do.
		for name, schema := range objectMetaSchemas() {
			schemas[name] = schema
		}
		doc["components"] = map[string]any{"schemas": schemas}
	}
	responsewriters.WriteObject(w, r, http.StatusOK, doc)
}

func openAPIPath(gv runtime.GroupVersion) string {
	if gv.Group == "" {
		return "api/" + gv.Version
	}
	return "apis/" + gv.Group + "/" + gv.Version
}

// resourcePaths describes a resource's collection and item paths.
func resourcePaths(info runtime.ResourceInfo) map[string]any {
	gvk := map[string]string{"group": info.GVR.Group, "version": info.GVR.Version, "kind": info.Kind}
	base := "/" + openAPIPath(info.GVR.GroupVersion())
	if info.Namespaced {
		base += "/namespaces/{namespace}"
	}
	collection := base + "/" + info.GVR.Resource
	item := collection + "/{name}"
	op := func(verb string, params ...string) map[string]any {
		var ps []map[string]any
		for _, p := range params {
			ps = append(ps, map[string]any{"name": p, "in": "query", "schema": map[string]string{"type": "string"}})
		}
		return map[string]any{
			"operationId":                     verb + info.Kind,
			"x-kubernetes-action":             verb,
			"x-kubernetes-group-version-kind": gvk,
			"parameters":                      ps,
			"responses":                       map[string]any{"200": map[string]string{"description": "OK"}},
		}
	}
	writeParams := []string{"dryRun", "fieldManager", "fieldValidation"}
	coll, obj := map[string]any{}, map[string]any{}
	if info.HasVerb("create") {
		coll["post"] = op("post", writeParams...)
	}
	if info.HasVerb("list") {
		coll["get"] = op("list", "labelSelector", "fieldSelector", "limit", "continue", "resourceVersion", "watch")
	}
	if info.HasVerb("get") {
		obj["get"] = op("get")
	}
	if info.HasVerb("update") {
		obj["put"] = op("put", writeParams...)
	}
	if info.HasVerb("patch") {
		obj["patch"] = op("patch", writeParams...)
	}
	if info.HasVerb("delete") {
		obj["delete"] = op("delete", "dryRun", "gracePeriodSeconds", "propagationPolicy")
	}
	paths := map[string]any{}
	if len(coll) > 0 {
		paths[collection] = coll
	}
	if len(obj) > 0 {
		paths[item] = obj
	}
	return paths
}

package apiserver

import (
	"strings"

	"github.com/minicp/minicp/api/runtime"
)

// openAPIPathItem is one path of a resource, its collection or one
// object, described once for both OpenAPI versions.
type openAPIPathItem struct {
	path string
	// pathParams are the path's {parameters}: namespace, name.
	pathParams []string
	ops        []openAPIOperation
}

// openAPIOperation is one operation of a path. Each names the kind it
// serves in x-kubernetes-group-version-kind and lists the query
// parameters it accepts: that is what kubectl reads to learn that the
// server validates fields itself (fieldValidation), so `kubectl create
// -f` and `apply` leave validation to the server.
type openAPIOperation struct {
	method string
	// action is x-kubernetes-action, the verb in Kubernetes' words.
	action string
	params []string
	// list says the response is the resource's list kind.
	list bool
}

// openAPIParamTypes are the types of the query parameters that are not
// strings.
var openAPIParamTypes = map[string]string{
	"gracePeriodSeconds": "integer", "limit": "integer", "timeoutSeconds": "integer", "watch": "boolean",
}

func openAPIPath(gv runtime.GroupVersion) string {
	if gv.Group == "" {
		return "api/" + gv.Version
	}
	return "apis/" + gv.Group + "/" + gv.Version
}

// resourcePathItems describes a resource's collection and object paths
// with the operations its verbs allow.
func resourcePathItems(info runtime.ResourceInfo) []openAPIPathItem {
	base := "/" + openAPIPath(info.GVR.GroupVersion())
	var params []string
	if info.Namespaced {
		base += "/namespaces/{namespace}"
		params = append(params, "namespace")
	}
	writeParams := []string{"dryRun", "fieldManager", "fieldValidation"}
	listParams := []string{"labelSelector", "fieldSelector", "limit", "continue", "resourceVersion", "timeoutSeconds", "watch"}
	coll := openAPIPathItem{path: base + "/" + info.GVR.Resource, pathParams: params}
	obj := openAPIPathItem{path: coll.path + "/{name}", pathParams: append(params[:len(params):len(params)], "name")}
	if info.HasVerb("create") {
		coll.ops = append(coll.ops, openAPIOperation{method: "post", action: "post", params: writeParams})
	}
	if info.HasVerb("list") {
		coll.ops = append(coll.ops, openAPIOperation{method: "get", action: "list", params: listParams, list: true})
	}
	if info.HasVerb("deletecollection") {
		coll.ops = append(coll.ops, openAPIOperation{method: "delete", action: "deletecollection", params: append([]string{"dryRun", "gracePeriodSeconds", "propagationPolicy"}, listParams[:5]...)})
	}
	if info.HasVerb("get") {
		obj.ops = append(obj.ops, openAPIOperation{method: "get", action: "get"})
	}
	if info.HasVerb("update") {
		obj.ops = append(obj.ops, openAPIOperation{method: "put", action: "put", params: writeParams})
	}
	if info.HasVerb("patch") {
		obj.ops = append(obj.ops, openAPIOperation{method: "patch", action: "patch", params: append(writeParams, "force")})
	}
	if info.HasVerb("delete") {
		obj.ops = append(obj.ops, openAPIOperation{method: "delete", action: "delete", params: []string{"dryRun", "gracePeriodSeconds", "propagationPolicy"}})
	}
	var out []openAPIPathItem
	for _, p := range []openAPIPathItem{coll, obj} {
		if len(p.ops) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// render writes the path item in flavor's form; kind and list are the
// definition names of the resource's kind and list kind.
func (p openAPIPathItem) render(flavor openAPIFlavor, info runtime.ResourceInfo, kind, list string) map[string]any {
	param := func(name, in string) map[string]any {
		typ := openAPIParamTypes[name]
		if typ == "" {
			typ = "string"
		}
		out := map[string]any{"name": name, "in": in, "uniqueItems": true}
		if flavor == openAPIV2 {
			out["type"] = typ
		} else {
			out["schema"] = map[string]any{"type": typ, "uniqueItems": true}
			delete(out, "uniqueItems")
		}
		if in == "path" {
			out["required"] = true
		}
		return out
	}
	gvk := map[string]any{"group": info.GVR.Group, "version": info.GVR.Version, "kind": info.Kind}
	item := map[string]any{}
	var pathParams []any
	for _, name := range p.pathParams {
		pathParams = append(pathParams, param(name, "path"))
	}
	if len(pathParams) > 0 {
		item["parameters"] = pathParams
	}
	for _, op := range p.ops {
		params := []any{}
		for _, name := range op.params {
			params = append(params, param(name, "query"))
		}
		def := kind
		if op.list {
			def = list
		}
		ok := map[string]any{"description": "OK"}
		if def != "" {
			schema := map[string]any{"$ref": flavor.refPrefix() + def}
			if flavor == openAPIV2 {
				ok["schema"] = schema
			} else {
				ok["content"] = map[string]any{"application/json": map[string]any{"schema": schema}}
			}
		}
		item[op.method] = map[string]any{
			"operationId":                     operationID(op.action, info),
			"x-kubernetes-action":             op.action,
			"x-kubernetes-group-version-kind": gvk,
			"parameters":                      params,
			"responses":                       map[string]any{"200": ok},
		}
	}
	return item
}

// operationID names an operation uniquely in the document as upstream
// does: the action, the group's first label and the version, and the
// kind, "listAppsV1NamespacedDeployment".
func operationID(action string, info runtime.ResourceInfo) string {
	group, _, _ := strings.Cut(info.GVR.Group, ".")
	if group == "" {
		group = "core"
	}
	scope := ""
	if info.Namespaced {
		scope = "Namespaced"
	}
	title := func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
	return action + title(group) + title(info.GVR.Version) + scope + info.Kind
}

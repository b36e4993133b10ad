package request

import (
	"context"
	"net/http"
	"strings"
)

// RequestInfo is what the path and method say a request is. For a resource
// request (IsResourceRequest) every field is set that the path names; for
// anything else (/healthz, /version, discovery) only Path and Verb (the
// lowercase HTTP method) are.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/request (RequestInfo).
type RequestInfo struct {
	IsResourceRequest bool
	Path              string
	// Verb is the Kubernetes verb: get, list, watch, create, update, patch,
	// delete, deletecollection; or the HTTP method in lowercase for
	// non-resource requests.
	Verb        string
	APIPrefix   string // "api" or "apis"
	APIGroup    string
	APIVersion  string
	Namespace   string
	Resource    string
	Subresource string
	Name        string
	// FieldSelector is the fieldSelector parameter of a list, watch or
	// deletecollection, as sent: the Node authorizer lets a node list
	// only the pods whose spec.nodeName is its own.
	FieldSelector string
}

type requestInfoKey struct{}

// WithRequestInfo returns ctx carrying info.
func WithRequestInfo(ctx context.Context, info *RequestInfo) context.Context {
	return context.WithValue(ctx, requestInfoKey{}, info)
}

// RequestInfoFrom returns the RequestInfo in ctx, if the filter ran.
func RequestInfoFrom(ctx context.Context) (*RequestInfo, bool) {
	info, ok := ctx.Value(requestInfoKey{}).(*RequestInfo)
	return info, ok
}

// NewRequestInfo parses r's path the way the Kubernetes API lays it out:
//
//	/api/{version}/{resource}
//	/api/{version}/{resource}/{name}[/{subresource}]
//	/api/{version}/namespaces/{namespace}/{resource}[/{name}[/{subresource}]]
//	/apis/{group}/{version}/...                 (the same below the version)
//	/api/{version}/watch/...                    (deprecated watch paths)
//
// A namespace's own paths (/api/v1/namespaces/{name}[/status]) are the
// namespaces resource, not a namespace scope.
func NewRequestInfo(r *http.Request) *RequestInfo {
	info := &RequestInfo{Path: r.URL.Path, Verb: strings.ToLower(r.Method)}
	parts := splitPath(r.URL.Path)
	if len(parts) < 2 || (parts[0] != "api" && parts[0] != "apis") {
		return info
	}
	info.APIPrefix = parts[0]
	parts = parts[1:]
	if info.APIPrefix == "apis" {
		if len(parts) < 2 {
			return info // /apis or /apis/{group}: discovery
		}
		info.APIGroup = parts[0]
		parts = parts[1:]
	}
	info.APIVersion = parts[0]
	parts = parts[1:]
	if len(parts) == 0 {
		return info // /api/v1: discovery
	}
	info.IsResourceRequest = true

	watchPath := false
	if parts[0] == "watch" {
		watchPath = true
		parts = parts[1:]
	}
	// /namespaces/{ns}/{resource}... is a namespace scope, except for the
	// namespace's own subresources (/namespaces/{ns}/status, /finalize).
	if len(parts) >= 3 && parts[0] == "namespaces" && parts[2] != "status" && parts[2] != "finalize" {
		info.Namespace = parts[1]
		parts = parts[2:]
	}
	switch len(parts) {
	case 0:
		info.IsResourceRequest = false
		return info
	case 1:
		info.Resource = parts[0]
	case 2:
		info.Resource, info.Name = parts[0], parts[1]
	default:
		info.Resource, info.Name, info.Subresource = parts[0], parts[1], strings.Join(parts[2:], "/")
		if parts[2] == "proxy" {
			// What follows is the path on the proxied server.
			info.Subresource = "proxy"
		}
	}
	if info.Resource == "namespaces" && info.Name != "" && info.Namespace == "" {
		// A namespace is named by its own path; record it as the scope too,
		// so admission and authorization see which namespace it is.
		info.Namespace = info.Name
	}
	info.Verb = resourceVerb(r, info, watchPath)
	switch info.Verb {
	case "list", "watch", "deletecollection":
		info.FieldSelector = r.URL.Query().Get("fieldSelector")
	}
	return info
}

func resourceVerb(r *http.Request, info *RequestInfo, watchPath bool) string {
	q := r.URL.Query()
	isWatch := watchPath || q.Get("watch") == "true" || q.Get("watch") == "1"
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		switch {
		case isWatch:
			return "watch"
		case info.Name == "":
			return "list"
		default:
			return "get"
		}
	case http.MethodPost:
		return "create"
	case http.MethodPut:
		return "update"
	case http.MethodPatch:
		return "patch"
	case http.MethodDelete:
		if info.Name == "" {
			return "deletecollection"
		}
		return "delete"
	}
	return strings.ToLower(r.Method)
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

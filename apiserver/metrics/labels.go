package metrics

import (
	"net/http"
	"slices"
	"strings"

	"github.com/minicp/minicp/apiserver/request"
)

// applyPatchType is the content type of a server-side apply: a PATCH
// with it is reported as the verb APPLY, as upstream does.
const applyPatchType = "application/apply-patch+yaml"

// Labels returns the labels of r's request metrics, cleaned as upstream
// cleans them so their values stay few:
//
//   - verb is GET (one object), LIST, WATCH, POST, PUT, PATCH, APPLY or
//     DELETE for a resource request, the HTTP method for any other;
//   - scope is "resource" (a named object, or a create), "namespace",
//     "cluster", or "" for a non-resource request;
//   - a non-resource request has no group, version or resource, and its
//     path, reduced to the server's few fixed ones, as subresource
//     (upstream labels /healthz, /metrics... the same way); any other
//     path counts as "other", so a client probing random paths cannot
//     grow the series without bound.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/metrics (CleanScope,
// CanonicalVerb, cleanVerb, cleanDryRun).
func Labels(r *http.Request, info *request.RequestInfo) RequestLabels {
	if !info.IsResourceRequest {
		return RequestLabels{Verb: strings.ToUpper(r.Method), Subresource: nonResourcePath(info.Path)}
	}
	return RequestLabels{
		Verb:        resourceVerb(r, info),
		DryRun:      dryRun(r),
		Group:       info.APIGroup,
		Version:     info.APIVersion,
		Resource:    info.Resource,
		Subresource: info.Subresource,
		Scope:       Scope(info),
	}
}

// Scope is the scope label of a resource request.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/metrics (CleanScope).
func Scope(info *request.RequestInfo) string {
	switch {
	case info.Name != "" || info.Verb == "create":
		return "resource"
	case info.Namespace != "":
		return "namespace"
	case info.IsResourceRequest:
		return "cluster"
	}
	return ""
}

// resourceVerb maps the Kubernetes verb of a resource request to the
// verb label upstream reports.
func resourceVerb(r *http.Request, info *request.RequestInfo) string {
	switch info.Verb {
	case "get":
		return "GET"
	case "list":
		return "LIST"
	case "watch":
		return "WATCH"
	case "create":
		return "POST"
	case "update":
		return "PUT"
	case "patch":
		if strings.HasPrefix(r.Header.Get("Content-Type"), applyPatchType) {
			return "APPLY"
		}
		return "PATCH"
	case "delete", "deletecollection":
		return "DELETE"
	}
	return strings.ToUpper(r.Method)
}

// dryRun is the dry_run label: the request's dryRun values, sorted and
// joined by commas; "" when none.
func dryRun(r *http.Request) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	values := r.URL.Query()["dryRun"]
	if len(values) == 0 {
		return ""
	}
	values = slices.Clone(values)
	slices.Sort(values)
	return strings.Join(slices.Compact(values), ",")
}

// nonResourcePaths are the fixed non-resource paths the server serves;
// every path below one of them is reported as it.
var nonResourcePaths = []string{
	"/healthz", "/livez", "/readyz", "/metrics", "/version",
	"/openapi/v2", "/openapi/v3", "/debug/pprof", "/apis", "/api",
}

// nonResourcePath reduces path to the fixed path it is below, or "other".
func nonResourcePath(path string) string {
	for _, p := range nonResourcePaths {
		if path == p || strings.HasPrefix(path, p+"/") {
			return p
		}
	}
	return "other"
}

// RequestKind is the request_kind of apiserver_current_inflight_requests:
// mutating for the verbs that write, read-only for the rest.
func RequestKind(info *request.RequestInfo) string {
	switch info.Verb {
	case "create", "update", "patch", "delete", "deletecollection":
		return MutatingKind
	}
	return ReadOnlyKind
}

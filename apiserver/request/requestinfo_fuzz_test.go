package request_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/minicp/minicp/apiserver/request"
)

// FuzzNewRequestInfo parses arbitrary paths and queries. NewRequestInfo
// must never panic; it must keep the path and give a lowercase verb; and
// for a resource request the fields must name exactly the path's
// segments, in the layout its doc comment draws, so authorization and
// admission judge the request the handler will serve.
func FuzzNewRequestInfo(f *testing.F) {
	for _, seed := range [][3]string{
		{"GET", "/api/v1/namespaces/ns/pods/web", ""},
		{"GET", "/api/v1/pods", "watch=true&resourceVersion=5"},
		{"GET", "/api/v1/watch/namespaces/ns/pods", ""},
		{"PATCH", "/apis/apps/v1/namespaces/ns/deployments/d/scale", ""},
		{"POST", "/api/v1/namespaces/ns/pods/web/binding", ""},
		{"GET", "/api/v1/namespaces/ns/services/s/proxy/a/b/c", ""},
		{"PUT", "/api/v1/namespaces/ns/finalize", ""},
		{"DELETE", "/api/v1/namespaces/ns", ""},
		{"DELETE", "/apis/example.com/v1/widgets", "labelSelector=a%3Db"},
		{"GET", "/apis/apps", ""},
		{"GET", "//api/v1/pods//", ""},
		{"OPTIONS", "/healthz", ""},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, method, path, query string) {
		// Real paths are short; a few KB covers every layout.
		if len(method)+len(path)+len(query) > 4096 {
			t.Skip()
		}
		r := &http.Request{Method: method, URL: &url.URL{Path: path, RawQuery: query}}
		info := request.NewRequestInfo(r)
		if info.Path != path {
			t.Fatalf("NewRequestInfo(%q).Path = %q", path, info.Path)
		}
		if info.Verb != strings.ToLower(info.Verb) {
			t.Fatalf("NewRequestInfo(%s %q).Verb = %q, not lowercase", method, path, info.Verb)
		}
		if !info.IsResourceRequest {
			return
		}
		want := strings.Split(strings.Trim(path, "/"), "/")
		if slices.Contains(want, "") {
			// An empty segment ("/namespaces//pods") reads as a missing
			// one, as upstream reads it; no route matches it, so the
			// request ends in a 404 whatever its fields say.
			return
		}
		got := rebuild(info, want)
		if info.Subresource == "proxy" && len(want) > len(got) {
			// What follows proxy is the proxied server's path.
			want = want[:len(got)]
		}
		if !slices.Equal(got, want) {
			t.Fatalf("NewRequestInfo(%q) = %+v, which names the path %q", path, info, got)
		}
		for _, name := range []string{info.Resource, info.Name} {
			if strings.Contains(name, "/") {
				t.Fatalf("NewRequestInfo(%q) = %+v: a name with a slash", path, info)
			}
		}
	})
}

// rebuild lays info out as the segments of a path, the inverse of
// NewRequestInfo; segments are the path's own, for the one thing info
// does not record: whether a deprecated /watch/ segment was there.
func rebuild(info *request.RequestInfo, segments []string) []string {
	parts := []string{info.APIPrefix}
	if info.APIPrefix == "apis" {
		parts = append(parts, info.APIGroup)
	}
	parts = append(parts, info.APIVersion)
	// The segment after the version is always read as /watch/ when it is
	// one; the verb says "watch" only for a GET.
	if len(segments) > len(parts) && segments[len(parts)] == "watch" {
		parts = append(parts, "watch")
	}
	// A namespace's own paths carry its name once, as the name.
	if info.Namespace != "" && (info.Resource != "namespaces" || info.Namespace != info.Name) {
		parts = append(parts, "namespaces", info.Namespace)
	}
	parts = append(parts, info.Resource)
	if info.Name != "" {
		parts = append(parts, info.Name)
	}
	if info.Subresource != "" {
		parts = append(parts, strings.Split(info.Subresource, "/")...)
	}
	return parts
}

package core

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundTripFunc is an http.RoundTripper of one function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

const testPrefix = "/api/v1/namespaces/ns/pods/web/proxy"

// serve is a rewritingTransport in front of a server that answers every
// request with header and body; it returns the answer and the request
// the server saw.
func serve(t *testing.T, reqPath string, header http.Header, body []byte) (*http.Response, []byte, *http.Request) {
	t.Helper()
	var seen *http.Request
	rt := &rewritingTransport{pathPrepend: testPrefix, clientHost: "apiserver:6443",
		next: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			seen = r
			return &http.Response{StatusCode: http.StatusOK, Header: header.Clone(), Body: io.NopCloser(bytes.NewReader(body)),
				ContentLength: int64(len(body)), Request: r}, nil
		})}
	req, err := http.NewRequest(http.MethodGet, "http://10.244.0.5:8080"+reqPath, nil)
	require.NoError(t, err)
	resp, err := rt.RoundTrip(req)
	require.NoError(t, err, "RoundTrip(%s)", reqPath)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, got, seen
}

func htmlHeader() http.Header { return http.Header{"Content-Type": {"text/html; charset=utf-8"}} }

// TestRewriteLinks: the links of an HTML page that point at the server
// itself go through the proxy path; others stay as they are.
func TestRewriteLinks(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"absolute path", `<a href="/about">`, `<a href="` + testPrefix + `/about">`},
		{"trailing slash kept", `<a href="/docs/">`, `<a href="` + testPrefix + `/docs/">`},
		{"query and fragment kept", `<a href="/q?x=1#top">`, `<a href="` + testPrefix + `/q?x=1#top">`},
		{"the pod's own host", `<img src="http://10.244.0.5:8080/logo.png"/>`, `<img src="` + testPrefix + `/logo.png"/>`},
		{"the API server's host", `<script src="https://apiserver:6443/app.js"></script>`,
			`<script src="https://apiserver:6443` + testPrefix + `/app.js"></script>`},
		{"under the proxy path already", `<a href="` + testPrefix + `/x">`, `<a href="` + testPrefix + `/x">`},
		{"another host", `<a href="https://example.org/x">`, `<a href="https://example.org/x">`},
		{"relative", `<a href="page.html">`, `<a href="page.html">`},
		{"not a URL attribute", `<a title="/about" href="/">`, `<a title="/about" href="` + testPrefix + `/">`},
		{"form action", `<form action="/login" method="post">`, `<form action="` + testPrefix + `/login" method="post">`},
		{"text and comments untouched", `<p>see /about</p><!-- /x -->`, `<p>see /about</p><!-- /x -->`},
		{"not a URL", `<a href="http://[::1">`, `<a href="http://[::1">`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, got, _ := serve(t, "/", htmlHeader(), []byte(tc.in))
			assert.Equal(t, tc.want, string(got), "page %q", tc.in)
			assert.Equal(t, int64(len(got)), resp.ContentLength, "page %q", tc.in)
		})
	}
}

// TestRewriteHeaders: the server learns where it is mounted, a redirect
// stays under the proxy path, and the server's CORS headers are dropped.
func TestRewriteHeaders(t *testing.T) {
	resp, _, seen := serve(t, "/a/b/", http.Header{"Location": {"/login?next=%2F"}, "Access-Control-Allow-Origin": {"*"}}, nil)
	assert.Equal(t, testPrefix+"/a/b/", seen.Header.Get("X-Forwarded-Uri"))
	assert.Equal(t, testPrefix+"/login?next=%2F", resp.Header.Get("Location"))
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))

	resp, _, _ = serve(t, "/", http.Header{"Location": {"https://example.org/"}}, nil)
	assert.Equal(t, "https://example.org/", resp.Header.Get("Location"), "another host")
}

// TestRewriteEncodings: a gzipped page is rewritten and gzipped again;
// other content types, unknown encodings and pages over the bound pass
// unchanged.
func TestRewriteEncodings(t *testing.T) {
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, err := zw.Write([]byte(`<a href="/x">`))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	h := htmlHeader()
	h.Set("Content-Encoding", "gzip")
	_, got, _ := serve(t, "/", h, zipped.Bytes())
	zr, err := gzip.NewReader(bytes.NewReader(got))
	require.NoError(t, err)
	page, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, `<a href="`+testPrefix+`/x">`, string(page))

	tests := []struct {
		name   string
		header http.Header
		body   string
	}{
		{"JSON", http.Header{"Content-Type": {"application/json"}}, `{"href":"/x"}`},
		{"unknown encoding", http.Header{"Content-Type": {"text/html"}, "Content-Encoding": {"br"}}, `<a href="/x">`},
		{"over the bound", http.Header{"Content-Type": {"text/html"}}, `<a href="/x">` + strings.Repeat(" ", maxRewriteBytes)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, got, _ := serve(t, "/", tc.header, []byte(tc.body))
			assert.Equal(t, tc.body, string(got), "%s passes unchanged", tc.name)
		})
	}
}

// TestRewriteURLKeepsEscapes: a path's escapes survive the rewrite.
func TestRewriteURLKeepsEscapes(t *testing.T) {
	rt := &rewritingTransport{pathPrepend: testPrefix}
	u, err := url.Parse("/a%20b/c")
	require.NoError(t, err)
	assert.Equal(t, testPrefix+"/a%20b/c", rt.rewriteURL(u, &url.URL{Host: "10.244.0.5:8080"}))
}

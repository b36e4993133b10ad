package apiserver

import (
	"crypto/sha512"
	"fmt"
	"net/http"
	"strings"
)

// writeCacheable writes a document whose content is its identity (a
// discovery or OpenAPI document) with an ETag, and answers 304 Not
// Modified to a client that already holds it. The body varies with
// Accept (JSON, aggregated discovery, protobuf), so a cache must key on it
// too.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/discovery/aggregated (etag.go).
func writeCacheable(w http.ResponseWriter, r *http.Request, contentType string, data []byte) {
	etag := etagOf(data)
	h := w.Header()
	h.Set("ETag", etag)
	h.Add("Vary", "Accept")
	if ifNoneMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
}

// etagOf is a strong ETag of data: the hex of its SHA-512, quoted, as
// kube-apiserver computes them.
func etagOf(data []byte) string {
	return fmt.Sprintf("%q", fmt.Sprintf("%X", sha512.Sum512(data)))
}

// ifNoneMatch reports whether an If-None-Match header names etag
// (or is "*").
func ifNoneMatch(header, etag string) bool {
	for tag := range strings.SplitSeq(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == etag || tag == "*" {
			return true
		}
	}
	return false
}

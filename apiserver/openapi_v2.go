package apiserver

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// OpenAPI v2 (swagger 2.0) at /openapi/v2: one document with every
// resource's paths and every kind's definition. kubectl reads it, in
// protobuf only, for client-side validation: it checks a manifest
// against it when the server does not validate that kind's fields
// itself, and skips kinds it does not define, so an unsupported kind
// then fails with kubectl's own "no matches for kind".
//
// Upstream: k8s.io/kube-openapi/pkg/handler (OpenAPIService).

// mediaTypeOpenAPIV2Protobuf is the swagger document as a gnostic
// openapi_v2.Document protobuf message, what client-go asks for. Clients
// ask for it as "...spec.v2@v1.0+protobuf" but cannot parse that "@" in
// a Content-Type, so the answer names the other spelling, as upstream's
// does.
const mediaTypeOpenAPIV2Protobuf = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"

// openAPIV2MediaTypes are the media types of /openapi/v2 by what the
// Accept header may name.
var openAPIV2MediaTypes = map[string]string{
	responsewriters.MediaTypeJSON: responsewriters.MediaTypeJSON,
	"*/*":                         responsewriters.MediaTypeJSON,
	"application/*":               responsewriters.MediaTypeJSON,
	mediaTypeOpenAPIV2Protobuf:    mediaTypeOpenAPIV2Protobuf,
	"application/com.github.proto-openapi.spec.v2@v1.0+protobuf": mediaTypeOpenAPIV2Protobuf,
}

// serveOpenAPIV2 serves /openapi/v2 as JSON or protobuf, whichever the
// Accept header lists first; 406 when it lists neither.
func (s *Server) serveOpenAPIV2(w http.ResponseWriter, r *http.Request) {
	mediaType, ok := negotiateOpenAPIV2(r.Header.Get("Accept"))
	if !ok {
		responsewriters.WriteError(w, r, apierrors.NewNotAcceptable(r.Header.Get("Accept")))
		return
	}
	data, err := json.Marshal(s.openAPIV2Document())
	if err == nil && mediaType == mediaTypeOpenAPIV2Protobuf {
		data, err = encodeOpenAPIV2(data)
	}
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	writeCacheable(w, r, mediaType, data)
}

// negotiateOpenAPIV2 returns the media type to answer with: the first of
// the Accept header's that /openapi/v2 speaks, JSON without one.
func negotiateOpenAPIV2(accept string) (string, bool) {
	if strings.TrimSpace(accept) == "" {
		return responsewriters.MediaTypeJSON, true
	}
	for part := range strings.SplitSeq(accept, ",") {
		// Not mime.ParseMediaType: the protobuf type's "@" is not a
		// token character, so it would reject what clients send.
		mt, _, _ := strings.Cut(part, ";")
		if out, ok := openAPIV2MediaTypes[strings.ToLower(strings.TrimSpace(mt))]; ok {
			return out, true
		}
	}
	return "", false
}

// openAPIV2Document is the swagger 2.0 document of every resource. Its
// shape (which keys, which value types) is what encodeOpenAPIV2 knows
// how to encode.
func (s *Server) openAPIV2Document() map[string]any {
	paths, defs := s.openAPIContent(openAPIV2, s.scheme.Resources())
	return map[string]any{
		"swagger":     "2.0",
		"info":        map[string]any{"title": "Kubernetes", "version": Version.GitVersion},
		"paths":       paths,
		"definitions": defs,
	}
}

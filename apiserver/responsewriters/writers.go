// Package responsewriters writes objects and Status errors to HTTP
// responses in the media type the client accepts (JSON or YAML). Every
// error response of the API server goes through WriteError, so every error
// a client sees is a Status with the right code.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/responsewriters.
package responsewriters

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/minicp/minicp/api/apierrors"
)

// Media types the server speaks.
const (
	MediaTypeJSON = "application/json"
	MediaTypeYAML = "application/yaml"
)

// StatusFor returns the StatusError in err's chain, or an InternalError
// wrapping err: only server faults are left without a Status by then.
func StatusFor(err error) *apierrors.StatusError {
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		return se
	}
	return apierrors.NewInternalError(err)
}

// WriteError writes err as a Status in the HTTP code it carries.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	se := StatusFor(err)
	status := se.Status()
	if status.Details != nil && status.Details.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(status.Details.RetryAfterSeconds))
	}
	WriteObject(w, r, int(status.Code), &status)
}

// WriteObject encodes obj in the media type r accepts and writes it with
// code.
func WriteObject(w http.ResponseWriter, r *http.Request, code int, obj any) {
	mediaType := MediaTypeJSON
	if r != nil && AcceptsYAMLOnly(r.Header.Get("Accept")) {
		mediaType = MediaTypeYAML
	}
	data, err := json.Marshal(obj)
	if err == nil && mediaType == MediaTypeYAML {
		data, err = yaml.JSONToYAML(data)
	}
	if err != nil {
		// Encoding our own types cannot fail but for a programming error;
		// say so rather than send a half-written body.
		http.Error(w, "encode response: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", mediaType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write(data)
}

// AcceptsYAMLOnly reports whether the Accept header prefers YAML over JSON.
func AcceptsYAMLOnly(accept string) bool {
	for part := range strings.SplitSeq(accept, ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		switch strings.TrimSpace(mt) {
		case MediaTypeYAML:
			return true
		case MediaTypeJSON, "*/*", "application/*":
			return false
		}
	}
	return false
}

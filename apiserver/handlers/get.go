package handlers

import (
	"net/http"

	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// Get serves GET on one object, or on its Scale, as the object, its
// PartialObjectMetadata or a Table, in JSON, YAML or protobuf.
func (s *Scope) Get(w http.ResponseWriter, r *http.Request) {
	info, _ := request.RequestInfoFrom(r.Context())
	out, err := s.negotiateOutput(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	// The object is read as it is now whatever the resourceVersion, but a
	// malformed one is 400, as LIST answers it.
	if rv := r.URL.Query().Get("resourceVersion"); rv != "" {
		if _, err := parseResourceVersion(rv); err != nil {
			responsewriters.WriteError(w, r, err)
			return
		}
	}
	if s.Scale != nil {
		s.getScale(w, r, info, out)
		return
	}
	obj, err := s.Store.Get(r.Context(), info.Namespace, info.Name)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	s.writeResult(w, r, out, http.StatusOK, obj)
}

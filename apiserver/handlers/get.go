package handlers

import (
	"net/http"

	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// Get serves GET on one object, or on its Scale.
func (s *Scope) Get(w http.ResponseWriter, r *http.Request) {
	info, _ := request.RequestInfoFrom(r.Context())
	if s.Scale != nil {
		s.getScale(w, r, info)
		return
	}
	obj, err := s.Store.Get(r.Context(), info.Namespace, info.Name)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	s.writeResult(w, r, http.StatusOK, obj)
}

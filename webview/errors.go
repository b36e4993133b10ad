package webview

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
)

// writeError answers with err's Status, as the API server answers: the
// page and scripts tell errors apart by code and reason alike.
func writeError(w http.ResponseWriter, err *apierrors.StatusError) {
	st := err.Status()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(int(st.Code))
	_ = json.NewEncoder(w).Encode(st)
}

// writeJSON answers 200 with v as JSON.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

func notFound(path string) *apierrors.StatusError {
	se := apierrors.NewNotFound(runtime.GroupResource{}, "")
	se.ErrStatus.Message = fmt.Sprintf("the web view serves no %s", path)
	return se
}

func methodNotAllowed(method string) *apierrors.StatusError {
	return apierrors.NewMethodNotSupported(runtime.GroupResource{Resource: "webview"}, method)
}
